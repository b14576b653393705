/**
 * A connector service that echoes the keys it was sent on success — under their own names, under
 * a name that says nothing, and inside a message — and the bearer token: `connectors test` and
 * `connectors add` print none of them, in JSON or otherwise.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.ts";

const ACCESS = "AKECHOACCESSKEY00042";
const SECRET = "hunter2-plain-connector";
const TOKEN = "tok-echoed-back-7f3a";
const PREFIX = "/api/cloud-cost/v1";

/** The echo of a request body's keys: by name, under an innocent name, inside a message. */
function echo(details: Record<string, string>) {
  return {
    connectionDetails: details,
    clientSecret: details.secretKey,
    receipt: details.secretKey,
    accessId: details.accessKey,
    seenToken: TOKEN,
    seenBy: `by ${TOKEN}`,
  };
}

function startEchoService() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.json() : {};
    const details = body.connectionDetails ?? {};
    if (path === `${PREFIX}/connectors/test`) {
      return Response.json({
        status: { code: "Success", message: `checked ${details.accessKey}/${details.secretKey}` },
        ...echo(details),
      });
    }
    if (path === `${PREFIX}/connectors`) {
      return Response.json({
        id: "CCN99",
        name: details.name ?? "echo",
        type: "ProviderA",
        createdAt: "2026-11-01T00:00:00Z",
        status: {
          contextId: `ctx ${details.secretKey}`,
          type: "inProgress",
          errorCode: null,
          updatedAt: "2026-11-01T00:00:00Z",
        },
        ...echo(details),
      }, { status: 201 });
    }
    return Response.json({ message: "not found" }, { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const DETAILS = ["--type", "ProviderAStore", "--bucket", "billing", "--report-prefix", "cur/"]
  .concat(["--region", "eu-west-1", "--report-name", "echo-report"]);

describe("connectors against a service that echoes the keys", () => {
  let service: ReturnType<typeof startEchoService>;
  before(() => {
    service = startEchoService();
  });
  after(async () => {
    await service?.close();
  });

  for (const action of ["test", "add"]) {
    for (const json of [true, false]) {
      it(`${action}${json ? " --json" : ""} prints no key, secret or token`, async () => {
        const r = await runCli(
          ["connectors", action, ...DETAILS, ...(json ? ["--json"] : [])],
          {
            set: "connectors",
            env: {
              SAM_BASE_URL: service.url,
              SAM_TOKEN: TOKEN,
              SAMKIT_CONNECTOR_ACCESS_KEY: ACCESS,
              SAMKIT_CONNECTOR_SECRET_KEY: SECRET,
            },
          },
        );
        assert.equal(r.code, 0, r.stderr);
        const out = r.stdout + r.stderr;
        for (const value of [ACCESS, SECRET, TOKEN]) {
          assert.ok(!out.includes(value), `${value} printed:\n${out}`);
        }
        assert.match(r.stdout, /<redacted>/);
        if (json) {
          const printed = JSON.parse(r.stdout);
          assert.equal(printed.clientSecret, "<redacted>");
          assert.equal(printed.receipt, "<redacted>");
        }
      });
    }
  }
});
