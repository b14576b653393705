import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { explainConnectorNotFound } from "../../lib/api/connector_path.ts";
import { ConnectorPathError, NotFoundError, ServerError } from "../../lib/api/errors.ts";
import { withServer } from "../helpers/server.ts";

const notFound = (path: string) =>
  new NotFoundError({ status: 404, method: "GET", path, message: "Not Found" });
const noEnv = () => undefined;

describe("a 404 from the connector API", () => {
  it("says the default path is samkit's guess, the path tried, and the variable that sets it", () => {
    const e = explainConnectorNotFound(notFound("/api/cloud-cost/v1/connectors"), { env: noEnv });
    assert.ok(e instanceof ConnectorPathError);
    assert.ok(e instanceof NotFoundError, "still a 404 for callers that branch on it");
    assert.equal(e.origin, "guess");
    assert.equal(e.prefix, "/api/cloud-cost/v1");
    assert.match(e.message, /GET \/api\/cloud-cost\/v1\/connectors answered 404/);
    assert.match(e.message, /samkit's guess/);
    assert.match(e.message, /Set SAM_CONNECTORS_PREFIX/);
    assert.doesNotMatch(e.message, /^Not Found|→ 404: Not Found$/);
  });

  it("names SAM_CONNECTORS_PREFIX as the source of a prefix it set", () => {
    const env = (name: string) => name === "SAM_CONNECTORS_PREFIX" ? "api/cc/v2/" : undefined;
    const e = explainConnectorNotFound(notFound("/api/cc/v2/connectors"), { env });
    assert.ok(e instanceof ConnectorPathError);
    assert.equal(e.origin, "environment");
    assert.equal(e.prefix, "/api/cc/v2");
    assert.match(e.message, /The prefix \/api\/cc\/v2 comes from SAM_CONNECTORS_PREFIX/);
  });

  it("names the option when the client was given one", () => {
    const e = explainConnectorNotFound(notFound("/x/connectors"), {
      connectorsPrefix: "/x",
      env: () => "/ignored",
    });
    assert.ok(e instanceof ConnectorPathError);
    assert.equal(e.origin, "option");
    assert.match(e.message, /connectorsPrefix option/);
  });

  it("leaves other errors as they are", () => {
    const server = new ServerError({ status: 503, method: "GET", path: "/x", message: "" });
    assert.equal(explainConnectorNotFound(server, { env: noEnv }), server);
    const plain = new Error("boom");
    assert.equal(explainConnectorNotFound(plain, { env: noEnv }), plain);
  });

  it("explains the list's 404 from a server, which the bare client reports as not found", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/connectors", status: 404 });
      const client = createClient({
        baseUrl: srv.url,
        auth: { clientId: "demo", clientSecret: "demo-secret" },
      });
      const raw = await client.connectors.list().toArray().catch((e) => e);
      assert.ok(raw instanceof NotFoundError, String(raw));
      const e = explainConnectorNotFound(raw, { env: noEnv });
      assert.ok(e instanceof ConnectorPathError);
      assert.equal(e.path, "/api/cloud-cost/v1/connectors");
      assert.equal(e.cause, raw);
    });
  });
});
