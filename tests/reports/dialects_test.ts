/**
 * Every report runs against the reference server in both wire dialects with the same estate:
 * `spec` (the spec's registry spelling only, numbers and booleans as strings, `M/d/yyyy` license
 * dates, license transfers for a computer as one object) and `real` (the public service's:
 * `software-registry`, typed values, RFC 3339 dates, transfers paged, flag enums as arrays of
 * names, no registry `version`). The JSON outputs must be equal but for the source line and the
 * columns the real service does not fill, which its run leaves out and names (the registry's
 * version, which the public service's application names carry): the figures do not
 * depend on the dialect.
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { REAL_REGISTRY_PREFIX, SPEC_REGISTRY_PREFIX } from "../../lib/api/base_url.ts";
import { createClient } from "../../lib/api/client.ts";
import { type Dialect, withVersionInName as serverName } from "../../lib/server/serialize.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { getToken, withServer } from "../helpers/server.ts";

const ESTATE = { computers: 120, seed: 7 };

// deno-lint-ignore no-explicit-any
type Json = any;

/** The public registry's names carry the version the spec sends apart (as its server does). */
function withVersionInName(row: Json): Json {
  if (typeof row.application !== "string" || !row.version) return row;
  return { ...row, application: serverName({ name: row.application, version: row.version }).name };
}

/**
 * The spec run's output without the columns the real run left out as unfilled (asserting each is
 * named in the real section's `omittedColumns` and is a field the real service does not send).
 */
function withoutOmitted(id: string, spec: Json, real: Json): Json {
  const sections = spec.sections.map((s: Json, i: number) => {
    const omitted: Json[] = real.sections[i]?.omittedColumns ?? [];
    if (omitted.length === 0) return s;
    for (const o of omitted) assert.equal(o.key, "version", `${id}/${s.id}: ${o.key} left out`);
    const gone = new Set(omitted.map((o) => o.key));
    return {
      ...s,
      columns: s.columns.filter((c: Json) => !gone.has(c.key)),
      rows: s.rows.map((r: Json) =>
        Object.fromEntries(
          Object.entries(withVersionInName(r)).filter(([k]) => !gone.has(k)),
        )
      ),
      omittedColumns: omitted,
    };
  });
  return { ...spec, sections };
}
const ROOT = new URL("../../", import.meta.url).pathname;
const TOKEN = "dialects-test-token";

/** `deno task report …` as a user runs it (permission set `report`), against a server. */
async function reportCli(srv: RunningServer, args: string[]) {
  await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
  const out = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "dialects-" });
  try {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=report", "--no-prompt", "main.ts", "report", ...args, "--out", out],
      cwd: ROOT,
      env: { NO_COLOR: "1", SAM_BASE_URL: srv.url, SAM_TOKEN: TOKEN, SAM_REGISTRY_PREFIX: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const files: string[] = [];
    for await (const e of Deno.readDir(out)) files.push(e.name);
    return { code: run.code, stderr: new TextDecoder().decode(run.stderr), files };
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

/** Requests a server saw below a path prefix. */
function hits(srv: RunningServer, prefix: string): number {
  let n = 0;
  for (const [path, count] of srv.stats.byPath) if (path.startsWith(prefix + "/")) n += count;
  return n;
}

interface Run {
  /** The JSON output of each report, by id, without its source line. */
  readonly outputs: Map<string, unknown>;
  /** The registry prefix each client settled on (or would use), by report id. */
  readonly prefixes: Map<string, string>;
  /** Requests under each registry spelling. */
  readonly spec: number;
  readonly real: number;
}

/** Runs every report (JSON) against a fresh server of the dialect, one client per report. */
async function runAll(dialect: Dialect): Promise<Run> {
  // The spec dialect answers the spec's spelling only, so detection really falls back to it.
  const options = { ...ESTATE, dialect, ...(dialect === "spec" ? { registryAlias: false } : {}) };
  return await withServer(options, async (srv) => {
    const outputs = new Map<string, unknown>();
    const prefixes = new Map<string, string>();
    for (const report of API_REPORTS) {
      const client = createClient({
        baseUrl: srv.url,
        clientId: "demo",
        clientSecret: "demo-secret",
        env: () => undefined,
      });
      const { json } = await runReportForTest({ server: srv, report, client });
      assert.equal(typeof json?.source, "string", `${report.id} (${dialect}): no source`);
      const { source: _source, ...rest } = json;
      outputs.set(report.id, rest);
      prefixes.set(report.id, client.registryPrefix.current);
    }
    return {
      outputs,
      prefixes,
      spec: hits(srv, SPEC_REGISTRY_PREFIX),
      real: hits(srv, REAL_REGISTRY_PREFIX),
    };
  });
}

describe("every report in both dialects", () => {
  after(closeTestBrowser);

  it("gives the same JSON from the spec's wire and the public service's", async () => {
    const spec = await runAll("spec");
    const real = await runAll("real");
    assert.deepEqual([...spec.outputs.keys()], API_REPORTS.map((r) => r.id));
    let omitted = 0;
    for (const report of API_REPORTS) {
      const r = real.outputs.get(report.id) as Json;
      omitted += r.sections.filter((s: Json) => s.omittedColumns).length;
      assert.deepEqual(
        r,
        withoutOmitted(report.id, spec.outputs.get(report.id), r),
        `${report.id}: the real dialect's output differs from the spec's`,
      );
    }
    // unused-software's two Version columns: the real registry sends no version.
    assert.ok(omitted >= 2, `columns left out on real: ${omitted}`);
    // The registry was read under each dialect's own spelling: detected, not configured.
    assert.ok(spec.spec > 0, "no report read the registry under the spec's spelling");
    assert.equal(real.spec, 0, "the real dialect was asked at the spec's spelling");
    assert.ok(real.real > 0, "no report read the registry under the public spelling");
    const readers = API_REPORTS.filter((r) => spec.prefixes.get(r.id) === SPEC_REGISTRY_PREFIX);
    assert.ok(readers.length > 0);
    for (const r of readers) assert.equal(real.prefixes.get(r.id), REAL_REGISTRY_PREFIX, r.id);
  });

  it("serves the two wire forms: string quirks on spec, typed values on real", async () => {
    const first = async (dialect: Dialect) =>
      await withServer({ ...ESTATE, dialect }, async (srv) => {
        const res = await fetch(`${srv.url}/api/sam/v1/licenses?page_size=50`, {
          headers: { authorization: `Bearer ${await getToken(srv)}` },
        });
        const body = await res.json();
        return body.items.find((l: Record<string, unknown>) =>
          l.quantity !== null && l.purchaseDate !== null
        );
      });
    const [spec, real] = [await first("spec"), await first("real")];
    assert.equal(spec.id, real.id);
    assert.equal(typeof spec.quantity, "string");
    assert.equal(typeof real.quantity, "number");
    assert.equal(Number(spec.quantity), real.quantity);
    assert.match(spec.purchaseDate, /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d\d:\d\d [AP]M$/);
    assert.match(real.purchaseDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("serves flag enums as bitmasks on spec and as the vendor's names on real, and no registry version on real", async () => {
    const read = async (dialect: Dialect, path: string) =>
      await withServer({ ...ESTATE, dialect }, async (srv) => {
        const res = await fetch(`${srv.url}${path}`, {
          headers: { authorization: `Bearer ${await getToken(srv)}` },
        });
        return (await res.json()).items as Record<string, unknown>[];
      });
    const licenses = "/api/sam/v1/licenses?page_size=1000";
    const [spec, real] = [await read("spec", licenses), await read("real", licenses)];
    const flagged = spec.findIndex((l) => (l.incompleteReasons as number) > 0);
    assert.ok(flagged >= 0, "no license with an incomplete reason");
    assert.equal(typeof spec[flagged].incompleteReasons, "number");
    assert.ok(Array.isArray(real[flagged].incompleteReasons));
    assert.ok((real[flagged].incompleteReasons as string[]).length > 0);
    for (const l of real) {
      for (const n of l.incompleteReasons as string[]) assert.match(n, /^Missing|^Invalid/, n);
    }
    const registry = await read("real", `${REAL_REGISTRY_PREFIX}/applications?page_size=5`);
    assert.ok(registry.length > 0);
    for (const app of registry) assert.equal("version" in app, false, "real registry sent version");
  });

  it("says with --verbose which registry path the CLI detected, on either dialect", async () => {
    for (
      const [dialect, prefix] of [
        ["spec", SPEC_REGISTRY_PREFIX],
        ["real", REAL_REGISTRY_PREFIX],
      ] as const
    ) {
      const options = { ...ESTATE, dialect, registryAlias: false, token: TOKEN };
      await withServer(options, async (srv) => {
        const run = await reportCli(srv, [
          "end-of-life-software",
          "--format",
          "json",
          "--quiet",
          "--verbose",
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(run.files, ["end-of-life-software.json"]);
        assert.match(run.stderr, new RegExp(`samkit: registry: ${prefix} \\(detected\\)`));
        assert.match(run.stderr, /samkit: requests: \d+/);
      });
    }
  });

  it("takes --registry-prefix as given: the wrong spelling fails (exit 1) naming the path", async () => {
    await withServer({ ...ESTATE, dialect: "real", token: TOKEN }, async (srv) => {
      const run = await reportCli(srv, [
        "end-of-life-software",
        "--format",
        "json",
        "--quiet",
        "--registry-prefix",
        "softwareregistry",
      ]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /softwareregistry\/v1\/applications/);
      assert.deepEqual(run.files, []);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 0);
    });
  });
});
