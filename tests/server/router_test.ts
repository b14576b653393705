import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { AREA_PREFIX, OPERATIONS } from "../../lib/api/operations.ts";
import { readQuery, REGISTRY_ALIAS_PREFIX, Router } from "../../lib/server/router.ts";
import { operation } from "../../lib/api/operations.ts";
import { HttpError } from "../../lib/server/serialize.ts";

const router = new Router();

/** An operation's full path with each parameter filled by a value naming the parameter. */
function samplePath(
  op: (typeof OPERATIONS)[number],
): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = AREA_PREFIX[op.area] + op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params[name] = `v-${name}`;
    return params[name];
  });
  return { path, params };
}

describe("Router", () => {
  it("routes every operation of the table to itself with its parameters", () => {
    for (const op of OPERATIONS) {
      const { path, params } = samplePath(op);
      const r = router.resolve(op.method, path);
      assert.equal(r.kind, "match", `${op.method} ${path}`);
      if (r.kind === "match") {
        assert.equal(r.op.id, op.id);
        assert.deepEqual(r.params, params);
      }
    }
  });

  it("lets literal segments win over parameters", () => {
    const cases: [string, string][] = [
      ["/api/sam/v1/licenses/entitlements/computers", "licenses.computerEntitlements"],
      ["/api/sam/v1/licenses/entitlements/entitlement-states", "licenses.entitlementStates"],
      ["/api/sam/v1/licenses/transfers/APP1", "licenses.transferSummary"],
      ["/api/sam/v1/licenses/tracking/APP1/users", "licenses.userTracking"],
      ["/api/sam/v1/licenses/L1/costs-summary", "licenses.costsSummary"],
      ["/api/cloud-cost/v1/connectors/validate-report-name", "connectors.validateReportName"],
    ];
    for (const [path, id] of cases) {
      const method = id.startsWith("connectors.") ? "POST" : "GET";
      const r = router.resolve(method, path);
      assert.equal(r.kind === "match" && r.op.id, id, path);
    }
  });

  it("backtracks to a parameter when the literal branch has no route", () => {
    const r = router.resolve("GET", "/api/sam/v1/licenses/transfers");
    assert.equal(r.kind === "match" && r.op.id, "licenses.get");
    assert.deepEqual(r.kind === "match" && r.params, { id: "transfers" });
  });

  it("answers the registry under both spellings of its prefix", () => {
    for (const prefix of [AREA_PREFIX.registry, REGISTRY_ALIAS_PREFIX]) {
      const r = router.resolve("GET", `${prefix}/applications/R1`);
      assert.equal(r.kind === "match" && r.op.id, "registry.application");
    }
  });

  it("decodes parameters and accepts one trailing slash", () => {
    const r = router.resolve("GET", "/api/sam/estate/v1/computers/C%201%2F2/");
    assert.deepEqual(r.kind === "match" && r.params, { id: "C 1/2" });
    assert.equal(router.resolve("GET", "/api/sam/estate/v1//computers").kind, "none");
    assert.equal(router.resolve("GET", "/api/sam/estate/v1/computers/%E0%A4%A").kind, "none");
  });

  it("resolves HEAD to the GET operation of a path, and only there", () => {
    const head = router.resolve("HEAD", "/api/sam/estate/v1/computers");
    assert.equal(head.kind === "match" && head.op.id, "estate.computers");
    const post = router.resolve("HEAD", "/api/cloud-cost/v1/connectors/test");
    assert.deepEqual(post.kind === "method" && post.allow, ["POST"]);
  });

  it("lists the allowed methods of a known path and finds nothing elsewhere", () => {
    const m = router.resolve("DELETE", "/api/cloud-cost/v1/connectors");
    assert.deepEqual(m.kind === "method" && [...m.allow].sort(), ["GET", "HEAD", "POST"]);
    assert.equal(router.resolve("GET", "/api/sam/estate/v1/nothing").kind, "none");
    assert.equal(router.resolve("GET", "/api/sam/estate/v2/computers").kind, "none");
  });
});

describe("readQuery", () => {
  const url = (q: string) => new URL(`http://x/p?${q}`);
  const status = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e instanceof HttpError ? `${e.status} ${e.message}` : String(e);
    }
    return "ok";
  };

  it("applies the defaults and limits of Q1", () => {
    const op = operation("estate.computers");
    assert.deepEqual(readQuery(op, url("")), { pageSize: 100, pageNumber: 1 });
    assert.match(status(() => readQuery(op, url("page_size=0"))), /^400 page_size/);
    assert.match(status(() => readQuery(op, url("page_size=1001"))), /^400 page_size/);
    assert.match(status(() => readQuery(op, url("page_number=0"))), /^400 page_number/);
    assert.match(status(() => readQuery(op, url("page_size=1.5"))), /^400 page_size/);
    assert.match(status(() => readQuery(op, url("page_number=x"))), /^400 page_number/);
    assert.equal(readQuery(op, url("page_size=1000")).pageSize, 1000);
  });

  it("lets connector paging go above 1000 but not below 1", () => {
    const op = operation("connectors.list");
    assert.equal(readQuery(op, url("page_size=5000")).pageSize, 5000);
    assert.match(status(() => readQuery(op, url("page_size=0"))), /^400 page_size/);
  });

  it("accepts a filter only under Q1 and reports a syntax error with its column", () => {
    assert.match(
      status(() =>
        readQuery(operation("licenses.entitlementStates"), url("filter=name%20-eq%20x"))
      ),
      /^400 filter is not supported/,
    );
    assert.match(
      status(() => readQuery(operation("licenses.get"), url("filter=name%20-eq%20x"))),
      /^400 filter is not supported/,
    );
    assert.match(
      status(() => readQuery(operation("estate.computers"), url("filter=status%20-eq"))),
      /^400 Invalid filter: .*column 11/,
    );
  });
});
