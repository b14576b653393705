import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { PermissionError } from "../../lib/api/errors.ts";
import { AREA_PREFIX, operation, OPERATIONS } from "../../lib/api/operations.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";

const PUBLIC_API = new URL("../../../shared/spec/public-api.md", import.meta.url);

/** The scope names public-api.md lists (`sam.x.r`), read from its text. */
async function documentedScopes(): Promise<Set<string>> {
  const text = await Deno.readTextFile(PUBLIC_API);
  const line = text.slice(text.indexOf("Every operation declares"), text.indexOf("say which one"));
  return new Set([...line.matchAll(/`(sam\.[a-z.]+\.r)`/g)].map((m) => m[1]!));
}

function clientOf(srv: RunningServer, token: string): SamClient {
  return createClient({
    baseUrl: srv.url,
    auth: { token },
    sleep: () => Promise.resolve(),
    random: () => 0,
  });
}

describe("the scope each operation needs", () => {
  it("is given for every operation, named or with the reason no document names it", () => {
    for (const op of OPERATIONS) {
      const s = op.tokenScope;
      assert.ok(s, `${op.id} has no token scope`);
      if (s.kind === "named") assert.match(s.name, /^sam\.[a-z.]+\.r$/, op.id);
      else assert.ok(s.why.length > 20, `${op.id}: no reason given`);
    }
  });

  it("names only scopes public-api.md lists, and uses every one it lists", async () => {
    const documented = await documentedScopes();
    assert.deepEqual(
      [...documented].sort(),
      ["sam.application.r", "sam.computer.r", "sam.estate.dcc.r", "sam.license.r"],
    );
    const used = new Set<string>();
    for (const op of OPERATIONS) {
      if (op.tokenScope.kind !== "named") continue;
      assert.ok(documented.has(op.tokenScope.name), `${op.id}: ${op.tokenScope.name}`);
      used.add(op.tokenScope.name);
    }
    assert.deepEqual([...used].sort(), [...documented].sort());
  });

  it("follows the area of the public document each path belongs to", () => {
    const scopeOf = (id: string) => {
      const s = operation(id).tokenScope;
      return s.kind === "named" ? s.name : undefined;
    };
    assert.equal(scopeOf("licenses.list"), "sam.license.r");
    assert.equal(scopeOf("licenses.complianceSummary"), "sam.license.r");
    assert.equal(scopeOf("estate.computers"), "sam.computer.r");
    assert.equal(scopeOf("estate.applicationUsage"), "sam.computer.r");
    assert.equal(scopeOf("estate.dataCenterClusters"), "sam.estate.dcc.r");
    assert.equal(scopeOf("estate.dccMembers"), "sam.estate.dcc.r");
    assert.equal(scopeOf("registry.applications"), "sam.application.r");
    assert.equal(scopeOf("registry.metric"), "sam.application.r");
    for (const op of OPERATIONS) {
      if (op.area === "licenses") assert.equal(scopeOf(op.id), "sam.license.r", op.id);
      if (op.area === "registry") assert.equal(scopeOf(op.id), "sam.application.r", op.id);
      if (op.area === "estate" && op.path.startsWith("/dcc")) {
        assert.equal(scopeOf(op.id), "sam.estate.dcc.r", op.id);
      }
    }
  });

  it("is not invented where no public document says it (connectors)", () => {
    for (const op of OPERATIONS.filter((o) => o.area === "connectors")) {
      assert.equal(op.tokenScope.kind, "unnamed", op.id);
    }
  });
});

describe("a 403 from the service", () => {
  it("from the token endpoint is not blamed on the operation's scope", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      srv.faults.add({ match: "/connect/token", status: 403 });
      const client = createClient({
        baseUrl: srv.url,
        auth: { clientId: "demo", clientSecret: "demo-secret" },
      });
      const e = await client.licenses.list().toArray().catch((e) => e);
      assert.ok(e instanceof PermissionError, String(e));
      assert.equal(e.operation, undefined);
      assert.match(e.message, /^POST \/idp\/api\/connect\/token → 403/);
      assert.doesNotMatch(e.message, /sam\.license\.r|demo-secret/);
    });
  });

  it("names the operation, its method and path, and the scope the token needs", async () => {
    await withServer({ computers: 5, token: "tok-403-licenses" }, async (srv) => {
      srv.faults.add({ match: "/licenses", status: 403, times: 5 });
      const client = clientOf(srv, "tok-403-licenses");
      const e = await client.licenses.list().toArray().catch((e) => e);
      assert.ok(e instanceof PermissionError, String(e));
      assert.equal(e.operation, "licenses.list");
      assert.equal(e.scopeName, "sam.license.r");
      assert.ok(
        e.message.startsWith(
          "permission denied (403) for licenses.list (GET /api/sam/v1/licenses): the token " +
            "needs the scope sam.license.r; ask your tenant administrator to grant it to the " +
            "API client.",
        ),
        e.message,
      );
      assert.match(e.message, /The service said "Fault injected \(403\)\."/);
      assert.match(e.message, /feature/);
      assert.ok(!e.message.includes("tok-403-licenses"));
      assert.equal(srv.stats.path(AREA_PREFIX.licenses + "/licenses"), 1, "no retry");
    });
  });

  it("names the operation of an object read, a registry read, a flat collection and the tree", async () => {
    await withServer({ computers: 5, token: "tok-403-kinds" }, async (srv) => {
      const client = clientOf(srv, "tok-403-kinds");
      const [computer] = await client.estate.computers({ pageSize: 1 }).toArray();
      srv.faults.add({ status: 403, times: 100 });
      const cases: [id: string, call: () => Promise<unknown>, scope: string | undefined][] = [
        ["estate.computer", () => client.estate.computer(computer!.id!), "sam.computer.r"],
        [
          "registry.applications",
          () => client.registry.applications().toArray(),
          "sam.application.r",
        ],
        [
          "estate.displayAdapters",
          () => client.estate.displayAdapters(computer!.id!).toArray(),
          "sam.computer.r",
        ],
        ["organizations.tree", () => client.organizations.tree().toArray(), undefined],
        ["connectors.list", () => client.connectors.list().toArray(), undefined],
      ];
      for (const [id, call, scope] of cases) {
        const e = await call().catch((e) => e);
        assert.ok(e instanceof PermissionError, `${id}: ${e}`);
        assert.equal(e.operation, id);
        assert.equal(e.scopeName, scope, id);
        assert.ok(e.message.startsWith(`permission denied (403) for ${id} (GET /api/`), e.message);
        if (scope === undefined) assert.match(e.message, /ask your tenant administrator which/);
      }
    });
  });
});
