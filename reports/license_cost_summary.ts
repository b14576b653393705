/**
 * License cost summary: every license with its application, vendor, quantity and costs
 * (purchase, current and accumulated maintenance and support, total, average per license), with
 * subtotals per vendor and per application, totals per currency (never summed across currencies)
 * and the ten most expensive applications in each currency.
 *
 * Data: the licenses collection (cache key `licenses.list`, or `licenses.list?filter=…` with a
 * filter) and the software registry (cache key `registry.applications`). The license list of the
 * real service (and of the reference server) carries each license's vendor and cost totals, equal
 * to its costs summary: those licenses need no further call. Only an entry without them (the
 * spec's thinner list; the rule is `summaryFromList` in `support/license_list_costs.ts`) gets its
 * costs summary and detail, one call each through the run's fan-out (cache keys
 * `licenses.costsSummary:<id>` and `licenses.get:<id>`, `null` on 404).
 *
 * Vendor: the license's `vendor` (from the list, else its detail), i.e. who the license was
 * bought from (a reseller or the publisher itself). The registry manufacturer (the publisher) is
 * shown next to the application in the per-application subtotals.
 *
 * @module
 */

import type { Resource } from "../lib/api/catalogue.ts";
import type { LicensesApi, RegistryApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Column, Fact, ReportContext, ReportData, Row, Section } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import { summaryFromList } from "./support/license_list_costs.ts";
import {
  applicationLabelOrNone,
  compareText,
  currencyFact,
  detailsById,
  registryById,
} from "./support/lookups.ts";

type License = Resource<"License">;
type LicenseDetail = Resource<"LicenseDetail">;
type CostSummary = Resource<"LicenseCostSummary">;

/** The slice of the SAM client this report reads. */
export interface LicenseCostSummaryClient {
  /** Licenses, their details and their cost summaries. */
  readonly licenses: Pick<LicensesApi, "list" | "get" | "costsSummary">;
  /** The application registry (names and publishers). */
  readonly registry: Pick<RegistryApi, "applications">;
}

type Ctx = ReportContext<LicenseCostSummaryClient, QueryContext>;

const DAY = 86_400_000;

/** The vendor label of licenses whose detail names none. */
export const NO_VENDOR = "(no vendor)";

/** The currency label of licenses with neither a cost-summary nor a purchase currency. */
export const NO_CURRENCY = "(none)";

/** The note of a license whose costs summary is missing (404). */
export const NO_COST_SUMMARY = "No cost summary";

/** The cost figures of the report, in the order shown, with their labels. */
export const COST_FIELDS = [
  ["purchaseCost", "Purchase"],
  ["currentMaintenance", "Maint./yr"],
  ["accumulatedMaintenance", "Maint. to date"],
  ["currentSupport", "Support/yr"],
  ["accumulatedSupport", "Support to date"],
  ["totalCost", "Total cost"],
] as const;

/** A cost figure key. */
export type CostKey = typeof COST_FIELDS[number][0];

/** Integer cents of an amount (`null` stays `null`). */
export function toCents(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value * 100) : null;
}

/**
 * Whether a purchase date lies in the inclusive range `from`…`to`. A `to` at midnight UTC (a
 * date-only parameter) includes that whole day. Without a range every license is in; with one,
 * a license without a purchase date is out.
 *
 * @example
 * ```ts
 * import { inPurchaseRange } from "./license_cost_summary.ts";
 * const d = new Date("2023-05-31T18:00:00Z");
 * console.log(inPurchaseRange(d, undefined, new Date("2023-05-31T00:00:00Z"))); // true
 * ```
 */
export function inPurchaseRange(
  date: Date | null,
  from: Date | undefined,
  to: Date | undefined,
): boolean {
  if (!from && !to) return true;
  if (!date || Number.isNaN(date.getTime())) return false;
  const t = date.getTime();
  if (from && t < from.getTime()) return false;
  if (to) {
    const end = to.getTime() % DAY === 0 ? to.getTime() + DAY : to.getTime() + 1;
    if (t >= end) return false;
  }
  return true;
}

/** Running sums of one subtotal line, in integer cents. */
interface Sums {
  licenses: number;
  withCosts: number;
  quantity: number;
  cents: Record<CostKey, number>;
  /** Quantity of the licenses that have a cost summary (the divisor of the average). */
  costedQuantity: number;
}

const newSums = (): Sums => ({
  licenses: 0,
  withCosts: 0,
  quantity: 0,
  costedQuantity: 0,
  cents: {
    purchaseCost: 0,
    currentMaintenance: 0,
    accumulatedMaintenance: 0,
    currentSupport: 0,
    accumulatedSupport: 0,
    totalCost: 0,
  },
});

/** One license, resolved. */
interface Line {
  license: License;
  id: string;
  application: string;
  publisher: string | null;
  vendor: string;
  currency: string;
  quantity: number | null;
  /** Cents per cost key; absent without a cost summary. */
  cents?: Record<CostKey, number | null>;
  average: number | null;
}

function addTo(sums: Sums, line: Line): void {
  sums.licenses++;
  sums.quantity += line.quantity ?? 0;
  if (!line.cents) return;
  sums.withCosts++;
  sums.costedQuantity += line.quantity ?? 0;
  for (const [key] of COST_FIELDS) sums.cents[key] += line.cents[key] ?? 0;
}

/** Cost columns of a row from cents (two decimals, exact). */
function costValues(cents: Record<CostKey, number | null> | undefined): Row {
  const row: Row = {};
  for (const [key] of COST_FIELDS) {
    const c = cents?.[key];
    row[key] = c === null || c === undefined ? null : c / 100;
  }
  return row;
}

/** Average purchase cost per license unit of a subtotal line, to the cent. */
function averageOf(sums: Sums): number | null {
  if (sums.costedQuantity <= 0 || sums.withCosts === 0) return null;
  return Math.round(sums.cents.purchaseCost / sums.costedQuantity) / 100;
}

/** What the abbreviated cost columns mean (said in each section's description). */
const FIGURES_NOTE = "Maint./yr and Support/yr are the current yearly maintenance and support " +
  "costs; the to-date figures are accumulated since purchase; the total is purchase plus " +
  "accumulated maintenance and support; Avg./license is the purchase cost per license " +
  "(purchase ÷ quantity).";

const money = (key: string, label: string, width = 12): Column => ({
  key,
  label,
  type: "currency",
  currencyKey: "currency",
  width,
});

const COST_COLUMNS: Column[] = COST_FIELDS.map(([key, label]) => money(key, label));
const COST_SUMS = ["quantity", ...COST_FIELDS.map(([key]) => key)];
const CURRENCY_COLUMN: Column = { key: "currency", label: "Currency", type: "text", width: 8 };

const LICENSE_COLUMNS: Column[] = [
  { key: "application", label: "Application", type: "text", width: 34 },
  { key: "licenseId", label: "License", type: "text", width: 9 },
  { key: "vendor", label: "Vendor", type: "text", width: 16 },
  { key: "purchaseDate", label: "Purchased", type: "date", width: 11 },
  { key: "quantity", label: "Qty", type: "integer", width: 6 },
  ...COST_COLUMNS,
  money("averageCost", "Avg./license", 11),
  CURRENCY_COLUMN,
  {
    key: "note",
    label: "Note",
    type: "text",
    width: 16,
    emphasis: (row) => row.note ? "warn" : undefined,
  },
];

function subtotalColumns(first: Column[]): Column[] {
  return [
    ...first,
    { key: "licenses", label: "Licenses", type: "integer", width: 8 },
    { key: "quantity", label: "Qty", type: "integer", width: 6 },
    ...COST_COLUMNS,
    money("averageCost", "Avg./license", 11),
    CURRENCY_COLUMN,
  ];
}

function subtotalRow(sums: Sums): Row {
  return {
    licenses: sums.licenses,
    quantity: sums.quantity,
    ...(sums.withCosts > 0 ? costValues(sums.cents) : costValues(undefined)),
    averageCost: averageOf(sums),
  };
}

async function readLicenses(ctx: Ctx): Promise<License[]> {
  if (ctx.filter) {
    const filter = ctx.filter;
    return await ctx.query.all(
      `licenses.list?filter=${filter}`,
      () => ctx.client.licenses.list({ filter }),
    );
  }
  return await ctx.query.all("licenses.list", () => ctx.client.licenses.list());
}

/**
 * Each license's costs summary and, for entries of a thin list only, its detail (for the vendor):
 * taken from the list entry when it carries them, else one call each per license.
 */
async function costsAndVendors(ctx: Ctx, licenses: readonly License[]): Promise<{
  summaries: Map<string, CostSummary | null>;
  details: Map<string, LicenseDetail | null>;
}> {
  const summaries = new Map<string, CostSummary | null>();
  const thin: License[] = [];
  for (const license of licenses) {
    const summary = summaryFromList(license);
    if (summary === undefined) thin.push(license);
    else summaries.set(license.id!, summary);
  }
  if (thin.length === 0) return { summaries, details: new Map() };
  const fetched = await detailsById(
    ctx,
    thin,
    "licenses.costsSummary",
    (id) => ctx.client.licenses.costsSummary(id, { signal: ctx.signal }),
  );
  const details = await detailsById(
    ctx,
    thin,
    "licenses.get",
    (id) => ctx.client.licenses.get(id, { signal: ctx.signal }),
  );
  for (const [id, summary] of fetched) summaries.set(id, summary);
  return { summaries, details };
}

async function data(ctx: Ctx): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const from = ctx.params.purchasedFrom as Date | undefined;
  const to = ctx.params.purchasedTo as Date | undefined;
  const top = (ctx.params.top as number | undefined) ?? 10;

  const [all, registry] = await Promise.all([readLicenses(ctx), registryById(ctx)]);
  const licenses = all.filter((l) =>
    l.id &&
    (organization === undefined || l.organizationId === organization) &&
    inPurchaseRange(l.purchaseDate, from, to)
  );

  const { summaries, details } = await costsAndVendors(ctx, licenses);

  const lines: Line[] = licenses.map((license) => {
    const id = license.id!;
    const summary = summaries.get(id) ?? null;
    const vendor = details.has(id) ? details.get(id)?.vendor : license.vendor;
    const app = license.applicationId ? registry.get(license.applicationId) : undefined;
    const currency = summary?.currency?.trim() || license.purchaseCurrency?.trim() || NO_CURRENCY;
    const line: Line = {
      license,
      id,
      application: applicationLabelOrNone(license.applicationId, app),
      publisher: app?.manufacturer ?? null,
      vendor: vendor?.trim() || NO_VENDOR,
      currency,
      quantity: license.quantity ?? summary?.quantity ?? null,
      average: summary?.averageCostPerLicensePurchase ?? null,
    };
    if (summary) {
      line.cents = {
        purchaseCost: toCents(summary.purchaseCost),
        currentMaintenance: toCents(summary.currentMaintenanceCost),
        accumulatedMaintenance: toCents(summary.accumulatedMaintenanceCost),
        currentSupport: toCents(summary.currentSupportCost),
        accumulatedSupport: toCents(summary.accumulatedSupportCost),
        totalCost: toCents(summary.totalCost),
      };
    }
    return line;
  });
  lines.sort((a, b) =>
    compareText(a.vendor, b.vendor) || compareText(a.application, b.application) ||
    (a.license.purchaseDate?.getTime() ?? Infinity) -
      (b.license.purchaseDate?.getTime() ?? Infinity) ||
    compareText(a.id, b.id)
  );

  // Subtotals in integer cents.
  const byApp = new Map<string, { name: string; publisher: string | null; sums: Sums }>();
  const byVendor = new Map<string, { vendor: string; currency: string; sums: Sums }>();
  const byCurrency = new Map<string, Sums>();
  for (const line of lines) {
    const appKey = `${line.application}\u0000${line.currency}`;
    let app = byApp.get(appKey);
    if (!app) {
      byApp.set(
        appKey,
        app = { name: line.application, publisher: line.publisher, sums: newSums() },
      );
    }
    addTo(app.sums, line);
    const vendorKey = `${line.vendor}\u0000${line.currency}`;
    let vendor = byVendor.get(vendorKey);
    if (!vendor) {
      byVendor.set(
        vendorKey,
        vendor = { vendor: line.vendor, currency: line.currency, sums: newSums() },
      );
    }
    addTo(vendor.sums, line);
    let cur = byCurrency.get(line.currency);
    if (!cur) byCurrency.set(line.currency, cur = newSums());
    addTo(cur, line);
  }
  const currencies = [...byCurrency.keys()].sort(compareText);

  const licenseRows: Row[] = lines.map((line) => ({
    licenseId: line.id,
    application: line.application,
    vendor: line.vendor,
    purchaseDate: line.license.purchaseDate,
    quantity: line.quantity,
    ...costValues(line.cents),
    averageCost: line.cents ? line.average : null,
    currency: line.currency,
    note: line.cents ? null : NO_COST_SUMMARY,
  }));

  const appRows: Row[] = [...byApp.entries()]
    .map(([key, a]) => ({
      application: a.name,
      publisher: a.publisher,
      ...subtotalRow(a.sums),
      currency: key.slice(key.indexOf("\u0000") + 1),
    }))
    .sort((a, b) =>
      compareText(a.application, b.application) || compareText(a.currency, b.currency)
    );

  const vendorRows: Row[] = [...byVendor.values()]
    .map((v) => ({ vendor: v.vendor, ...subtotalRow(v.sums), currency: v.currency }))
    .sort((a, b) => compareText(a.vendor, b.vendor) || compareText(a.currency, b.currency));

  const currencyRows: Row[] = currencies.map((currency) => {
    const sums = byCurrency.get(currency)!;
    return {
      currency,
      ...subtotalRow(sums),
      withoutCosts: sums.licenses - sums.withCosts,
    };
  });

  const topSections: Section[] = (currencies.length ? currencies : [undefined]).map(
    (currency) => {
      const ranked = appRows
        .filter((r) => r.currency === currency && typeof r.totalCost === "number")
        .sort((a, b) =>
          (b.totalCost as number) - (a.totalCost as number) ||
          compareText(a.application as string, b.application as string)
        )
        .slice(0, top)
        .map((r, i) => ({
          rank: i + 1,
          application: r.application,
          publisher: r.publisher,
          licenses: r.licenses,
          quantity: r.quantity,
          totalCost: r.totalCost,
          currency: r.currency,
        }));
      const suffix = currency && currencies.length > 1 ? ` (${currency})` : "";
      return {
        id: currency
          ? `top-applications-${currency.toLowerCase().replace(/[^a-z0-9]+/g, "")}`
          : "top-applications",
        title: `Top applications by cost${suffix}`,
        description: `The ${top === 10 ? "ten" : top} most expensive applications by total cost ` +
          "(purchase plus accumulated maintenance and support)" +
          (currencies.length > 1
            ? `, in ${currency}; amounts in other currencies are ranked separately.`
            : "."),
        columns: [
          { key: "rank", label: "Rank", type: "integer", width: 6 },
          { key: "application", label: "Application", type: "text", width: 52 },
          { key: "publisher", label: "Publisher", type: "text", width: 26 },
          { key: "licenses", label: "Licenses", type: "integer", width: 8 },
          { key: "quantity", label: "Qty", type: "integer", width: 6 },
          money("totalCost", "Total cost", 16),
          CURRENCY_COLUMN,
        ],
        rows: ranked,
        chart: {
          type: "bar",
          title: `Total cost by application${currency ? ` (${currency})` : ""}`,
          label: "application",
          value: "totalCost",
          top,
        },
        emptyText: "No license has cost figures for these parameters.",
      } satisfies Section;
    },
  );

  const sections: Section[] = [
    {
      id: "currency-totals",
      title: "Totals by currency",
      description: "Every figure summed within its currency; amounts in different currencies " +
        `are never added together. ${FIGURES_NOTE}`,
      columns: [
        CURRENCY_COLUMN,
        { key: "licenses", label: "Licenses", type: "integer", width: 8 },
        { key: "withoutCosts", label: "No summary", type: "integer", width: 8 },
        { key: "quantity", label: "Qty", type: "integer", width: 6 },
        ...COST_COLUMNS,
        money("averageCost", "Avg./license", 11),
      ],
      rows: currencyRows,
      emptyText: "No licenses match these parameters.",
    },
    ...topSections,
    {
      id: "licenses",
      title: "Licenses by vendor",
      description: "Every license with its costs summary, grouped by vendor with subtotals per " +
        `currency. ${FIGURES_NOTE} A license whose costs summary is missing is listed with ` +
        `blank costs and flagged "${NO_COST_SUMMARY}".`,
      columns: LICENSE_COLUMNS,
      rows: licenseRows,
      totals: { sum: COST_SUMS, perCurrency: "currency" },
      group: { by: "vendor", label: "Vendor" },
      emptyText: "No licenses match these parameters.",
    },
    {
      id: "by-application",
      title: "Cost by application",
      description: "Subtotals per application and currency.",
      columns: subtotalColumns([
        { key: "application", label: "Application", type: "text", width: 36 },
        { key: "publisher", label: "Publisher", type: "text", width: 20 },
      ]),
      rows: appRows,
      totals: { sum: ["licenses", ...COST_SUMS], perCurrency: "currency" },
      emptyText: "No licenses match these parameters.",
    },
    {
      id: "by-vendor",
      title: "Cost by vendor",
      description: "Subtotals per vendor (who the license was bought from) and currency.",
      columns: subtotalColumns([{ key: "vendor", label: "Vendor", type: "text", width: 28 }]),
      rows: vendorRows,
      totals: { sum: ["licenses", ...COST_SUMS], perCurrency: "currency" },
      emptyText: "No licenses match these parameters.",
    },
  ];

  const summary = (): Fact[] => {
    const facts: Fact[] = [];
    for (const currency of currencies) {
      const sums = byCurrency.get(currency)!;
      if (sums.withCosts === 0) continue;
      facts.push(currencyFact("Total cost", currency, sums.cents.totalCost / 100));
    }
    facts.push(
      { label: "Licenses", value: lines.length, type: "integer" },
      {
        label: "Licenses without a cost summary",
        value: lines.filter((l) => !l.cents).length,
        type: "integer",
      },
      {
        label: "Applications",
        value: new Set(lines.map((l) => l.application)).size,
        type: "integer",
      },
    );
    return facts;
  };

  return { sections, summary };
}

/**
 * The license cost summary report (`license-cost-summary`).
 *
 * @example
 * ```ts ignore
 * import { licenseCostSummary } from "./license_cost_summary.ts";
 * console.log(licenseCostSummary.id); // "license-cost-summary"
 * ```
 */
export const licenseCostSummary = defineReport<LicenseCostSummaryClient, QueryContext>({
  id: "license-cost-summary",
  title: "License cost summary",
  description: "What every license cost: purchase, maintenance and support, current and " +
    "accumulated, with the total and the average purchase cost per license, subtotals per " +
    "vendor and per application, totals per currency (currencies are never added together) and " +
    "the most expensive applications. Costs are each license's costs-summary figures " +
    "(the cost totals on the license list, or its costs summary where the list lacks them); " +
    "the vendor is the license record's vendor (who it was bought from), the publisher the " +
    "software registry's manufacturer. A license without a costs summary is listed with blank " +
    "costs and flagged.",
  params: {
    organization: {
      type: "string",
      description: "Organisation id: only licenses of this organisation",
    },
    purchasedFrom: {
      type: "date",
      description: "Only licenses purchased on or after this date (YYYY-MM-DD)",
    },
    purchasedTo: {
      type: "date",
      description: "Only licenses purchased on or before this date (inclusive, YYYY-MM-DD)",
    },
    top: {
      type: "integer",
      description: "How many applications the most-expensive ranking shows per currency",
      default: 10,
      min: 1,
      max: 100,
    },
  },
  filterResource: "License",
  landscape: true,
  data,
});
