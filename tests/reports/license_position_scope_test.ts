import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { licensePosition } from "../../reports/license_position.ts";
import {
  compareRows,
  ESTATE,
  rawAll,
  rawAnswers,
  type RawApi,
  rawGet,
  runAt,
} from "./support/raw_api.ts";
import { byLabel, jsonSection } from "./support/checks.ts";
import { type ServerFixture, serverFixture } from "./support/fixture.ts";
import { createQueryContext, type QueryContext } from "../../lib/query/context.ts";
import { rawOrganizationNames } from "./support/raw_names.ts";
import { rawElp, rawPositionRows, rawRowKey, rawSubtree } from "./support/raw_elp.ts";
import { POSITION_FIELDS } from "./support/position_fields.ts";

const TOKEN = "license-position-scope-test-token";
const COST = "Shortfall cost (unit price × shortfall)";
const VALUE = "Surplus value (unit price × surplus)";
/** The position figures compared with the recount: all but the compliance ratio. */
const { compliance: _, ...FIELDS } = POSITION_FIELDS;

type Row = Record<string, unknown>;
const key = (r: Row) => `${r["Application"]}|${r["Metric"]}`;

async function positions(api: RawApi, organization?: string, query?: QueryContext) {
  const params = organization === undefined ? {} : { organization };
  const out = await runAt(api, licensePosition, {
    now: TEST_NOW,
    formats: ["json"],
    params,
    ...(query ? { query } : {}),
  });
  return { out, rows: byLabel(jsonSection(out.json, "positions")) };
}

/**
 * {@link positions} made once per organisation, all sharing one query context (as the reports of
 * a pack do), for a block whose tests never change the store (each asks for the same scopes
 * again).
 */
function positionsOnce(
  fixture: ServerFixture,
): (organization?: string) => ReturnType<typeof positions> {
  const runs = new Map<string, ReturnType<typeof positions>>();
  let query: QueryContext | undefined;
  return (organization) => {
    const at = organization ?? "";
    let run = runs.get(at);
    if (!run) {
      runs.set(at, run = positions(fixture.api, organization, query ??= createQueryContext()));
    }
    return run;
  };
}

/** Cents of a printed amount. */
const cents = (n: unknown) => Math.round((n as number) * 100);

// The first two blocks never change the store: one server, and each scope's run made once.
const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });
const scope = positionsOnce(fixture);

describe("license-position in an organisation's scope (400 computers, seed 1)", () => {
  it("scopes to the organisation and its children, row for row as an independent recount", async () => {
    const api = rawAnswers(fixture.api);
    for (const organization of ["ORG05", "ORG02"]) {
      const orgs = await rawSubtree(api, organization);
      assert.ok(orgs.size > 1, `${organization} has children in the tree`);
      const want = rawPositionRows(await rawElp(api, { organization }));
      const { rows } = await scope(organization);
      assert.deepEqual(compareRows(rows, want, key, FIELDS), [], organization);
      assert.equal(rows.length, want.size);
    }
  });

  it("never shows a negative purchase or entitlement, nor a shortfall the requirement does not make", async () => {
    const estate = new Map((await scope()).rows.map((r) => [key(r), r]));
    for (const organization of ["ORG01", "ORG02", "ORG05", "ORG06", "ORG07", "ORG09", "ORG10"]) {
      const { rows } = await scope(organization);
      for (const r of rows) {
        const at = `${organization} ${key(r)}`;
        assert.ok((r["Purchased"] as number) >= 0, `${at}: purchased ${r["Purchased"]}`);
        assert.ok((r["Entitlements"] as number) >= 0, `${at}: entitlements ${r["Entitlements"]}`);
        const whole = estate.get(key(r));
        assert.ok(whole, `${at} is a position of the estate`);
        assert.ok(
          (r["Requirement"] as number) <= (whole["Requirement"] as number),
          `${at}: requirement ${r["Requirement"]} > the estate's ${whole["Requirement"]}`,
        );
        const short = r["Shortfall"] as number;
        assert.equal(
          short,
          Math.max(0, (r["Requirement"] as number) - (r["Entitlements"] as number)),
          at,
        );
        assert.ok(short <= (r["Requirement"] as number), `${at}: shortfall above requirement`);
      }
    }
  });

  it("gives the root organisation the estate's position, and children no more than their parent", async () => {
    const estate = (await scope()).rows;
    const root = (await scope("ORG01")).rows;
    assert.deepEqual(root, estate, "the root's scope is the whole estate");
    const parent = new Map(
      (await scope("ORG05")).rows.map((r) => [key(r), r]),
    );
    const sums = new Map<string, [number, number]>();
    for (const child of ["ORG06", "ORG07", "ORG08"]) {
      for (const r of (await scope(child)).rows) {
        const [e, q] = sums.get(key(r)) ?? [0, 0];
        sums.set(key(r), [e + (r["Entitlements"] as number), q + (r["Requirement"] as number)]);
      }
    }
    for (const [k, [entitlements, requirement]] of sums) {
      const p = parent.get(k);
      assert.ok(p, `${k} is a position of the parent`);
      assert.ok(entitlements <= (p["Entitlements"] as number), `${k}: children's entitlements`);
      assert.ok(requirement <= (p["Requirement"] as number), `${k}: children's requirement`);
    }
  });

  it("names the organisation on the cover and in the headline, with its sub-organisations", async () => {
    const names = await rawOrganizationNames(fixture.api);
    const { out, rows } = await scope("ORG05");
    const children = (await rawSubtree(fixture.api, "ORG05")).size - 1;
    const label = `Positions of ${names.get("ORG05")} (ORG05) and ${children} sub-organizations`;
    const fact = out.result.document.summary.find((f) => f.label.startsWith("Positions of"))!;
    assert.deepEqual([fact.label, fact.value], [label, rows.length]);
  });

  it("fails on an organisation the tree does not hold, naming it, before writing anything", async () => {
    await assert.rejects(positions(fixture.api, "ORG99"), (error: Error) => {
      assert.equal(error.name, "ParamError");
      assert.match(error.message, /"ORG99" is not an organisation/);
      return true;
    });
  });
});

describe("license-position figures reproduce from printed figures (400 computers, seed 1)", () => {
  it("prints every cost and value as printed unit price × printed units, to the cent", async () => {
    for (const organization of [undefined, "ORG05", "ORG07"]) {
      const { rows } = await scope(organization);
      let priced = 0;
      for (const r of rows) {
        if (r[COST] !== null) {
          priced++;
          assert.equal(cents(r[COST]), cents(r["Unit price"]) * (r["Shortfall"] as number), key(r));
        }
        if (r[VALUE] !== null) {
          const surplus = (r["Entitlements"] as number) - (r["Requirement"] as number);
          assert.equal(cents(r[VALUE]), cents(r["Unit price"]) * surplus, key(r));
        }
        if (r["Unit price"] !== null) {
          assert.equal(cents(r["Unit price"]) / 100, r["Unit price"], `${key(r)}: whole cents`);
        }
      }
      assert.ok(priced > 5, "the scope has priced shortfalls");
    }
  });

  it("names and counts unpriced shortfalls and sums them as no money", async () => {
    const { out, rows } = await scope();
    const unpriced = rows.filter((r) => r["Priced at"] === "Unpriced");
    assert.ok(unpriced.length > 0, "the estate has an unpriced shortfall");
    for (const r of unpriced) assert.equal(r[COST], null, `${key(r)}: blank, not 0`);
    const listed = byLabel(jsonSection(out.json, "unpriced")).map(key);
    assert.deepEqual(listed.sort(), unpriced.map(key).sort());
    const summary = out.result.document.summary;
    assert.equal(summary.find((f) => f.label === "Unpriced shortfalls")?.value, unpriced.length);
    assert.ok(!summary.some((f) => /\(\(none\)\)|no currency/.test(f.label)), "no money line");
    const totals = (jsonSection(out.json, "positions") as { totals?: Record<string, unknown> })
      .totals ?? {};
    assert.ok(!("(none)" in totals), "no totals line without a currency");
  });
});

describe("license-position marks a requirement resting on missing hardware (400 computers, seed 1)", () => {
  const fixture = serverFixture({ computers: 400, seed: 1, token: TOKEN });

  /** Per Application|Metric label: computers whose requirement rests on hardware the API lacks. */
  async function rawUnderstated(): Promise<Map<string, Set<string>>> {
    const elp = await rawElp(fixture.api);
    const out = new Map<string, Set<string>>();
    for (const r of elp.tracking) {
      if (!(r.requirement > 0) || !(r.initialRequirement === 0 || r.unknownPhysicalHost > 0)) {
        continue;
      }
      if (await rawGet(fixture.api, `${ESTATE}/computers/${r.computerId}/hardware`)) continue;
      const line = rawRowKey(elp, `${r.applicationId}|${r.metricId}`);
      out.set(line, (out.get(line) ?? new Set()).add(r.computerId));
    }
    return out;
  }

  it("marks each position with its hosts without hardware data, and counts them in the headline", async () => {
    const tracking = await rawAll(fixture.api, `${ESTATE}/computers-metering`);
    const host = tracking.find((r) =>
      r.physicalHost === 1 && r.requirement > 0 && r.initialRequirement > 0
    );
    assert.ok(host, "the estate has a host carrying a per-core requirement");
    // The host loses its hardware inventory; the service counts its minimum instead.
    const where = { computerId: host.computerId, applicationId: host.applicationId };
    const before = { initialRequirement: host.initialRequirement, requirement: host.requirement };
    fixture.srv.store.update("hardware", { computerId: host.computerId }, { computerId: "GONE" });
    fixture.srv.store.update("metric_tracking", where, { initialRequirement: 0, requirement: 16 });
    try {
      const want = await rawUnderstated();
      assert.ok(want.size > 0, "a position rests on missing hardware");
      const { out, rows } = await positions(fixture.api);
      for (const r of rows) {
        const n = want.get(key(r))?.size ?? 0;
        const note = n === 0
          ? null
          : `Understated: ${n} host${n === 1 ? "" : "s"} without hardware data`;
        assert.equal(r["Requirement understated"], note, key(r));
      }
      const summary = out.result.document.summary;
      const hosts = new Set([...want.values()].flatMap((s) => [...s]));
      assert.equal(
        summary.find((f) => f.label.startsWith("Hosts without hardware data"))?.value,
        hosts.size,
      );
      assert.equal(
        summary.find((f) => f.label.startsWith("Positions understated"))?.value,
        want.size,
      );
    } finally {
      fixture.srv.store.update("hardware", { computerId: "GONE" }, { computerId: host.computerId });
      fixture.srv.store.update("metric_tracking", where, before);
    }
  });
});
