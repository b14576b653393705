import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { registerSecret, scrubDeep, scrubSecrets } from "../../lib/api/secrets.ts";
import { isSecretLikeName, printable, redact, REDACTED, Redactor } from "../../lib/api/redact.ts";
import { registerSmtpCredentials } from "../../lib/pack/smtp_transport.ts";
import { MailError } from "../../lib/pack/mail.ts";
import { readSecret, resolveCredentials } from "../../lib/tenants/credentials.ts";
import { databaseUrl } from "../../lib/queue/database_url.ts";
import { RetryableAttemptError } from "../../lib/queue/run_tenant_job.ts";

/** A value unique to one test, matching no redaction pattern. */
const plain = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}-plain`;

describe("secrets removed by value", () => {
  it("removes a registered secret that matches no pattern from any text", () => {
    const secret = plain("hunter2");
    const text = `535 no such login with ${secret}, try again`;
    assert.equal(redact(text), text, "no pattern knows it");
    registerSecret(secret);
    assert.equal(redact(text), `535 no such login with ${REDACTED}, try again`);
    assert.equal(new MailError(`Invalid login: ${text}`).message.includes(secret), false);
    assert.equal(new RetryableAttemptError("acme", text).message.includes(secret), false);
  });

  it("removes it percent-encoded, form-encoded and JSON-escaped", () => {
    const secret = `p@ss wörd/"${crypto.randomUUID().slice(0, 6)}"`;
    registerSecret(secret);
    for (
      const spelt of [
        encodeURIComponent(secret),
        new URLSearchParams({ v: secret }).toString().slice(2),
        JSON.stringify(secret).slice(1, -1),
      ]
    ) {
      assert.equal(scrubSecrets(`x ${spelt} y`), `x ${REDACTED} y`, spelt);
    }
  });

  it("removes a secret that contains another whole", () => {
    const inner = plain("inner");
    const outer = `${inner}-and-more`;
    registerSecret(inner);
    registerSecret(outer);
    assert.equal(scrubSecrets(`[${outer}]`), `[${REDACTED}]`);
  });

  it("removes a name only where it stands alone, and ignores values too short to be secrets", () => {
    registerSecret("mailer", { name: true });
    assert.equal(scrubSecrets("user mailer refused"), `user ${REDACTED} refused`);
    assert.equal(scrubSecrets("mailers and remailer"), "mailers and remailer");
    registerSecret("abc");
    assert.equal(scrubSecrets("abc"), "abc");
  });

  it("removes every string of a record and keeps its keys", () => {
    const secret = plain("deep");
    registerSecret(secret);
    const record = { error: `refused ${secret}`, reports: [{ id: secret.length, note: secret }] };
    assert.deepEqual(scrubDeep(record), {
      error: `refused ${REDACTED}`,
      reports: [{ id: secret.length, note: REDACTED }],
    });
  });

  it("registers what a client's Redactor learns (tokens it received, keys it sent)", () => {
    const token = plain("access-token");
    new Redactor().add(token);
    assert.equal(redact(`issued ${token}`), `issued ${REDACTED}`);
  });

  it("keeps a configured secret however many renewed tokens come after it", () => {
    const pinned = plain("pinned");
    registerSecret(pinned);
    const first = plain("renewed");
    registerSecret(first, { renewed: true });
    for (let i = 0; i < 300; i++) registerSecret(plain(`renewed${i}`), { renewed: true });
    assert.equal(scrubSecrets(pinned), REDACTED);
    assert.equal(scrubSecrets(first), first, "the oldest renewed token is forgotten");
  });

  it("removes SMTP credentials and the base64 an SMTP login sends them in", () => {
    const user = plain("smtp-user");
    const pass = plain("smtp-pass");
    registerSmtpCredentials({ user, pass });
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    for (const echoed of [user, pass, b64(user), b64(pass), b64(`\u0000${user}\u0000${pass}`)]) {
      assert.equal(redact(`535 ${echoed} refused`), `535 ${REDACTED} refused`, echoed);
    }
  });

  it("registers each credential a tenant reads, but not its client id", async () => {
    const secret = plain("client-secret");
    const file = plain("file-token");
    const reader = {
      env: (name: string) => name === "ID" ? "tenant-client-id" : secret,
      file: () => Promise.resolve(`${file}\n`),
    };
    const tenant = {
      id: "acme",
      name: "Acme",
      baseUrl: "https://sam.example.com",
      credentials: { clientId: { env: "ID" }, clientSecret: { env: "SECRET" } },
      maxConcurrency: 8,
    };
    await resolveCredentials(tenant, reader);
    await readSecret("acme", { file: "acme_token" }, reader);
    assert.equal(
      redact(`client tenant-client-id: ${secret} / ${file}`),
      `client tenant-client-id: ${REDACTED} / ${REDACTED}`,
    );
  });

  it("registers the database password as written and decoded", () => {
    const pw = `${plain("db")}/é`;
    databaseUrl(`postgresql://samkit:${encodeURIComponent(pw)}@db.example:5432/samkit`);
    assert.equal(redact(`auth failed: ${pw}`), `auth failed: ${REDACTED}`);
    assert.equal(
      redact(`postgresql://samkit:${encodeURIComponent(pw)}@db.example`),
      `postgresql://samkit:${REDACTED}@db.example`,
    );
  });
});

describe("printable response bodies", () => {
  it("never shows a field named like a secret, and removes known secrets elsewhere", () => {
    for (
      const name of [
        "secretKey",
        "password",
        "clientSecret",
        "client_secret",
        "token",
        "apiKey",
        "api-key",
        "smtpPassword",
        "privateKey",
        "refreshToken",
      ]
    ) {
      assert.ok(isSecretLikeName(name), name);
    }
    for (const name of ["name", "reportName", "bucketName", "region", "status"]) {
      assert.ok(!isSecretLikeName(name), name);
    }
    const secret = plain("echoed");
    registerSecret(secret);
    const body = {
      name: "n",
      connectionDetails: { bucketName: "b", accessKey: "AK", apiKey: 42, region: "eu" },
      note: `created with ${secret}`,
      list: [{ password: null, receipt: secret }],
    };
    assert.deepEqual(printable(body), {
      name: "n",
      connectionDetails: { bucketName: "b", accessKey: REDACTED, apiKey: REDACTED, region: "eu" },
      note: `created with ${REDACTED}`,
      list: [{ password: null, receipt: REDACTED }],
    });
  });
});
