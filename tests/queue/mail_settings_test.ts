import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TenantsFileError, validateTenants } from "../../lib/tenants/tenants_file.ts";
import { MailSettingsError, tenantEmail } from "../../lib/tenants/mail_settings.ts";
import { prepareJobMail } from "../../lib/queue/job_mail.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { REPORTS } from "../../reports/mod.ts";

const TENANT = {
  id: "acme",
  name: "Acme",
  baseUrl: "https://sam.acme.example",
  credentials: { token: { env: "ACME_TOKEN" } },
};

const tenantWith = (mail: unknown) => validateTenants({ tenants: [{ ...TENANT, mail }] }, "t.json");

const PACK = validatePack({
  name: "weekly",
  reports: [{ id: "license-cost-summary", formats: ["json"] }],
  email: {
    host: "smtp.pack.example",
    from: "sam@pack.example",
    to: ["all@pack.example"],
    subject: "S {pack}",
  },
}, { file: "p.json", reports: REPORTS });

describe("a tenant's mail settings", () => {
  it("takes SMTP secrets only by reference", () => {
    assert.throws(
      () => tenantWith({ host: "smtp.acme.example", password: "hunter2" }),
      (e: Error) =>
        e instanceof TenantsFileError && /mail\.password/.test(e.message) &&
        !e.message.includes("hunter2"),
    );
    assert.throws(() => tenantWith({ smtpSecret: { env: "X" } }), /mail\.smtpSecret/);
    assert.throws(() => tenantWith({ to: ["not an address"] }), /mail\.to: not an email/);
    assert.throws(() => tenantWith({ port: 25 }), /mail\.host: port and tls need the host/);
    const [t] = tenantWith({
      host: "smtp.acme.example",
      to: ["cfo@acme.example"],
      password: { file: "acme_smtp" },
    });
    assert.deepEqual(t.mail, {
      host: "smtp.acme.example",
      to: ["cfo@acme.example"],
      password: { file: "acme_smtp" },
    });
  });

  it("lays the tenant's section over the pack's, sending credentials only to the host they belong to", () => {
    const [own] = tenantWith({
      host: "smtp.acme.example",
      tls: "tls",
      to: ["cfo@acme.example"],
      user: { env: "ACME_SMTP_USER" },
    });
    const a = tenantEmail(PACK, own);
    assert.deepEqual([a.email.host, a.email.port, a.email.tls], ["smtp.acme.example", 465, "tls"]);
    assert.deepEqual([a.email.from, a.email.to, a.email.subject], [
      "sam@pack.example",
      ["cfo@acme.example"],
      "S {pack}",
    ]);
    assert.deepEqual(a.auth, { kind: "refs", user: { env: "ACME_SMTP_USER" } });
    // Only recipients: the pack's server, with the worker's SAMKIT_SMTP_* as `pack --send`.
    const [recipients] = tenantWith({ to: ["cfo@acme.example"] });
    const b = tenantEmail(PACK, recipients);
    assert.equal(b.email.host, "smtp.pack.example");
    assert.deepEqual(b.auth, { kind: "env" });
    // No pack email and no tenant host: nowhere to send.
    const bare = { ...PACK, email: undefined };
    assert.throws(() => tenantEmail(bare, recipients), MailSettingsError);
  });

  it("reads the credentials on the worker and refuses an SMTP host its permissions do not allow", async () => {
    const [own] = tenantWith({
      host: "127.0.0.1",
      port: 2525,
      tls: "none",
      to: ["cfo@acme.example"],
      user: { env: "ACME_SMTP_USER" },
      password: { file: "acme_smtp" },
    });
    const reader = {
      env: (n: string) => n === "ACME_SMTP_USER" ? "mailer" : undefined,
      file: (p: string) => Promise.resolve(p === "acme_smtp" ? "pw\n" : ""),
    };
    const mail = await prepareJobMail(PACK, own, reader);
    assert.deepEqual(mail.smtpCredentials, { user: "mailer", pass: "pw" });
    assert.equal(mail.pack.email?.host, "127.0.0.1");
    const [far] = tenantWith({ host: "smtp.far.example", to: ["cfo@acme.example"] });
    await assert.rejects(
      () => prepareJobMail(PACK, far, reader),
      /does not allow connecting to the SMTP server smtp\.far\.example:587.*SAMKIT_SMTP_HOSTS/,
    );
  });
});
