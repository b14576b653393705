import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TenantsFileError, validateTenants } from "../../lib/tenants/tenants_file.ts";
import { CredentialsError, resolveCredentials } from "../../lib/tenants/credentials.ts";

const good = {
  id: "acme",
  name: "Acme Ltd",
  baseUrl: "https://sam.example.com/",
  credentials: { clientId: { env: "ACME_ID" }, clientSecret: { file: "/run/secrets/acme" } },
};

function fieldOf(doc: unknown): string {
  try {
    validateTenants(doc, "tenants.json");
  } catch (e) {
    assert.ok(e instanceof TenantsFileError, String(e));
    return e.field;
  }
  throw new Error("accepted");
}

describe("the tenants file", () => {
  it("accepts a tenant and fills in defaults", () => {
    const [t] = validateTenants({ tenants: [good] }, "tenants.json");
    assert.equal(t.baseUrl, "https://sam.example.com");
    assert.equal(t.maxConcurrency, 16);
  });

  it("names the bad field", () => {
    assert.equal(fieldOf({}), "tenants");
    assert.equal(fieldOf({ tenants: [{ ...good, id: "a b" }] }), "tenants[0].id");
    assert.equal(fieldOf({ tenants: [{ ...good, baseUrl: "nope" }] }), "tenants[0].baseUrl");
    assert.equal(
      fieldOf({ tenants: [{ ...good, maxConcurrency: 0 }] }),
      "tenants[0].maxConcurrency",
    );
    assert.equal(fieldOf({ tenants: [good, good] }), "tenants[1].id");
    assert.equal(fieldOf({ tenants: [{ ...good, extra: 1 }] }), "tenants[0].extra");
    assert.equal(
      fieldOf({ tenants: [{ ...good, baseUrl: "https://u:p@sam.example.com" }] }),
      "tenants[0].baseUrl",
    );
  });

  it("refuses secrets in the file", () => {
    assert.equal(
      fieldOf({ tenants: [{ ...good, credentials: { token: "abc" } }] }),
      "tenants[0].credentials.token",
    );
    assert.equal(
      fieldOf({ tenants: [{ ...good, credentials: { secret: "abc" } }] }),
      "tenants[0].credentials.secret",
    );
    assert.equal(
      fieldOf({ tenants: [{ ...good, clientSecret: "abc" }] }),
      "tenants[0].clientSecret",
    );
  });

  it("reads credentials from the named variable or file, naming what is missing", async () => {
    const [t] = validateTenants({ tenants: [good] }, "tenants.json");
    const reader = {
      env: (n: string) => n === "ACME_ID" ? "acme" : undefined,
      file: (p: string) =>
        p === "/run/secrets/acme"
          ? Promise.resolve("s3cret\n")
          : Promise.reject(new Deno.errors.NotFound()),
    };
    assert.deepEqual(await resolveCredentials(t, reader), {
      clientId: "acme",
      clientSecret: "s3cret",
    });
    await assert.rejects(
      resolveCredentials(t, { ...reader, env: () => undefined }),
      (e) => e instanceof CredentialsError && /ACME_ID is not set/.test(e.message),
    );
    await assert.rejects(
      resolveCredentials(t, { ...reader, file: () => Promise.reject(new Deno.errors.NotFound()) }),
      (e) => e instanceof CredentialsError && /\/run\/secrets\/acme does not exist/.test(e.message),
    );
  });
});
