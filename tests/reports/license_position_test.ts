import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { pdfText } from "../helpers/run_report.ts";
import { licensePosition } from "../../reports/license_position.ts";
import {
  cents,
  compareRows,
  ESTATE,
  type Expected,
  LICENSES,
  rawAll,
  type RawApi,
  type RawItem,
  REGISTRY,
  runAt,
} from "./support/raw_api.ts";
import { appKey, assertNoData, assertRows, byLabel } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationNames } from "./support/raw_names.ts";

const TOKEN = "license-position-test-token";

const POSITION_FIELDS = {
  licensed: "Licensed",
  installations: "Installations",
  requirement: "Requirement",
  vsRequirement: "Surplus vs requirement",
  vsInstallations: "Surplus vs installations",
  currency: "Currency",
  unitPrice: "Average unit price",
  shortfallCost: "Shortfall cost",
};
const POSITION_LABELS = [
  "Application",
  "Version",
  "Manufacturer",
  ...Object.values(POSITION_FIELDS),
];
const PRICE_FIELDS = {
  licenses: "Licenses",
  units: "Units",
  amountPaid: "Amount paid",
  unitPrice: "Average unit price",
  pricing: "Used for pricing",
};
const PRICE_LABELS = ["Application", "Version", "Currency", ...Object.values(PRICE_FIELDS)];
const COST_FIELDS = {
  applications: "Applications short",
  shortfall: "Units short",
  shortfallCost: "Shortfall cost",
};
const COST_LABELS = ["Currency", ...Object.values(COST_FIELDS)];

interface Line {
  units: number;
  cents: number;
  licenses: number;
}

/** The expected figures, computed from raw API JSON without any samkit code. */
async function expectedFigures(api: RawApi, organization?: string) {
  const [licenses, installs, metrics, registry, computers] = await Promise.all([
    rawAll(api, `${LICENSES}/licenses`),
    rawAll(api, `${ESTATE}/computers-applications`),
    rawAll(api, `${ESTATE}/computers-metering`),
    rawAll(api, `${REGISTRY}/applications`),
    rawAll(api, `${ESTATE}/computers`),
  ]);
  const orgOf = new Map(computers.map((c) => [c.id, c.organizationId]));
  const inOrg = (computerId: string) =>
    organization === undefined || orgOf.get(computerId) === organization;
  const apps = new Map<string, RawItem>(registry.map((a) => [a.id, a]));
  const licensed = new Map<string, number>();
  const prices = new Map<string, Map<string, Line>>();
  for (const l of licenses) {
    if (organization !== undefined && l.organizationId !== organization) continue;
    const q = l.quantity === null ? 0 : Number(l.quantity);
    licensed.set(l.applicationId, (licensed.get(l.applicationId) ?? 0) + q);
    if (l.purchaseValue === null || !l.purchaseCurrency || !(q > 0)) continue;
    const byCur = prices.get(l.applicationId) ?? new Map<string, Line>();
    prices.set(l.applicationId, byCur);
    const line = byCur.get(l.purchaseCurrency) ?? { units: 0, cents: 0, licenses: 0 };
    byCur.set(l.purchaseCurrency, line);
    line.units += q;
    line.cents += cents(Number(l.purchaseValue));
    line.licenses++;
  }
  const installations = new Map<string, number>();
  for (const i of installs) {
    if (i.isInstalled === true && inOrg(i.computerId)) {
      installations.set(i.applicationId, (installations.get(i.applicationId) ?? 0) + 1);
    }
  }
  const requirement = new Map<string, number>();
  for (const m of metrics) {
    if (!inOrg(m.computerId)) continue;
    requirement.set(m.applicationId, (requirement.get(m.applicationId) ?? 0) + m.requirement);
  }
  const position = new Map<string, Record<string, Expected>>();
  const costs = new Map<string | null, { applications: number; units: number; cents: number }>();
  const ids = new Set([
    ...[...licensed].filter(([, q]) => q > 0).map(([id]) => id),
    ...[...requirement].filter(([, r]) => r > 0).map(([id]) => id),
  ]);
  const keyOf = (id: string) => `${apps.get(id)?.name}|${apps.get(id)?.version}`;
  for (const id of ids) {
    const lic = licensed.get(id) ?? 0, req = requirement.get(id) ?? 0;
    const lines = [...(prices.get(id) ?? new Map<string, Line>()).entries()];
    // The currency of most units; ties go to the alphabetically first code.
    lines.sort(([a, x], [b, y]) => y.units - x.units || (a < b ? -1 : 1));
    const chosen = lines[0];
    const shortfall = Math.max(0, req - lic);
    const cost = shortfall > 0 && chosen
      ? Math.round(shortfall * chosen[1].cents / chosen[1].units) / 100
      : null;
    if (shortfall > 0) {
      const k = chosen ? chosen[0] : null;
      const c = costs.get(k) ?? { applications: 0, units: 0, cents: 0 };
      c.applications++;
      c.units += shortfall;
      c.cents += cost === null ? 0 : cents(cost);
      costs.set(k, c);
    }
    position.set(keyOf(id), {
      licensed: lic,
      installations: installations.get(id) ?? 0,
      requirement: req,
      vsRequirement: lic - req,
      vsInstallations: lic - (installations.get(id) ?? 0),
      currency: chosen ? chosen[0] : null,
      unitPrice: chosen ? Math.round(chosen[1].cents / chosen[1].units) / 100 : null,
      shortfallCost: cost,
    });
  }
  const priceRows = new Map<string, Record<string, Expected>>();
  for (const id of ids) {
    const lines = [...(prices.get(id) ?? new Map<string, Line>()).entries()];
    const best = [...lines].sort(([a, x], [b, y]) => y.units - x.units || (a < b ? -1 : 1))[0];
    for (const [cur, line] of lines) {
      priceRows.set(`${keyOf(id)}|${cur}`, {
        licenses: line.licenses,
        units: line.units,
        amountPaid: line.cents / 100,
        unitPrice: Math.round(line.cents / line.units) / 100,
        pricing: cur === best[0],
      });
    }
  }
  const costRows = new Map<string, Record<string, Expected>>();
  for (const [cur, c] of costs) {
    costRows.set(cur ?? "", {
      applications: c.applications,
      shortfall: c.units,
      shortfallCost: cur === null ? null : c.cents / 100,
    });
  }
  return { position, priceRows, costRows };
}

const priceKey = (r: Record<string, unknown>) => `${appKey(r)}|${r["Currency"]}`;
const costKey = (r: Record<string, unknown>) => String(r["Currency"] ?? "");

describe("license-position against a 400-computer estate", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN, closeBrowser: true });

  it("per-application position, prices and shortfall cost equal an independent computation in JSON, CSV and XLSX", async () => {
    const want = await expectedFigures(fixture.api);
    assert.ok(want.position.size > 10, "the estate has applications to position");
    assert.ok([...want.costRows.keys()].filter((k) => k !== "").length >= 2);
    const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW });
    const [position, prices, costs] = out.json.sections;
    assert.deepEqual(
      [position.id, prices.id, costs.id],
      ["position", "prices", "shortfall-cost"],
    );

    await assertRows(out, {
      section: "position",
      labels: POSITION_LABELS,
      expected: want.position,
      keyOf: appKey,
      fields: POSITION_FIELDS,
    });
    await assertRows(out, {
      section: "prices",
      labels: PRICE_LABELS,
      expected: want.priceRows,
      keyOf: priceKey,
      fields: PRICE_FIELDS,
    });
    await assertRows(out, {
      section: "shortfall-cost",
      labels: COST_LABELS,
      expected: want.costRows,
      keyOf: costKey,
      fields: COST_FIELDS,
    });

    // Summary facts: shortfall cost per currency, one fact each.
    for (const [cur, row] of want.costRows) {
      if (cur === "") continue;
      const fact = out.result.document.summary.find((f) => f.label === `Shortfall cost (${cur})`);
      assert.equal(fact?.value, row.shortfallCost);
    }
  });

  it("lists shortfalls against the requirement first, largest first", async () => {
    const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW, formats: ["json"] });
    const values = out.json.sections[0].rows.map((r: { vsRequirement: number }) => r.vsRequirement);
    const firstSurplus = values.findIndex((v: number) => v >= 0);
    const shortfalls = values.slice(0, firstSurplus === -1 ? values.length : firstSurplus);
    assert.ok(shortfalls.length > 0);
    assert.ok(values.slice(shortfalls.length).every((v: number) => v >= 0));
    assert.deepEqual(shortfalls, [...shortfalls].sort((a: number, b: number) => a - b));
  });

  it("prices an application bought in several currencies in one currency only", async () => {
    const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW, formats: ["json"] });
    const prices = out.json.sections[1].rows as { application: string; version: string }[];
    const count = new Map<string, number>();
    for (const r of prices) {
      count.set(
        `${r.application}|${r.version}`,
        (count.get(`${r.application}|${r.version}`) ?? 0) + 1,
      );
    }
    const mixed = [...count].filter(([, n]) => n > 1).map(([k]) => k);
    assert.ok(
      mixed.length > 0,
      "the generated estate has applications bought in several currencies",
    );
    for (const key of mixed) {
      const pricing = (out.json.sections[1].rows as Record<string, unknown>[]).filter((r) =>
        `${r.application}|${r.version}` === key && r.pricing === true
      );
      assert.equal(pricing.length, 1, `${key} is priced in exactly one currency`);
    }
  });

  it("restricts licenses, installations and requirement to the organization parameter", async () => {
    const want = await expectedFigures(fixture.api, "ORG06");
    const out = await runAt(fixture.api, licensePosition, {
      now: TEST_NOW,
      formats: ["json"],
      params: { organization: "ORG06" },
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[0]), want.position, appKey, POSITION_FIELDS),
      [],
    );
    const name = (await rawOrganizationNames(fixture.api)).get("ORG06");
    assert.ok(name, "the tree names ORG06");
    assert.match(
      out.json.sections[0].title,
      new RegExp(`\\(organization ${RegExp.escape(name)}, id ORG06\\)$`),
    );
  });

  it("applies a registry filter to the applications it positions", async () => {
    const out = await runAt(fixture.api, licensePosition, {
      now: TEST_NOW,
      formats: ["json"],
      filter: "manufacturer -contains Oracle",
    });
    const rows = out.json.sections[0].rows as { manufacturer: string }[];
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.manufacturer === "Oracle Corporation"));
  });

  it("shows the shortfall cost per currency in the PDF", async () => {
    const want = await expectedFigures(fixture.api);
    const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW, formats: ["pdf"] });
    const text = (await pdfText(out.file("pdf"))).replace(/\s+/g, " ");
    const grouped = new Intl.NumberFormat("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    assert.ok(text.includes("License position"));
    for (const [cur, row] of want.costRows) {
      if (cur === "") continue;
      assert.ok(
        text.includes(grouped.format(row.shortfallCost as number)),
        `${cur} shortfall cost ${row.shortfallCost} is in the PDF`,
      );
      assert.ok(text.includes(cur));
    }
  });
});

describe("license-position edge data", () => {
  const fixture = serverFixture({ computers: 0, token: TOKEN });

  it("renders every section with its no-data text for an empty estate", async () => {
    const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW });
    await assertNoData(out, {
      xlsx: [
        [
          POSITION_LABELS,
          "No application has licenses or a metric requirement for these parameters.",
        ],
        [COST_LABELS, "No shortfall against the metric requirement: every application is covered."],
      ],
      csv: ["position"],
    });
  });

  it("prices mixed currencies in the currency of most units and never adds currencies", async () => {
    const { srv, api } = fixture;
    const license = (
      id: string,
      applicationId: string,
      currency: string,
      quantity: number,
      value: number | null,
    ) =>
      srv.store.insert("licenses", {
        id,
        organizationId: "ORG01",
        applicationId,
        metricId: "MET01",
        purchaseCurrency: currency,
        purchaseValue: value,
        quantity,
        purchaseDate: new Date("2024-01-15T00:00:00Z"),
      });
    // APP0001: EUR 10 units for 1000.00, USD 10 units for 1500.00 (a tie: EUR wins by code),
    // GBP 5 units for 333.33, and 3 units with no price. Licensed 28, requirement 30.
    license("LX1", "APP0001", "EUR", 10, 1000);
    license("LX2", "APP0001", "USD", 10, 1500);
    license("LX3", "APP0001", "GBP", 5, 333.33);
    license("LX4", "APP0001", "EUR", 3, null);
    // APP0002: GBP 3 units for 100.00 beats USD 2 units for 10.00. Licensed 5, requirement 7.
    license("LX5", "APP0002", "GBP", 3, 100);
    license("LX6", "APP0002", "USD", 2, 10);
    const metric = (computerId: string, applicationId: string, requirement: number) =>
      srv.store.insert("metric_tracking", {
        computerId,
        applicationId,
        metricId: "MET01",
        requirement,
      });
    metric("C1", "APP0001", 10);
    metric("C2", "APP0001", 10);
    metric("C3", "APP0001", 10);
    metric("C1", "APP0002", 7);
    srv.store.insert("computer_applications", {
      computerId: "C1",
      applicationId: "APP0001",
      isInstalled: true,
    });

    const out = await runAt(api, licensePosition, { now: TEST_NOW });
    const [position, prices] = out.json.sections;
    const expected = new Map<string, Record<string, Expected>>([
      ["Microsoft Windows 10 Enterprise|10 22H2", {
        licensed: 28,
        installations: 1,
        requirement: 30,
        vsRequirement: -2,
        vsInstallations: 27,
        currency: "EUR",
        unitPrice: 100,
        shortfallCost: 200,
      }],
      ["Microsoft Windows 11 Enterprise|11 23H2", {
        licensed: 5,
        installations: 0,
        requirement: 7,
        vsRequirement: -2,
        vsInstallations: 5,
        currency: "GBP",
        unitPrice: 33.33,
        shortfallCost: 66.67,
      }],
    ]);
    assert.deepEqual(compareRows(byLabel(position), expected, appKey, POSITION_FIELDS), []);
    const expectedCosts = new Map<string, Record<string, Expected>>([
      ["EUR", { applications: 1, shortfall: 2, shortfallCost: 200 }],
      ["GBP", { applications: 1, shortfall: 2, shortfallCost: 66.67 }],
    ]);
    await assertRows(out, {
      section: "shortfall-cost",
      labels: COST_LABELS,
      expected: expectedCosts,
      keyOf: costKey,
      fields: COST_FIELDS,
    });

    const w10 = "Microsoft Windows 10 Enterprise|10 22H2";
    const w11 = "Microsoft Windows 11 Enterprise|11 23H2";
    const expectedPrices = new Map<string, Record<string, Expected>>([
      [`${w10}|EUR`, { licenses: 1, units: 10, amountPaid: 1000, unitPrice: 100, pricing: true }],
      [`${w10}|GBP`, {
        licenses: 1,
        units: 5,
        amountPaid: 333.33,
        unitPrice: 66.67,
        pricing: false,
      }],
      [`${w10}|USD`, { licenses: 1, units: 10, amountPaid: 1500, unitPrice: 150, pricing: false }],
      [`${w11}|GBP`, { licenses: 1, units: 3, amountPaid: 100, unitPrice: 33.33, pricing: true }],
      [`${w11}|USD`, { licenses: 1, units: 2, amountPaid: 10, unitPrice: 5, pricing: false }],
    ]);
    assert.deepEqual(compareRows(byLabel(prices), expectedPrices, priceKey, PRICE_FIELDS), []);
    // Totals of the prices section: one line per currency, never one across currencies.
    assert.deepEqual(Object.keys(prices.totals).sort(), ["EUR", "GBP", "USD"]);
    assert.equal(prices.totals.GBP.amountPaid, 433.33);
    assert.equal(prices.totals.USD.amountPaid, 1510);
  });
});
