import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ParamError } from "../../lib/report/errors.ts";
import { TEST_NOW, withServer } from "../helpers/server.ts";
import { unusedSoftware } from "../../reports/unused_software.ts";
import {
  cents,
  compareRows,
  ESTATE,
  type Expected,
  LICENSES,
  rawAll,
  rawAnswers,
  type RawApi,
  rawFlat,
  type RawItem,
  REGISTRY,
  runAt,
  wholeDays,
} from "./support/raw_api.ts";
import { appKey, assertNoData, assertRows, byLabel, installKey } from "./support/checks.ts";
import { jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationLabel, rawOrganizationNames } from "./support/raw_names.ts";
import { type RawReclaim, rawReclaim } from "./support/raw_reclaim.ts";
import { rawAppLabel } from "./support/raw_elp.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { resolveParams } from "../../lib/report/params.ts";
import type { Row } from "../../lib/report/model.ts";
import { clientFor } from "../helpers/run_report.ts";

const TOKEN = "unused-software-test-token";
// deno-lint-ignore no-explicit-any
type Json = any;
const DAY = 86_400_000;

/** The expected figures for `thresholds`, from raw API JSON without any samkit code. */
async function expectedFigures(api: RawApi, thresholds: number[]) {
  const [installs, computers, registry, entitlements, states, names] = await Promise.all([
    rawAll(api, `${ESTATE}/computers-applications`),
    rawAll(api, `${ESTATE}/computers`),
    rawAll(api, `${REGISTRY}/applications`),
    rawAll(api, `${LICENSES}/licenses/entitlements/computers`),
    rawFlat(api, `${LICENSES}/licenses/entitlements/entitlement-states`),
    rawOrganizationNames(api),
  ]);
  const apps = new Map<string, RawItem>(registry.map((a) => [a.id, a]));
  const hosts = new Map<string, RawItem>(computers.map((c) => [c.id, c]));
  // States in which an install uses up a license.
  const licensedStates = new Set(
    states.filter((s) => s.name.startsWith("Licensed") || s.name === "Under-licensed").map((s) =>
      s.id
    ),
  );
  const licensed = new Set(
    entitlements.filter((e) => licensedStates.has(e.entitlementStateId)).map((e) =>
      `${e.computerId}/${e.applicationId}`
    ),
  );
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const bucketIndex = (days: number) => thresholds.filter((t) => days >= t).length - 1;
  const bucketText = (b: number) =>
    b < thresholds.length - 1
      ? `Unused ${thresholds[b]}–${thresholds[b + 1] - 1} days`
      : `Unused ${thresholds[b]}+ days`;
  // A never-used install listed says how long ago it was discovered (unknown: says so).
  const neverText = (idle: number | null) =>
    idle === null
      ? "Never used, discovery date unknown"
      : `Never used, discovered ${first}+ days ago`;
  const perApp = new Map<string, Record<string, number>>();
  const perComputer = new Map<string, Record<string, Expected>>();
  for (const i of installs) {
    if (i.isInstalled !== true) continue;
    const counts = perApp.get(i.applicationId) ??
      Object.fromEntries(
        ["installations", "recent", "never", "candidates", ...thresholds.map((t) => `idle${t}`)]
          .map((k) => [k, 0]),
      );
    perApp.set(i.applicationId, counts);
    counts.installations++;
    const since = i.lastUsed ?? i.firstDiscovered ?? null;
    const idle = since === null ? null : wholeDays(since, TEST_NOW);
    if (!i.lastUsed) counts.never++;
    else if (idle! < first) counts.recent++;
    else counts[`idle${thresholds[bucketIndex(idle!)]}`]++;
    const candidate = idle === null || idle >= top;
    if (candidate) counts.candidates++;
    if (idle !== null && idle < first) continue;
    const app = apps.get(i.applicationId);
    const key = `${hosts.get(i.computerId)?.hostName}|${app?.name}|${app?.version}`;
    perComputer.set(key, {
      organization: rawOrganizationLabel(names, hosts.get(i.computerId)?.organizationId ?? null),
      lastUsed: i.lastUsed ? i.lastUsed.slice(0, 10) : null,
      neverUsed: !i.lastUsed,
      idleDays: idle,
      bucket: i.lastUsed ? bucketText(bucketIndex(idle!)) : neverText(idle),
      licensed: licensed.has(`${i.computerId}/${i.applicationId}`),
      candidate,
    });
  }
  const applications = new Map<string, Record<string, Expected>>();
  for (const [id, c] of perApp) {
    if (c.installations === c.recent) continue;
    const app = apps.get(id);
    applications.set(`${app?.name ?? `(unknown application ${id})`}|${app?.version ?? ""}`, c);
  }
  return { applications, perComputer };
}

/** Reclaim rows keyed `Application|Metric`, as the expected rows are. */
const reclaimKey = (r: Record<string, unknown>) => `${r["Application"]}|${r["Metric"]}`;
const RECLAIM_FIELDS = {
  installs: "Harvest candidates",
  units: "Idle units",
  entitlements: "Entitlements",
  requirement: "Requirement",
  shortfallFirst: "Shortfall first",
  // The service's usage beside (unused_software_usage_test.ts recounts it).
  serviceCovered: "Covered (service)",
  servicePartial: "Partly covered (service)",
  reclaimable: "Reclaimable units",
  currency: "Currency",
  unitPrice: "Unit price",
  reclaimValue: "Reclaimable value",
  note: "Blank because",
};
const RECLAIM_LABELS = ["Application", "Metric", ...Object.values(RECLAIM_FIELDS)];
const asExpected = (rows: Map<string, RawReclaim>) =>
  new Map<string, Record<string, Expected>>(
    [...rows].map(([k, r]) => [k, { ...r } as unknown as Record<string, Expected>]),
  );

/** Per metric, the reclaimable units; per currency, the value in cents. */
function rawTotals(rows: Iterable<RawReclaim>) {
  const units = new Map<string, number>();
  const value = new Map<string, number>();
  for (const r of rows) {
    if (r.reclaimable === null) continue;
    units.set(r.metric, (units.get(r.metric) ?? 0) + (r.reclaimable as number));
    if (r.currency === null) continue;
    const c = r.currency as string;
    value.set(c, (value.get(c) ?? 0) + cents(r.reclaimValue as number));
  }
  return { units, value };
}

const APP_FIELDS = (thresholds: number[]) => ({
  installations: "Installations",
  recent: `Used within ${thresholds[0]} days`,
  ...Object.fromEntries(thresholds.map((t, b) => [
    `idle${t}`,
    b < thresholds.length - 1 ? `Unused ${t}–${thresholds[b + 1] - 1} days` : `Unused ${t}+ days`,
  ])),
  never: "Never used",
  candidates: "Harvest candidates",
});
const INSTALL_FIELDS = {
  organization: "Organization",
  lastUsed: "Last used",
  idleDays: "Days unused",
  bucket: "Bucket",
  licensed: "Licensed",
  candidate: "Harvest candidate",
};
const INSTALL_LABELS = [
  "Organization",
  "Computer",
  "Application",
  "Version",
  "Last used",
  "First discovered",
  "Days unused",
  "Bucket",
  "Licensed",
  "Harvest candidate",
];
const APP_LABELS = (thresholds: number[]) => [
  "Application",
  "Version",
  "Manufacturer",
  ...Object.values(APP_FIELDS(thresholds)),
];
const VALUE_LABELS = ["Currency", "Positions to reclaim", "Value", "Blank because"];

describe("unused-software against a 400-computer estate", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });
  // No test of this block changes the store: the default run, in every format its tests read,
  // and the 180-day recount are made once, by the first test that needs them; every run shares
  // one query context (as a pack's reports do) and the recounts one read of each raw answer.
  const query = createQueryContext();
  let answers: RawApi | undefined;
  const raw = () => answers ??= rawAnswers(fixture.api);
  let defaultRun: ReturnType<typeof runAt> | undefined;
  const runDefault = () =>
    defaultRun ??= runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json", "csv", "xlsx", "html"],
      query,
    });
  let recount: ReturnType<typeof rawReclaim> | undefined;
  const reclaim180 = () => recount ??= rawReclaim(raw(), TEST_NOW, 180);

  it("idle buckets, never-used counts, harvest candidates and idle installs equal an independent computation in JSON, CSV and XLSX", async () => {
    const thresholds = [30, 90, 180];
    const want = await expectedFigures(raw(), thresholds);
    const neverUsed = [...want.perComputer.values()].filter((r) => r.neverUsed).length;
    assert.ok(neverUsed > 10, "the estate has never-used installs past the first threshold");
    const out = await runDefault();
    await assertRows(out, {
      section: "applications",
      labels: APP_LABELS(thresholds),
      expected: want.applications,
      keyOf: appKey,
      fields: APP_FIELDS(thresholds),
    });
    await assertRows(out, {
      section: "installations",
      labels: INSTALL_LABELS,
      expected: want.perComputer,
      keyOf: installKey,
      fields: INSTALL_FIELDS,
    });
  });

  it("reclaims per application and metric in the metric's units, shortfall first, at the position's unit price, as an independent recount", async () => {
    const want = await reclaim180();
    const rows = [...want.values()];
    const perCore = rows.filter((r) => r.metric === "Processor cores" && r.units > r.installs);
    assert.ok(
      perCore.some((r) => (r.reclaimValue as number) > 0),
      "a per-core product whose idle installs count their cores and free licenses",
    );
    const shortOnly = rows.filter((r) => r.shortfallFirst > 0 && r.reclaimable === 0);
    assert.ok(
      shortOnly.length > 0,
      "a short application whose idle units only cover its shortfall",
    );
    for (const r of shortOnly) assert.equal(r.reclaimValue, r.currency === null ? null : 0);
    assert.ok(
      rows.some((r) => r.shortfallFirst > 0 && (r.reclaimable as number) > 0),
      "a short application with units beyond its shortfall",
    );
    const out = await runDefault();
    await assertRows(out, {
      section: "reclaim",
      labels: RECLAIM_LABELS,
      expected: asExpected(want),
      keyOf: reclaimKey,
      fields: RECLAIM_FIELDS,
    });
    const { value } = rawTotals(rows);
    await assertRows(out, {
      section: "reclaim-value",
      labels: VALUE_LABELS,
      expected: new Map<string, Record<string, Expected>>(
        [...value].map(([code, c]) => [code, { value: c / 100 }]),
      ),
      keyOf: (r) => String(r["Currency"] ?? ""),
      fields: { value: "Value" },
    });
  });

  it("headlines reclaimable units per metric and value per currency, equal to the recount", async () => {
    const want = rawTotals((await reclaim180()).values());
    const out = await runDefault();
    const summary = new Map(out.result.document.summary.map((f) => [f.label, f.value]));
    assert.ok(want.units.size >= 3, "units of several metrics");
    for (const [metric, units] of want.units) {
      assert.equal(summary.get(`Reclaimable units (${metric})`), units, metric);
    }
    for (const [code, c] of want.value) {
      assert.equal(summary.get(`Reclaimable value (${code})`), c / 100, code);
    }
    const units = [...summary.keys()].filter((l) =>
      /units|licenses/i.test(l) && !/^Positions/.test(l)
    );
    assert.deepEqual(
      units.sort(),
      [...want.units.keys()].map((m) => `Reclaimable units (${m})`).sort(),
    );
    const installs = jsonSection(out.json, "installations");
    assert.equal(summary.get("Installations unused 30+ days"), installs.rows.length);
    const apps = jsonSection(out.json, "applications");
    assert.equal(summary.get("Harvest candidates (installations)"), apps.totals.All.candidates);
  });

  it("declares no headline that sums units of different metrics or amounts of different currencies", async () => {
    const client = clientFor({
      url: fixture.api.url,
      clientId: "demo",
      clientSecret: "demo-secret",
    });
    const ctx = {
      client,
      query,
      params: resolveParams(unusedSoftware, {}),
      signal: new AbortController().signal,
      now: TEST_NOW,
    };
    const data = await unusedSoftware.data(ctx as never);
    let checked = 0;
    for (const section of data.sections) {
      const rows: Row[] = Array.isArray(section.rows) ? section.rows : [];
      const metrics = new Set(rows.map((r) => r.metric).filter((m) => m !== undefined));
      const declared = (data.facts ?? []).filter((f) => f.section === section.id);
      for (const fact of [...section.facts ?? [], ...declared]) {
        if (!("sum" in fact)) continue;
        const column = section.columns.find((c) => c.key === fact.sum);
        if (column?.type === "currency") assert.equal(fact.perCurrency, "currency", fact.label);
        else if (metrics.size > 1) {
          assert.equal(fact.perCurrency, "metric", `${fact.label} in ${section.id}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 0, "a section of several metrics has a summed headline");
  });

  it("charts the reclaimable value of priced positions, one axis per currency", async () => {
    const out = await runDefault();
    const rows: Json[] = jsonSection(out.json, "reclaim").rows;
    const valued = rows.filter((r) => r.reclaimValue > 0);
    assert.deepEqual(rows.slice(0, valued.length), valued, "valued positions first");
    const html = await Deno.readTextFile(out.file("html"));
    const svg = html.slice(html.indexOf("chart-stacked-bar"));
    assert.ok(html.includes("Reclaimable license value per application and metric"));
    for (const code of new Set(valued.slice(0, 15).map((r) => r.currency))) {
      assert.ok(svg.includes(`Amounts in ${code}`), code);
    }
    assert.ok(!svg.includes("(no currency)"));
    // One chart per currency in the one figure: its bars together are the first 15 valued rows.
    const figure = svg.slice(0, svg.indexOf("</figure>"));
    assert.equal(figure.split('class="bar-row"').length - 1, Math.min(15, valued.length));
  });

  it("takes its thresholds from the parameter, as JSON text", async () => {
    const want = await expectedFigures(raw(), [60]);
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      params: { thresholds: "[60]" },
      query,
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[0]), want.applications, appKey, APP_FIELDS([60])),
      [],
    );
    assert.equal(jsonSection(out.json, "installations").rows.length, want.perComputer.size);
  });

  it("rejects thresholds that are not ascending whole days", async () => {
    for (const thresholds of ["[90,30]", "[0]", "[]", '"30"']) {
      await assert.rejects(
        runAt(fixture.api, unusedSoftware, {
          now: TEST_NOW,
          formats: ["json"],
          params: { thresholds },
        }),
        (e) => e instanceof ParamError && /thresholds/.test(e.message),
        thresholds,
      );
    }
  });

  it("applies a filter on computer applications", async () => {
    const rawInstalls = await rawAll(raw(), `${ESTATE}/computers-applications`);
    const mine = rawInstalls.filter((i) => i.computerId === "C000001" && i.isInstalled === true);
    assert.ok(mine.length > 0);
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      filter: "computerId -eq C000001",
      query,
    });
    // Was "Installations" (every install of C000001); now the installs of the listed
    // applications (those with an install not used in the last 30 days), as the table totals.
    const recent = (i: RawItem) => i.lastUsed && wholeDays(i.lastUsed, TEST_NOW) < 30;
    const listed = new Set(mine.filter((i) => !recent(i)).map((i) => i.applicationId));
    const installs = out.result.document.summary.find((f) =>
      f.label === "Installations of listed applications"
    );
    assert.equal(installs?.value, mine.filter((i) => listed.has(i.applicationId)).length);
    const listedRows = jsonSection(out.json, "installations").rows;
    const hosts = new Set(listedRows.map((r: { computer: string }) => r.computer));
    assert.ok(hosts.size <= 1);
  });
});

describe("unused-software edge data", () => {
  const fixture = serverFixture({ computers: 0, token: TOKEN });

  it("renders every section with its no-data text for an empty estate, and for a cleared store", async () => {
    for (const clear of [false, true]) {
      if (clear) fixture.srv.store.clear();
      const out = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW });
      await assertNoData(out, {
        xlsx: [
          [APP_LABELS([30, 90, 180]), "No installed application matches these parameters."],
          [RECLAIM_LABELS, "No installation has gone unused for 180 days or more."],
          [INSTALL_LABELS, "No installation has gone unused for 30 days or more."],
          [VALUE_LABELS, "No license can be reclaimed from installs unused for 180 days or more."],
        ],
        csv: ["installations", "reclaim"],
      });
    }
  });

  it("reclaims a per-core product's cores beyond its shortfall, nothing of a short one, and leaves unpriced and unlicensed blank with a reason", async () => {
    await withServer({ computers: 0, token: TOKEN }, async (fresh) => {
      const api = { url: fresh.url, token: TOKEN };
      const registry = await rawAll(api, `${REGISTRY}/applications`);
      const [perCore, short, unpriced, unlicensed] = registry.slice(0, 4).map((a) => a.id);
      const byId = new Map(registry.map((a) => [String(a.id), a]));
      const metricOf = new Map([
        [perCore, "MET02"],
        [short, "MET01"],
        [unpriced, "MET01"],
        [unlicensed, "MET01"],
      ]);
      for (const [applicationId, id] of metricOf) { // list prices: the short product's only
        fresh.store.insert("registry_metrics", {
          id,
          applicationId,
          name: id === "MET02" ? "Processor cores" : "Installations",
          licenseCost: applicationId === short ? 250 : null,
          licenseCostCurrency: applicationId === short ? "USD" : null,
        });
      }
      const ago = (days: number) => new Date(TEST_NOW.getTime() - days * DAY);
      const used = { C1: null, C2: ago(200), C3: ago(5) } as Record<string, Date | null>;
      for (const id of ["C1", "C2", "C3"]) {
        fresh.store.insert("computers", { id, hostName: `HQ-${id}`, organizationId: "ORG01" });
      }
      const install = (applicationId: string, metricId: string, reqs: Record<string, number>) => {
        for (const [computerId, requirement] of Object.entries(reqs)) {
          fresh.store.insert("computer_applications", {
            computerId,
            applicationId,
            isInstalled: true,
            lastUsed: used[computerId],
            firstDiscovered: null,
          });
          fresh.store.insert("metric_tracking", {
            computerId,
            applicationId,
            metricId,
            requirement,
          });
        }
      };
      install(perCore, "MET02", { C1: 8, C2: 16, C3: 16 }); // 24 idle cores of 40 required
      install(short, "MET01", { C1: 1, C2: 1, C3: 1 });
      install(unpriced, "MET01", { C1: 1, C2: 1 });
      install(unlicensed, "MET01", { C1: 1 });
      const license = (
        id: string,
        applicationId: string,
        quantity: number,
        price?: [string, number],
      ) =>
        fresh.store.insert("licenses", {
          id,
          organizationId: "ORG01",
          applicationId,
          metricId: metricOf.get(applicationId),
          quantity,
          purchaseCurrency: price?.[0] ?? null,
          purchaseValue: price?.[1] ?? null,
        });
      license("L1", perCore, 30, ["EUR", 30_000]); // short by 10 cores, €1,000 a core
      license("L2", short, 1, ["USD", 300]); // short by 2
      license("L3", unpriced, 5); // no purchase value, no list price

      const want = await rawReclaim(api, TEST_NOW, 180);
      const out = await runAt(api, unusedSoftware, { now: TEST_NOW });
      await assertRows(out, {
        section: "reclaim",
        // This estate has no compliance usage: the service's columns are left out.
        labels: RECLAIM_LABELS.filter((l) => !l.endsWith("(service)")),
        expected: asExpected(want),
        keyOf: reclaimKey,
        fields: RECLAIM_FIELDS,
      });
      const rows = new Map<string, Json>(
        jsonSection(out.json, "reclaim").rows.map((r: Json) => [r.application, r]),
      );
      const figures = (id: string) => {
        const r = rows.get(rawAppLabel(byId, id));
        return [r.units, r.shortfallFirst, r.reclaimable, r.currency, r.reclaimValue, r.note];
      };
      assert.deepEqual(figures(perCore), [24, 10, 14, "EUR", 14_000, null]);
      assert.deepEqual(figures(short), [2, 2, 0, "USD", 0, null]);
      assert.deepEqual(figures(unpriced), [2, 0, 2, null, null, "Unpriced"]);
      assert.deepEqual(figures(unlicensed), [1, 1, null, null, null, "No license"]);
      assert.deepEqual(jsonSection(out.json, "reclaim-value").rows, [
        { currency: "EUR", positions: 1, value: 14_000, note: null },
        { currency: "USD", positions: 0, value: 0, note: null },
        { currency: null, positions: 1, value: null, note: "Unpriced" },
      ]);
      const summary = new Map(out.result.document.summary.map((f) => [f.label, f.value]));
      assert.equal(summary.get("Reclaimable units (Processor cores)"), 14);
      assert.equal(summary.get("Reclaimable units (Installations)"), 2);
      assert.equal(summary.get("Reclaimable value (EUR)"), 14_000);
      assert.equal(summary.get("Reclaimable value (USD)"), 0);
      assert.ok(![...summary.keys()].some((l) => l.startsWith("Reclaimable value ()")));
      const installs = new Map<string, Record<string, Expected>>();
      for (const r of jsonSection(out.json, "installations").rows) {
        installs.set(`${r.computer}|${r.application}`, { candidate: r.candidate });
      }
      assert.ok([...installs.keys()].every((k) => !k.startsWith("HQ-C3|")), "C3 used recently");
      assert.ok([...installs.values()].every((r) => r.candidate === true));
    });
  });
});
