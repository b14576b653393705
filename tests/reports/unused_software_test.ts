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

const TOKEN = "unused-software-test-token";
// deno-lint-ignore no-explicit-any
type Json = any;
const DAY = 86_400_000;

/** The expected figures for `thresholds`, from raw API JSON without any samkit code. */
async function expectedFigures(api: RawApi, thresholds: number[]) {
  const [installs, computers, registry, entitlements, states, licenses, names] = await Promise
    .all([
      rawAll(api, `${ESTATE}/computers-applications`),
      rawAll(api, `${ESTATE}/computers`),
      rawAll(api, `${REGISTRY}/applications`),
      rawAll(api, `${LICENSES}/licenses/entitlements/computers`),
      rawFlat(api, `${LICENSES}/licenses/entitlements/entitlement-states`),
      rawAll(api, `${LICENSES}/licenses`),
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
  // Applications with a license at all: only theirs can be reclaimed.
  const withLicense = new Set(licenses.map((l) => l.applicationId).filter(Boolean));
  const price = new Map<string, Map<string, { units: number; cents: number }>>();
  for (const l of licenses) {
    const q = Number(l.quantity ?? 0);
    if (l.purchaseValue === null || !l.purchaseCurrency || !(q > 0)) continue;
    const m = price.get(l.applicationId) ?? new Map();
    price.set(l.applicationId, m);
    const line = m.get(l.purchaseCurrency) ?? { units: 0, cents: 0 };
    m.set(l.purchaseCurrency, line);
    line.units += q;
    line.cents += cents(Number(l.purchaseValue));
  }
  const first = thresholds[0], top = thresholds[thresholds.length - 1];
  const bucketIndex = (days: number) => thresholds.filter((t) => days >= t).length - 1;
  const bucketText = (b: number) =>
    b < thresholds.length - 1
      ? `${thresholds[b]}–${thresholds[b + 1] - 1} days`
      : `${thresholds[b]}+ days`;
  const perApp = new Map<string, Record<string, number>>();
  const perComputer = new Map<string, Record<string, Expected>>();
  for (const i of installs) {
    if (i.isInstalled !== true) continue;
    const counts = perApp.get(i.applicationId) ??
      Object.fromEntries(
        ["installations", "recent", "never", "reclaimable", ...thresholds.map((t) => `idle${t}`)]
          .map((k) => [k, 0]),
      );
    perApp.set(i.applicationId, counts);
    counts.installations++;
    const since = i.lastUsed ?? i.firstDiscovered ?? null;
    const idle = since === null ? null : wholeDays(since, TEST_NOW);
    if (!i.lastUsed) counts.never++;
    else if (idle! < first) counts.recent++;
    else counts[`idle${thresholds[bucketIndex(idle!)]}`]++;
    const isLicensed = licensed.has(`${i.computerId}/${i.applicationId}`);
    const reclaimable = withLicense.has(i.applicationId)
      ? isLicensed && (idle === null || idle >= top)
      : null;
    if (reclaimable) counts.reclaimable++;
    if (idle !== null && idle < first) continue;
    const app = apps.get(i.applicationId);
    const key = `${hosts.get(i.computerId)?.hostName}|${app?.name}|${app?.version}`;
    perComputer.set(key, {
      organization: rawOrganizationLabel(names, hosts.get(i.computerId)?.organizationId ?? null),
      lastUsed: i.lastUsed ? i.lastUsed.slice(0, 10) : null,
      neverUsed: !i.lastUsed,
      idleDays: idle,
      bucket: i.lastUsed ? bucketText(bucketIndex(idle!)) : "Never used",
      licensed: isLicensed,
      reclaimable,
    });
  }
  const applications = new Map<string, Record<string, Expected>>();
  const value = new Map<string, number>();
  for (const [id, c] of perApp) {
    if (c.installations === c.recent) continue;
    const lines = [...(price.get(id) ?? new Map()).entries()]
      .sort(([a, x], [b, y]) => y.units - x.units || (a < b ? -1 : 1));
    const chosen = lines[0];
    const reclaimable = withLicense.has(id) ? c.reclaimable : null;
    const reclaimValue = reclaimable && chosen
      ? Math.round(reclaimable * chosen[1].cents / chosen[1].units) / 100
      : null;
    if (reclaimValue !== null) {
      value.set(chosen[0], (value.get(chosen[0]) ?? 0) + cents(reclaimValue));
    }
    const app = apps.get(id);
    applications.set(`${app?.name ?? `(unknown application ${id})`}|${app?.version ?? ""}`, {
      ...c,
      reclaimable,
      currency: chosen?.[0] ?? null,
      reclaimValue,
    });
  }
  return { applications, perComputer, value };
}

const APP_FIELDS = (thresholds: number[]) => ({
  installations: "Installations",
  recent: `Used within ${thresholds[0]} days`,
  ...Object.fromEntries(thresholds.map((t, b) => [
    `idle${t}`,
    b < thresholds.length - 1 ? `Unused ${t}–${thresholds[b + 1] - 1} days` : `Unused ${t}+ days`,
  ])),
  never: "Never used",
  reclaimable: "Reclaimable licenses",
  reclaimValue: "Reclaimable value",
});
const INSTALL_FIELDS = {
  organization: "Organization",
  lastUsed: "Last used",
  idleDays: "Days unused",
  bucket: "Bucket",
  licensed: "Licensed",
  reclaimable: "Reclaimable",
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
  "Reclaimable",
];
const APP_LABELS = (thresholds: number[]) => [
  "Application",
  "Version",
  "Manufacturer",
  ...Object.values(APP_FIELDS(thresholds)).slice(0, -1),
  "Currency",
  "Average unit price",
  "Reclaimable value",
];
const VALUE_LABELS = ["Currency", "Applications", "Reclaimable licenses", "Value"];

describe("unused-software against a 400-computer estate", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });

  it("idle buckets, never-used counts, idle installs and reclaimable value equal an independent computation in JSON, CSV and XLSX", async () => {
    const thresholds = [30, 90, 180];
    const want = await expectedFigures(fixture.api, thresholds);
    const neverUsed = [...want.perComputer.values()].filter((r) => r.neverUsed).length;
    assert.ok(neverUsed > 10, "the estate has never-used installs past the first threshold");
    assert.ok(want.value.size >= 2, "reclaimable value in several currencies");
    const out = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW });

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
    await assertRows(out, {
      section: "reclaim-value",
      labels: VALUE_LABELS,
      expected: new Map<string, Record<string, Expected>>(
        [...want.value].map(([cur, c]) => [cur, { Value: c / 100 }]),
      ),
      keyOf: (r) => String(r["Currency"] ?? ""),
      fields: { Value: "Value" },
      formats: ["json", "xlsx"],
      // Rows without a currency (reclaimable but never priced) are not compared.
      only: (rows) => rows.filter((r) => r["Currency"] !== null && r["Currency"] !== ""),
    });
    const never = out.result.document.summary.find((f) => f.label === "Never used");
    assert.equal(
      never?.value,
      [...want.applications.values()].reduce((n, r) => n + (r.never as number), 0),
    );
  });

  it("every headline equals its table's total or row count, in JSON and in the document summary", async () => {
    const out = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW, formats: ["json"] });
    const apps = jsonSection(out.json, "applications");
    const installs = jsonSection(out.json, "installations");
    const value = jsonSection(out.json, "reclaim-value");
    const total = (rows: Json[], key: string) => rows.reduce((n, r) => n + (r[key] ?? 0), 0);
    const want = new Map<string, number>([
      ["Installations of listed applications", apps.totals.All.installations],
      ["Never used", apps.totals.All.never],
      ["Reclaimable licenses", apps.totals.All.reclaimable],
      ["Installations unused 30+ days", installs.totals.All.rows],
      ...value.rows.filter((r: Json) => r.currency).map((r: Json) =>
        [`Reclaimable value (${r.currency})`, r.value] as [string, number]
      ),
    ]);
    const summary = out.result.document.summary;
    assert.deepEqual(summary.map((f) => f.label).sort(), [...want.keys()].sort());
    for (const fact of summary) assert.equal(fact.value, want.get(fact.label), fact.label);
    // The tables agree with each other: row sums, listed rows, reclaimable installs and value.
    assert.equal(apps.totals.All.installations, total(apps.rows, "installations"));
    assert.equal(installs.totals.All.rows, installs.rows.length);
    const reclaimableInstalls = installs.rows.filter((r: Json) => r.reclaimable === true).length;
    assert.equal(apps.totals.All.reclaimable, reclaimableInstalls);
    assert.equal(apps.totals.All.reclaimable, total(value.rows, "licenses"));
    for (const r of value.rows.filter((r: Json) => r.currency)) {
      const mine = apps.rows.filter((a: Json) => a.currency === r.currency);
      assert.equal(
        cents(r.value),
        mine.reduce((n: number, a: Json) => n + cents(a.reclaimValue ?? 0), 0),
      );
    }
  });

  it("leaves reclaimable blank for applications without a license, and sorts by value per currency", async () => {
    const out = await runAt(fixture.api, unusedSoftware, { now: TEST_NOW, formats: ["json"] });
    const rows: Json[] = jsonSection(out.json, "applications").rows;
    assert.ok(rows.some((r) => r.reclaimable === null), "applications without a license");
    for (const r of rows.filter((r) => r.reclaimable === null)) assert.equal(r.reclaimValue, null);
    const valued = rows.filter((r) => r.reclaimValue !== null);
    assert.ok(valued.length > 0 && valued.length < rows.length);
    assert.deepEqual(rows.slice(0, valued.length), valued, "valued applications first");
    const currencies = valued.map((r) => r.currency);
    assert.deepEqual(currencies, [...currencies].sort(), "grouped by currency");
    for (let i = 1; i < valued.length; i++) {
      if (valued[i].currency !== valued[i - 1].currency) continue;
      assert.ok(valued[i].reclaimValue <= valued[i - 1].reclaimValue, "largest value first");
    }
    const unused = (r: Json) => r.installations - r.recent;
    const rest = rows.slice(valued.length).map(unused);
    assert.deepEqual(rest, [...rest].sort((a, b) => b - a), "then most unused first");
  });

  it("charts the reclaimable value of licensed applications, one axis per currency", async () => {
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["html", "json"],
    });
    const rows: Json[] = jsonSection(out.json, "applications").rows;
    const valued = rows.filter((r) => r.reclaimValue !== null).slice(0, 15);
    const html = await Deno.readTextFile(out.file("html"));
    const svg = html.slice(html.indexOf("chart-stacked-bar"));
    assert.ok(html.includes("Reclaimable license value per application"));
    for (const code of new Set(valued.map((r) => r.currency))) {
      assert.ok(svg.includes(`Amounts in ${code}`), code);
    }
    assert.ok(!svg.includes("(no currency)"));
    const chart = svg.slice(0, svg.indexOf("</svg>"));
    assert.equal(chart.split('class="bar-row"').length - 1, valued.length);
  });

  it("takes its thresholds from the parameter, as JSON text", async () => {
    const want = await expectedFigures(fixture.api, [60]);
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      params: { thresholds: "[60]" },
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[0]), want.applications, appKey, APP_FIELDS([60])),
      [],
    );
    assert.equal(out.json.sections[1].rows.length, want.perComputer.size);
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
    const raw = await rawAll(fixture.api, `${ESTATE}/computers-applications`);
    const mine = raw.filter((i) => i.computerId === "C000001" && i.isInstalled === true);
    assert.ok(mine.length > 0);
    const out = await runAt(fixture.api, unusedSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      filter: "computerId -eq C000001",
    });
    // Was "Installations" (every install of C000001); now the installs of the listed
    // applications (those with an install not used in the last 30 days), as the table totals.
    const recent = (i: RawItem) => i.lastUsed && wholeDays(i.lastUsed, TEST_NOW) < 30;
    const listed = new Set(mine.filter((i) => !recent(i)).map((i) => i.applicationId));
    const installs = out.result.document.summary.find((f) =>
      f.label === "Installations of listed applications"
    );
    assert.equal(installs?.value, mine.filter((i) => listed.has(i.applicationId)).length);
    const hosts = new Set(out.json.sections[1].rows.map((r: { computer: string }) => r.computer));
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
          [APP_LABELS([30, 90, 180]), "Every installed application was used in the last 30 days."],
          [INSTALL_LABELS, "No installation has gone unused for 30 days or more."],
        ],
        csv: ["installations"],
      });
    }
  });

  it("counts never-used installs apart, dates their idleness from discovery, and reclaims licensed ones", async () => {
    await withServer({ computers: 0, token: TOKEN }, async (fresh) => {
      const ago = (days: number) => new Date(TEST_NOW.getTime() - days * DAY);
      fresh.store.insert("computers", {
        id: "C1",
        hostName: "HQ-WS-1",
        organizationId: "ORG01",
        status: "Active",
      });
      const install = (
        applicationId: string,
        lastUsed: Date | null,
        firstDiscovered: Date | null,
      ) =>
        fresh.store.insert("computer_applications", {
          computerId: "C1",
          applicationId,
          isInstalled: true,
          lastUsed,
          firstDiscovered,
        });
      install("APP0061", null, null); // never used, discovery unknown, licensed
      install("APP0062", null, ago(5)); // never used, discovered last week: not listed
      install("APP0063", ago(100), ago(400)); // 90–179 days, unlicensed
      install("APP0064", null, ago(200)); // never used for 200 days, under-licensed
      const entitle = (applicationId: string, entitlementStateId: string) =>
        fresh.store.insert("computer_application_entitlements", {
          computerId: "C1",
          applicationId,
          metricId: "MET01",
          entitlementStateId,
        });
      entitle("APP0061", "ES01");
      entitle("APP0063", "ES02");
      entitle("APP0064", "ES03");
      fresh.store.insert("licenses", {
        id: "LX1",
        organizationId: "ORG01",
        applicationId: "APP0061",
        metricId: "MET01",
        purchaseCurrency: "EUR",
        purchaseValue: 400,
        quantity: 4,
      });
      fresh.store.insert("licenses", { // a license without a price
        id: "LX2",
        organizationId: "ORG01",
        applicationId: "APP0064",
        metricId: "MET01",
        purchaseCurrency: null,
        purchaseValue: null,
        quantity: 1,
      });
      const freshApi = { url: fresh.url, token: TOKEN };
      const registry = new Map(
        (await rawAll(freshApi, `${REGISTRY}/applications`)).map((a) => [a.id, a]),
      );
      const key = (id: string) => `${registry.get(id)!.name}|${registry.get(id)!.version}`;

      const out = await runAt(freshApi, unusedSoftware, { now: TEST_NOW });
      const [applications, , value] = out.json.sections;
      const apps = new Map<string, Record<string, Expected>>([
        [key("APP0061"), { never: 1, recent: 0, reclaimable: 1, reclaimValue: 100 }],
        // Was reclaimable 0: applications without any license now show it blank (null).
        [key("APP0062"), { never: 1, reclaimable: null, reclaimValue: null }],
        [key("APP0063"), { never: 0, idle90: 1, reclaimable: null }],
        [key("APP0064"), { never: 1, reclaimable: 1, reclaimValue: null }],
      ]);
      assert.deepEqual(
        compareRows(byLabel(applications), apps, appKey, APP_FIELDS([30, 90, 180])),
        [],
      );
      const rows = new Map<string, Record<string, Expected>>([
        [`HQ-WS-1|${key("APP0061")}`, {
          lastUsed: null,
          idleDays: null,
          bucket: "Never used",
          licensed: true,
          reclaimable: true,
        }],
        [`HQ-WS-1|${key("APP0063")}`, {
          idleDays: 100,
          bucket: "90–179 days",
          licensed: false,
          reclaimable: null, // was false: APP0063 has no license at all
        }],
        [`HQ-WS-1|${key("APP0064")}`, {
          idleDays: 200,
          bucket: "Never used",
          licensed: true,
          reclaimable: true,
        }],
      ]);
      await assertRows(out, {
        section: "installations",
        labels: INSTALL_LABELS,
        expected: rows,
        keyOf: installKey,
        fields: INSTALL_FIELDS,
      });
      // EUR value for APP0061; APP0064 is reclaimable but has no price: a row without currency.
      assert.deepEqual(value.rows, [
        { currency: "EUR", applications: 1, licenses: 1, value: 100 },
        { currency: null, applications: 1, licenses: 1, value: null },
      ]);
    });
  });
});
