import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { AREA_PREFIX, OPERATIONS } from "../../lib/api/operations.ts";
import { createClient } from "../../lib/api/client.ts";
import { type AreaId, DOCTOR_AREAS, REPORT_AREAS } from "../../lib/cli/doctor_areas.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { withServer } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";

/** The request paths of each area, most specific first. */
const AREA_PATHS: readonly [AreaId, RegExp][] = [
  ["clusters", /^\/api\/sam\/estate\/v1\/dcc/],
  ["users", /^\/api\/sam\/estate\/v1\/user-accounts/],
  ["computers", /^\/api\/sam\/estate\/v1\//],
  ["compliance", /^\/api\/sam\/v1\/compliance\//],
  ["licenses", /^\/api\/sam\/v1\//],
  ["registry", /^\/api\/sam\/software-?registry\/v1\//],
  ["organizations", /^\/api\/organizations\/v1\//],
  ["connectors", /^\/api\/cloud-cost\/v1\//],
];
const areaOf = (path: string) => AREA_PATHS.find(([, re]) => re.test(path))?.[0];

const forbidden = () =>
  Response.json({ error: { code: 403, message: "Forbidden." } }, { status: 403 });

const doctor = (args: string[], env: Record<string, string> = {}) =>
  runCli(["doctor", ...args], { set: "doctor", env });

/**
 * A proxy in front of `upstream` that answers 403 for one area, adds rate-limit headers and, if
 * asked, sends a `Date` that far from the real clock.
 */
async function withProxy<T>(
  options: { upstream: string; deny?: AreaId; dateOffsetMs?: number },
  fn: (url: string) => Promise<T>,
): Promise<T> {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (options.deny && areaOf(url.pathname) === options.deny) return forbidden();
    const res = await fetch(options.upstream + url.pathname + url.search, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    const headers = new Headers(res.headers);
    headers.set("x-ratelimit-limit", "600");
    headers.set("x-ratelimit-remaining", "599");
    if (options.dateOffsetMs) {
      headers.set("date", new Date(Date.now() + options.dateOffsetMs).toUTCString());
    }
    return new Response(res.body, { status: res.status, headers });
  });
  try {
    return await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

const DEMO = { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" };

describe("the doctor's report map", () => {
  it("has an entry for exactly the reports that read the SAM API", () => {
    assert.deepEqual(Object.keys(REPORT_AREAS).sort(), API_REPORTS.map((r) => r.id).sort());
  });

  it("probes each area with an operation whose path is that area's", () => {
    for (const area of DOCTOR_AREAS) {
      const op = OPERATIONS.find((o) => o.id === area.operation)!;
      assert.equal(areaOf(AREA_PREFIX[op.area] + op.path), area.id, area.operation);
    }
  });

  it("says which areas each report reads, and which block it when they answer 403", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      for (const report of API_REPORTS) {
        const read = new Set<AreaId>();
        const client = (deny?: AreaId) =>
          createClient({
            baseUrl: srv.url,
            clientId: "demo",
            clientSecret: "demo-secret",
            fetch: (input, init) => {
              const area = areaOf(new URL(String(input)).pathname);
              if (area) read.add(area);
              return area && area === deny ? Promise.resolve(forbidden()) : fetch(input, init);
            },
          });
        await runReportForTest({ server: srv, report, client: client() });
        const declared = REPORT_AREAS[report.id]!;
        assert.deepEqual(
          [...read].sort(),
          [...declared.needs, ...declared.optional].sort(),
          `${report.id} reads these areas`,
        );
        for (const area of [...read]) {
          const run = runReportForTest({ server: srv, report, client: client(area) });
          if (declared.needs.includes(area)) {
            await assert.rejects(run, { name: "PermissionError" }, `${report.id} needs ${area}`);
          } else {
            await run; // Optional: the report runs without it.
          }
        }
      }
    });
  });
});

describe("samkit doctor", () => {
  it("passes every check against the reference server and exits 0", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      const r = await doctor(["--base-url", srv.url, "--json"], DEMO);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const json = JSON.parse(r.stdout);
      assert.equal(json.ready, true);
      const notOk = json.checks.filter((c: { status: string }) => c.status !== "ok");
      assert.deepEqual(notOk, []);
      assert.ok(json.reports.every((rep: { runs: boolean }) => rep.runs));
      const token = json.checks.find((c: { check: string }) => c.check === "token");
      assert.match(token.detail, /client credentials: token issued/);
    });
  });

  it("fails the area that answers 403, naming its scope and the reports it blocks", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      await withProxy({ upstream: srv.url, deny: "licenses" }, async (url) => {
        const json = await doctor(["--base-url", url, "--json"], DEMO);
        assert.equal(json.code, 1, json.stderr);
        const { checks, ready, reports } = JSON.parse(json.stdout);
        assert.equal(ready, false);
        const row = checks.find((c: { check: string }) => c.check === "licenses");
        assert.equal(row.status, "FAIL");
        assert.equal(row.scope, "sam.license.r");
        assert.match(row.detail, /^403 at \/api\/sam\/v1\/licenses: .*sam\.license\.r/);
        assert.match(row.fix, /grant the API client the scope sam\.license\.r/);
        const blocked = reports.filter((r: { runs: boolean }) => !r.runs).map((r: { id: string }) =>
          r.id
        );
        assert.deepEqual(row.blocks, blocked);
        assert.ok(blocked.includes("license-cost-summary") && !blocked.includes("stale-computers"));
        const rates = checks.find((c: { check: string }) => c.check === "rate-limit headers");
        assert.equal(rates.detail, "x-ratelimit-limit, x-ratelimit-remaining");

        const text = await doctor(["--base-url", url], DEMO);
        assert.equal(text.code, 1);
        assert.match(text.stdout, /^licenses +FAIL +403 at \/api\/sam\/v1\/licenses/m);
        assert.match(text.stdout, /fix: grant the API client the scope sam\.license\.r/);
        assert.match(text.stdout, /Not ready: \d+ of \d+ reports cannot run: license-cost-summary/);
      });
    });
  });

  it("warns, without failing, when only an optional area is refused or the clocks differ", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      await withProxy(
        { upstream: srv.url, deny: "organizations", dateOffsetMs: 5 * 60_000 },
        async (url) => {
          const r = await doctor(["--base-url", url, "--json"], DEMO);
          assert.equal(r.code, 0, r.stdout + r.stderr);
          const { checks } = JSON.parse(r.stdout);
          const org = checks.find((c: { check: string }) => c.check === "organizations");
          assert.equal(org.status, "warn");
          assert.match(org.detail, /organisations shown by id/);
          assert.match(org.fix, /tenant administrator/);
          const clock = checks.find((c: { check: string }) => c.check === "clock skew");
          assert.equal(clock.status, "warn");
          assert.match(clock.detail, /this machine's clock is (29\d|30\d) s behind the service's/);
        },
      );
    });
  });

  it("fails the token row with advice for a refused token and never prints it", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      const token = "not-a-token-0123456789abcdef";
      const r = await doctor(["--base-url", srv.url], { SAM_TOKEN: token });
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^token +FAIL +bearer token \(SAM_TOKEN\): 401/m);
      assert.match(r.stdout, /fix: the service refused the token/);
      assert.match(r.stdout, /^computers +skip +needs a token/m);
      assert.ok(!(r.stdout + r.stderr).includes(token), "the token is never printed");
    });
  });

  it("fails the token row for refused client credentials and never prints the secret", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      const secret = "wrong-secret-value-9876";
      const r = await doctor(["--base-url", srv.url, "--json"], {
        SAM_CLIENT_ID: "demo",
        SAM_CLIENT_SECRET: secret,
      });
      assert.equal(r.code, 1);
      const token = JSON.parse(r.stdout).checks[0];
      assert.equal(token.status, "FAIL");
      assert.match(token.fix, /check SAM_CLIENT_ID and SAM_CLIENT_SECRET/);
      assert.ok(!(r.stdout + r.stderr).includes(secret), "the secret is never printed");
    });
  });

  it("prints usage with --help and exits 2 on a bad flag, before any request", async () => {
    const help = await doctor(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: deno task doctor/);
    const bad = await doctor(["--jsn"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown flag --jsn/);
  });
});
