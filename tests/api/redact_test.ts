import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { redact, REDACTED, Redactor, redactValue } from "../../lib/api/redact.ts";
import { SENSITIVE_FIELDS } from "../../lib/api/catalogue.ts";

describe("redact", () => {
  it("scrubs bearer tokens in any case", () => {
    assert.equal(
      redact("Authorization: Bearer abc.DEF-ghi_9="),
      `Authorization: Bearer ${REDACTED}`,
    );
    assert.equal(redact("bearer xyz"), `bearer ${REDACTED}`);
  });

  it("scrubs client_secret in a form body and keeps the other pairs", () => {
    assert.equal(
      redact("grant_type=client_credentials&client_id=demo&client_secret=s3cr3t&x=1"),
      `grant_type=client_credentials&client_id=demo&client_secret=${REDACTED}&x=1`,
    );
  });

  it("scrubs every sensitive field written as JSON, form pair or name: value", () => {
    for (const name of SENSITIVE_FIELDS) {
      const secret = "Zq9-secret-value";
      for (
        const text of [`{"${name}":"${secret}","ok":1}`, `${name}=${secret}`, `${name}: ${secret}`]
      ) {
        const out = redact(text);
        assert.ok(!out.includes(secret), `${name} leaked from ${text}: ${out}`);
        assert.ok(out.includes(REDACTED));
      }
    }
  });

  it("leaves text without secrets alone", () => {
    const text = 'GET /api/sam/v1/licenses → 400: {"hostName":"pc-1"} quantity=12';
    assert.equal(redact(text), text);
  });

  it("never lets an arbitrary secret value through a JSON pair", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SENSITIVE_FIELDS),
        fc.string({ minLength: 4 }).filter((s) =>
          !/[\\"]/.test(s) && s.trim() === s && /\w{4}/.test(s)
        ),
        (name, secret) => {
          const out = redact(JSON.stringify({ before: 1, [name]: secret, after: 2 }));
          assert.ok(!out.includes(`"${secret}"`), out);
        },
      ),
    );
  });

  it("scrubs known literal secrets wherever they appear", () => {
    assert.equal(redact("refused hunter22 twice", ["hunter22"]), `refused ${REDACTED} twice`);
  });
});

describe("redactValue", () => {
  it("replaces sensitive values deep in objects and arrays, keeping dates", () => {
    const when = new Date(0);
    const out = redactValue({
      type: "ProviderAStore",
      when,
      connectionDetails: { bucketName: "b", accessKey: "AK", secretKey: "SK" },
      list: [{ licenseKeys: "K-1" }],
    });
    assert.deepEqual(out, {
      type: "ProviderAStore",
      when,
      connectionDetails: { bucketName: "b", accessKey: REDACTED, secretKey: REDACTED },
      list: [{ licenseKeys: REDACTED }],
    });
  });
});

describe("Redactor", () => {
  it("keeps pinned secrets while renewed tokens rotate out", () => {
    const r = new Redactor();
    r.add("the-client-secret", { pinned: true });
    // Past the client's 64 and the process's 256 renewed secrets: the oldest is forgotten.
    for (let i = 0; i < 300; i++) r.add(`token-number-${i}`);
    assert.equal(r.scrub("the-client-secret"), REDACTED);
    assert.equal(r.scrub("token-number-299"), REDACTED);
    assert.equal(r.scrub("token-number-0"), "token-number-0");
  });
});

describe("redact paths", () => {
  it("leaves a path that ends in a sensitive word alone but still hides a value after it", () => {
    assert.equal(
      redact("POST /idp/api/connect/token: request failed"),
      "POST /idp/api/connect/token: request failed",
    );
    assert.equal(redact("token: abc123 failed"), "token: <redacted> failed");
  });
});
