import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { inPurchaseRange, licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { carriesListFields, summaryFromList } from "../../lib/sam/license_list_costs.ts";
import { createClient, DEFAULT_PAGE_SIZE } from "../../lib/api/client.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { getToken } from "../helpers/server.ts";
import {
  closeTestBrowser,
  pdfText,
  rawAll,
  rawOne,
  readCsv,
  readXlsx,
  runOnEmptyStore,
  runReportForTest,
  type RunReportForTestResult,
  type SheetValues,
} from "../helpers/run_report.ts";
import { assertNoData, jsonSection as section } from "./support/checks.ts";
import { FIGURE_KEYS, recount } from "./support/cost_recount.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Parses the license date form `M/d/yyyy h:mm:ss AM` (UTC) of the raw API. */
function licenseDate(text: string | null): number | null {
  if (!text) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2}):(\d{2}) ([AP]M)$/i.exec(text.trim());
  if (!m) throw new Error(`unexpected license date ${text}`);
  const hour = Number(m[4]) % 12 + (m[7].toUpperCase() === "PM" ? 12 : 0);
  return Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), hour, Number(m[5]), Number(m[6]));
}

const cents = (x: number) => Math.round(x * 100);
const money = (c: number) =>
  (c / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** What the test computes from the raw API, independently of the report. */
interface Expected {
  licenses: Json[];
  summaries: Map<string, Json | null>;
  vendors: Map<string, string | null>;
  /** currency → { licenses, missing, purchase cents, total cents, quantity } */
  currencies: Map<string, { licenses: number; missing: number; purchase: number; total: number }>;
  missing: Set<string>;
}

async function expectedFrom(srv: RunningServer, token: string, ids?: Set<string>) {
  const licenses = (await rawAll(srv, "/api/sam/v1/licenses", token))
    .filter((l) => !ids || ids.has(l.id));
  const summaries = new Map<string, Json | null>();
  const vendors = new Map<string, string | null>();
  for (const l of licenses) {
    summaries.set(l.id, await rawOne(srv, `/api/sam/v1/licenses/${l.id}/costs-summary`, token));
    vendors.set(l.id, (await rawOne(srv, `/api/sam/v1/licenses/${l.id}`, token))?.vendor ?? null);
  }
  const currencies: Expected["currencies"] = new Map();
  const missing = new Set<string>();
  for (const l of licenses) {
    const s = summaries.get(l.id);
    const currency = s?.currency ?? l.purchaseCurrency;
    const line = currencies.get(currency) ??
      { licenses: 0, missing: 0, purchase: 0, total: 0 };
    currencies.set(currency, line);
    line.licenses++;
    if (!s) {
      line.missing++;
      missing.add(l.id);
      continue;
    }
    line.purchase += cents(s.purchaseCost);
    line.total += cents(s.totalCost);
  }
  return { licenses, summaries, vendors, currencies, missing } satisfies Expected;
}

/** The worksheet whose first row is exactly `labels`. */
function sheetWith(sheets: Record<string, SheetValues>, labels: string[]): SheetValues {
  const hits = Object.values(sheets).filter((rows) =>
    JSON.stringify(rows[0]?.slice(0, labels.length)) === JSON.stringify(labels)
  );
  assert.equal(hits.length, 1, `one sheet with header ${labels.join(", ")}`);
  return hits[0];
}

/** The rows of both license lists: with a cost summary, and without. */
const allLicenseRows = (json: Json): Json[] => [
  ...section(json, "licenses").rows,
  ...section(json, "licenses-without-costs").rows,
];

/** The describe block's server's credentials (the reference server's demo client). */
const DEMO = { clientId: "demo", clientSecret: "demo-secret" };
const LICENSES_PATH = "/api/sam/v1/licenses";
const REGISTRY_PATH = /^\/api\/sam\/(software-registry|softwareregistry)\/v1\/applications$/;
/** Fields of a license list entry in the spec's (thin) form. */
const SPEC_LIST_FIELDS = `_links id organizationId applicationId contractId metricId purchaseDate
  purchaseValue purchaseCurrency quantity`.split(/\s+/);

/** The figures of a costs summary, each equal to the cent to what the list entry gives. */
const SUMMARY_FIGURES = [
  "quantity",
  "purchaseCost",
  "currentMaintenanceCost",
  "accumulatedMaintenanceCost",
  "currentSupportCost",
  "accumulatedSupportCost",
  "totalCost",
  "averageCostPerLicensePurchase",
] as const;

/** Pages `items` take at the client's page size (a full last page asks once more). */
const pagesOf = (items: number) => Math.floor(items / DEFAULT_PAGE_SIZE) + 1;

/** Paths requested (the token endpoint aside), with how often, in a map. */
function countPaths(paths: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of paths) if (!p.includes("/connect/token")) out.set(p, (out.get(p) ?? 0) + 1);
  return out;
}

/**
 * A client of `srv` that records every request path, whose license list entries with an index
 * `thin` selects arrive in the spec's thin form (no vendor, no cost totals).
 */
function recordingClient(srv: RunningServer, thin: (index: number) => boolean = () => false) {
  const paths: string[] = [];
  const thinned: string[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname !== LICENSES_PATH || res.status !== 200) return res;
    const body = await res.json();
    body.items = body.items.map((item: Json, i: number) => {
      if (!thin(i)) return item;
      thinned.push(item.id);
      return Object.fromEntries(SPEC_LIST_FIELDS.filter((k) => k in item).map((k) => [k, item[k]]));
    });
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  const client = createClient({
    baseUrl: srv.url,
    ...DEMO,
    fetch: fetchFn,
    onEvent: (e) => void (e.type === "request" && paths.push(e.path)),
  });
  return { client, paths, thinned };
}

// One PDF browser for the file: the estate's run and the empty estate's print on it.
after(closeTestBrowser);

describe("license-cost-summary", () => {
  const fixture = serverFixture({ computers: 400 });
  let srv: RunningServer;
  let token: string;
  let expected: Expected;
  let run: RunReportForTestResult;

  before(async () => {
    srv = fixture.srv;
    token = await getToken(srv);
    expected = await expectedFrom(srv, token);
    run = await runReportForTest({
      server: srv,
      report: licenseCostSummary,
      formats: ["json", "csv", "xlsx", "pdf"],
    });
  });

  it("the estate has mixed currencies and licenses without a cost summary", () => {
    assert.ok(expected.currencies.size >= 2, "at least two currencies");
    assert.ok(expected.missing.size >= 1, "at least one license without a cost summary");
  });

  it("totals per currency in JSON equal the sums of the raw cost summaries", () => {
    const rows = section(run.json, "currency-totals").rows;
    assert.deepEqual(rows.map((r: Json) => r.currency), [...expected.currencies.keys()].sort());
    for (const r of rows) {
      const e = expected.currencies.get(r.currency)!;
      assert.equal(cents(r.costToDate), e.total, `${r.currency} total`);
      assert.equal(cents(r.purchaseCost), e.purchase, `${r.currency} purchase`);
      assert.equal(r.licenses, e.licenses);
      assert.equal(r.withoutCosts, e.missing);
    }
  });

  it("license rows are totalled per currency, never across currencies, over the licenses with costs only", () => {
    const licenses = section(run.json, "licenses");
    assert.equal(licenses.rows.length, expected.licenses.length - expected.missing.size);
    assert.equal(licenses.totals.All, undefined);
    for (const [currency, e] of expected.currencies) {
      assert.equal(cents(licenses.totals[currency].costToDate), e.total, currency);
      assert.equal(licenses.totals[currency].rows, e.licenses - e.missing);
    }
  });

  it("a license without a cost summary is listed apart, with no cost figure and the reason", () => {
    const apart = section(run.json, "licenses-without-costs");
    assert.deepEqual(new Set(apart.rows.map((r: Json) => r.licenseId)), expected.missing);
    assert.ok(apart.columns.every((c: Json) => c.type !== "currency"), "no money column");
    for (const r of apart.rows) {
      assert.equal(r.note, "No cost summary: costs unknown, in no total");
      assert.ok(r.application, "still named");
    }
    const rows = section(run.json, "licenses").rows;
    assert.ok(rows.every((r: Json) => !expected.missing.has(r.licenseId)), "in no costed list");
    for (const r of rows) {
      assert.equal(cents(r.costToDate), cents(expected.summaries.get(r.licenseId).totalCost));
    }
  });

  it("a subtotal of licenses without a cost summary only is blank, never 0, and counts them", () => {
    let blank = 0;
    for (const id of ["currency-totals", "by-application", "by-vendor"]) {
      for (const r of section(run.json, id).rows) {
        if (r.withoutCosts !== r.licenses) continue;
        blank++;
        for (const key of [...FIGURE_KEYS, "quantity", "averageCost"]) {
          assert.equal(r[key], null, `${id} ${r.application ?? r.vendor} ${key}`);
        }
      }
    }
    assert.ok(blank > 0, "the estate has such a subtotal");
  });

  it("every printed figure recomputes from the rows printed with it, per currency, to the cent", () => {
    const problems = recount(run.json, run.result.document.summary);
    assert.deepEqual(problems.slice(0, 10), []);
  });

  it("the recount catches an average over a quantity that includes licenses without costs", () => {
    const json = structuredClone(run.json);
    const totals = section(json, "currency-totals").rows;
    const mixed = totals.find((r: Json) => r.withoutCosts > 0);
    mixed.quantity += 1;
    assert.ok(recount(json, run.result.document.summary).length > 0);
  });

  it("vendor subtotals equal the raw sums per license-detail vendor and currency", () => {
    const sums = new Map<string, number>();
    for (const l of expected.licenses) {
      const s = expected.summaries.get(l.id);
      if (!s) continue;
      const key = `${expected.vendors.get(l.id) ?? "(no vendor)"}|${s.currency}`;
      sums.set(key, (sums.get(key) ?? 0) + cents(s.totalCost));
    }
    const rows = section(run.json, "by-vendor").rows.filter((r: Json) => r.costToDate !== null);
    assert.equal(rows.length, sums.size);
    for (const r of rows) assert.equal(cents(r.costToDate), sums.get(`${r.vendor}|${r.currency}`));
  });

  it("the top application of each currency is the raw most expensive one", () => {
    const byApp = new Map<string, number>();
    for (const l of expected.licenses) {
      const s = expected.summaries.get(l.id);
      if (!s) continue;
      const key = `${l.applicationId}|${s.currency}`;
      byApp.set(key, (byApp.get(key) ?? 0) + cents(s.totalCost));
    }
    for (const currency of expected.currencies.keys()) {
      const best = Math.max(
        ...[...byApp].filter(([k]) => k.endsWith(`|${currency}`)).map(([, v]) => v),
      );
      const top = section(run.json, `top-applications-${currency.toLowerCase()}`);
      assert.equal(cents(top.rows[0].costToDate), best, currency);
      assert.ok(top.rows.length <= 10);
      const totals = top.rows.map((r: Json) => r.costToDate);
      assert.deepEqual(totals, [...totals].sort((a, b) => b - a));
    }
  });

  it("spend by publisher, per currency: the by-application costs summed per publisher, largest first, adding up to the currency's raw total", () => {
    for (const [currency, e] of expected.currencies) {
      const sums = new Map<string, number>();
      for (const r of section(run.json, "by-application").rows) {
        if (r.currency !== currency || r.costToDate === null) continue;
        const publisher = r.publisher ?? "(no publisher)";
        sums.set(publisher, (sums.get(publisher) ?? 0) + cents(r.costToDate));
      }
      const rows = section(run.json, `by-publisher-${currency.toLowerCase()}`).rows;
      assert.ok(rows.every((r: Json) => r.currency === currency), currency);
      assert.deepEqual(
        new Map(rows.map((r: Json) => [r.publisher, cents(r.costToDate)])),
        sums,
        currency,
      );
      const totals = rows.map((r: Json) => r.costToDate);
      assert.deepEqual(totals, [...totals].sort((a, b) => b - a));
      assert.equal(rows.reduce((n: number, r: Json) => n + cents(r.costToDate), 0), e.total);
    }
  });

  it("the PDF draws a bar chart of spend by publisher per currency", async () => {
    const text = await pdfText(run.file("pdf"));
    for (const currency of expected.currencies.keys()) {
      assert.ok(text.includes(`Cost to date by publisher (${currency})`), currency);
    }
  });

  it("CSV and XLSX hold the same totals per currency", async () => {
    const csv = await readCsv(run.file("csv", "currency-totals"));
    const labels = section(run.json, "currency-totals").columns.map((c: Json) => c.label);
    const sheet = sheetWith(await readXlsx(run.file("xlsx")), labels);
    const totalAt = labels.indexOf("Cost to date");
    for (const [currency, e] of expected.currencies) {
      const line = csv.find((r) => r.Currency === currency);
      assert.ok(line, `CSV line of ${currency}`);
      assert.equal(cents(Number(line["Cost to date"])), e.total);
      const row = sheet.find((r) => r[0] === currency);
      assert.ok(row, `XLSX row of ${currency}`);
      assert.equal(cents(row[totalAt] as number), e.total);
    }
  });

  it("headline facts give each currency's total and the licenses without costs", () => {
    const facts = run.result.document.summary;
    for (const [currency, e] of expected.currencies) {
      const fact = facts.find((f) => f.label === `Cost to date (${currency})`);
      assert.equal(fact?.currency, currency);
      assert.equal(cents(fact?.value as number), e.total);
    }
    const missing = facts.find((f) =>
      f.label === "Licenses without a cost summary (costs unknown, in no total)"
    );
    assert.equal(missing?.value, expected.missing.size);
  });

  it("the PDF shows every currency's total cost", async () => {
    const text = await pdfText(run.file("pdf"));
    for (const [currency, e] of expected.currencies) {
      assert.ok(text.includes(money(e.total)), `${currency} ${money(e.total)} in the PDF`);
    }
    assert.ok(text.includes("No cost summary"));
  });

  it("the PDF prints a license without a cost summary with its reason and no amount", async () => {
    const lines = (await pdfText(run.file("pdf"))).split("\n");
    for (const id of expected.missing) {
      const at = lines.filter((l) => l.includes(id));
      assert.equal(at.length, 1, `${id} printed once`);
      assert.match(at[0], /No cost summary/, id);
      assert.doesNotMatch(at[0], /[€$£]\s?\d/, `${id}: no amount beside it`);
    }
    // No license of this estate with costs has a total of 0: a subtotal ending in 0.00 would
    // be licenses without a cost summary summed as 0.
    const zero = lines.filter((l) => /^\s*(Sub)?[Tt]otal\b.*·.*[€$£]0\.00\s*$/.test(l));
    assert.deepEqual(zero, []);
  });

  it("a list entry without cost totals is a license without a costs summary", async () => {
    const { client } = recordingClient(srv);
    const listed = await client.licenses.list().toArray();
    assert.equal(listed.length, expected.licenses.length);
    for (const license of listed) {
      assert.ok(carriesListFields(license), `${license.id} carries the list fields`);
      const raw = expected.summaries.get(license.id!);
      const fromList = summaryFromList(license);
      if (raw === null) {
        assert.equal(fromList, null, `${license.id}: no totals, and costs-summary is 404`);
        continue;
      }
      assert.ok(fromList, `${license.id}: totals on the list`);
      assert.equal(fromList.currency, raw.currency);
      for (const key of SUMMARY_FIGURES) {
        const got: unknown = (fromList as unknown as Record<string, unknown>)[key];
        assert.equal(cents(got as number), cents(Number(raw[key])), `${license.id} ${key}`);
      }
    }
  });

  it("reads the registry and the license list twice each (a verifying second read: neither carries totals), and no call per license", async () => {
    const { client, paths } = recordingClient(srv);
    const { json } = await runReportForTest({ server: srv, report: licenseCostSummary, client });
    const registry = await rawAll(srv, "/api/sam/software-registry/v1/applications", token);
    const counts = countPaths(paths);
    const registryPaths = [...counts.keys()].filter((p) => REGISTRY_PATH.test(p));
    assert.equal(registryPaths.length, 1, `one registry spelling read: ${[...counts.keys()]}`);
    assert.deepEqual(
      counts,
      new Map([
        // Neither list has total_items: each is read again at another page size and compared.
        [LICENSES_PATH, 2 * pagesOf(expected.licenses.length)],
        [registryPaths[0], 2 * pagesOf(registry.length)],
      ]),
      "the list pages and the registry pages, nothing per license",
    );
    const rows = section(json, "currency-totals").rows;
    for (const r of rows) {
      assert.equal(cents(r.costToDate), expected.currencies.get(r.currency)!.total);
    }
  });

  it("asks the costs summary and detail only of licenses whose list entry is thin", async () => {
    const { client, paths, thinned } = recordingClient(srv, (i) => i % 3 === 0);
    const { json } = await runReportForTest({ server: srv, report: licenseCostSummary, client });
    assert.ok(thinned.length > 0 && thinned.length < expected.licenses.length, "a mixed list");
    const perLicense = [...countPaths(paths).entries()].filter(([p]) =>
      p.startsWith(`${LICENSES_PATH}/`)
    );
    const want = thinned.flatMap((id) => [
      [`${LICENSES_PATH}/${id}`, 1],
      [`${LICENSES_PATH}/${id}/costs-summary`, 1],
    ]);
    assert.deepEqual(new Map(perLicense), new Map(want as [string, number][]));
    const rows = section(json, "currency-totals").rows;
    for (const r of rows) {
      const e = expected.currencies.get(r.currency)!;
      assert.equal(cents(r.costToDate), e.total, `${r.currency} total`);
      assert.equal(r.withoutCosts, e.missing, `${r.currency} without costs`);
    }
    const vendors = allLicenseRows(json).map((
      r: Json,
    ): [string, string] => [r.licenseId, r.vendor]);
    assert.deepEqual(
      new Map(vendors),
      new Map(expected.licenses.map((l) => [l.id, expected.vendors.get(l.id) ?? "(no vendor)"])),
    );
  });

  it("organization and purchase-date parameters select the raw licenses they name", async () => {
    const org = expected.licenses[0].organizationId;
    const from = "2023-01-01", to = "2024-12-31";
    const lo = Date.parse(`${from}T00:00:00Z`), hi = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
    const want = expected.licenses.filter((l) => {
      const t = licenseDate(l.purchaseDate);
      return l.organizationId === org && t !== null && t >= lo && t < hi;
    }).map((l) => l.id).sort();
    assert.ok(want.length > 0, "the range selects something");
    const { json } = await runReportForTest({
      server: srv,
      report: licenseCostSummary,
      params: { organization: org, purchasedFrom: from, purchasedTo: to },
    });
    const got = allLicenseRows(json).map((r: Json) => r.licenseId).sort();
    assert.deepEqual(got, want);
  });

  it("a filter applies to the licenses collection", async () => {
    const { json } = await runReportForTest({
      server: srv,
      report: licenseCostSummary,
      filter: "quantity -gt 100",
    });
    const want = expected.licenses.filter((l) => Number(l.quantity) > 100).length;
    assert.equal(allLicenseRows(json).length, want);
  });
});

describe("license-cost-summary on an empty estate", () => {
  it("renders every section with its no-data text", async () => {
    const run = await runOnEmptyStore(licenseCostSummary);
    assert.ok(run.json.sections.length >= 4);
    await assertNoData(run, {
      pdf: [
        "No licenses match these parameters.",
        "No license has cost figures for these parameters.",
      ],
      csv: ["licenses"],
    });
  });
});

describe("license-cost-summary purchase range", () => {
  it("includes both ends, the whole last day of a date-only end", () => {
    const from = new Date("2023-01-01T00:00:00Z"), to = new Date("2023-12-31T00:00:00Z");
    assert.ok(inPurchaseRange(new Date("2023-01-01T00:00:00Z"), from, to));
    assert.ok(inPurchaseRange(new Date("2023-12-31T23:59:59Z"), from, to));
    assert.ok(!inPurchaseRange(new Date("2024-01-01T00:00:00Z"), from, to));
    assert.ok(!inPurchaseRange(new Date("2022-12-31T23:59:59Z"), from, to));
    assert.ok(!inPurchaseRange(null, from, undefined), "no date is out when a range is given");
    assert.ok(inPurchaseRange(null, undefined, undefined));
  });
});
