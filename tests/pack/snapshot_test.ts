import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { redactBody } from "../../lib/pack/snapshot.ts";
import { registerSecret } from "../../lib/api/secrets.ts";

describe("snapshot bodies", () => {
  it("drop a secret samkit holds by value, under any field name and in any text", () => {
    registerSecret("echoed-9c1f-plain");
    const body = JSON.stringify({ id: "c1", notes: "key echoed-9c1f-plain here", n: 2 });
    const kept = redactBody(body);
    assert.ok(!kept.includes("echoed-9c1f-plain"), kept);
    assert.deepEqual(JSON.parse(kept), { id: "c1", notes: "key <redacted> here", n: 2 });
    assert.equal(redactBody("text echoed-9c1f-plain"), "text <redacted>");
  });

  it("replace every sensitive value at any depth, and keep other values", () => {
    const body = JSON.stringify({
      items: [
        { id: "c1", securityCode: "SC-1", hostName: "h1" },
        { id: "l1", licenseKeys: "K-1", connectionDetails: { bucketName: "b", secretKey: "S-1" } },
      ],
      access_token: "T-1",
    });
    const kept = redactBody(body);
    for (const secret of ["SC-1", "K-1", "S-1", "T-1"]) assert.ok(!kept.includes(secret), secret);
    const parsed = JSON.parse(kept);
    assert.equal(parsed.items[0].securityCode, "<redacted>");
    assert.equal(parsed.items[0].hostName, "h1");
    assert.equal(parsed.items[1].connectionDetails.bucketName, "b");
  });

  it("keep a body without secrets byte for byte, nulls as null, and redact secrets in non-JSON text", () => {
    const plain = '{ "id": "c1",  "securityCode": null }';
    assert.equal(redactBody(plain), plain);
    assert.equal(redactBody("oops secretKey: S-2"), "oops secretKey: <redacted>");
  });
});
