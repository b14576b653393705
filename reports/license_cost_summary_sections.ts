/**
 * The license-cost-summary sections, declared: the totals per currency, the subtotals per
 * application and per vendor, and the sections that rank within one currency — the most
 * expensive applications and the cost to date by publisher, each with a bar chart of that currency only
 * (amounts in different currencies are never on one axis). The rows come from
 * `lib/sam/license_cost_query.ts`.
 *
 * @module
 */

import { integer, text } from "../lib/report/columns.ts";
import type { AmountConverter, Section } from "../lib/report/model.ts";
import { distinctNames } from "../lib/fs/safe_name.ts";
import { COST_COLUMNS } from "./license_cost_summary_columns.ts";
import type { CostLine } from "../lib/sam/license_cost_lines.ts";
import {
  publisherRows,
  type Subtotal,
  topApplications,
  topSectionId,
} from "../lib/sam/license_cost_query.ts";

const { currency: CURRENCY, licenses: LICENSES, total: TOTAL } = COST_COLUMNS;
const { qtyCosted: QTY_COSTED, withoutCosts: WITHOUT } = COST_COLUMNS;
const EMPTY = "No license has cost figures for these parameters.";
const paren = (code?: string) => (code ? ` (${code})` : "");

/** The currency codes of lines or subtotals (for section ids distinct per code). */
const currenciesOf = (rows: readonly { currency: string | null }[]): string[] =>
  rows.flatMap((r) => (r.currency ? [r.currency] : []));

/**
 * The ranking of the `top` most expensive applications of currency `code` (`many`: the report
 * has several currencies, so the title names it), with a bar chart.
 *
 * @example
 * ```ts
 * import { topSection } from "./license_cost_summary_sections.ts";
 * const apps = [{ application: "A", publisher: null, currency: "EUR", costToDate: 5 }];
 * console.log(topSection(apps as never, "EUR", 10, false).title); // "Top applications by cost"
 * ```
 */
export function topSection(
  apps: readonly Subtotal<"application" | "currency">[],
  code: string | undefined,
  top: number,
  many: boolean,
): Section {
  return {
    id: topSectionId(code, currenciesOf(apps)),
    title: `Top applications by cost to date${paren(many ? code : undefined)}`,
    description: `The ${top === 10 ? "ten" : top} most expensive applications by cost to date ` +
      "(purchase plus maintenance and support since purchase)" +
      (many ? `, in ${code}; amounts in other currencies are ranked separately. ` : ". ") +
      "Each figure is the application's line of Cost by application. " +
      COST_COLUMNS.subtotalNote + " An application with no cost summary at all is not ranked.",
    columns: [
      integer("rank", "Rank", { width: 6 }),
      text("application", "Application", { width: 46 }),
      COST_COLUMNS.publisher(24),
      ...[LICENSES, WITHOUT, QTY_COSTED, TOTAL, CURRENCY],
    ],
    rows: topApplications(apps, code, top),
    chart: {
      type: "bar",
      title: `Cost to date by application${paren(code)}`,
      ...{ label: "application", value: "costToDate", top },
    },
    emptyText: EMPTY,
  };
}

/** The sentence on the licenses of currency `code` a ranking leaves out ("" when none). */
function withoutNote(lines: readonly CostLine[], code: string | undefined): string {
  const n = lines.filter((l) => l.currency === code && !l.costed).length;
  if (n === 0) return "";
  return ` ${n} ${n === 1 ? "license" : "licenses"} in ${code} without a cost summary ` +
    `${n === 1 ? "is" : "are"} not included (their costs are unknown).`;
}

/**
 * Cost to date by publisher in currency `code` (`many`: the title names it), with a bar chart of
 * the first `top` publishers; with a reporting currency `fx`, each publisher's converted cost is
 * the sum of its licenses' converted costs.
 *
 * @example
 * ```ts
 * import { publisherSection } from "./license_cost_summary_sections.ts";
 * console.log(publisherSection([], "GBP", 10, true).id); // "by-publisher-gbp"
 * ```
 */
export function publisherSection(
  lines: readonly CostLine[],
  code: string | undefined,
  top: number,
  many: boolean,
  fx?: AmountConverter,
): Section {
  return {
    id: code ? `by-publisher-${distinctNames(currenciesOf(lines)).get(code)}` : "by-publisher",
    title: `Cost to date by publisher${paren(many ? code : undefined)}`,
    description: "Cost to date (purchase plus maintenance and support since purchase) of the " +
      "licenses with a cost summary, per publisher (the registry's manufacturer), largest first" +
      (many ? `, in ${code} only; other currencies have their own section.` : ".") +
      withoutNote(lines, code),
    columns: [
      COST_COLUMNS.publisher(36),
      integer("licenses", "Licenses with costs", { width: 9 }),
      QTY_COSTED,
      TOTAL,
      CURRENCY,
    ],
    rows: publisherRows(lines, code, fx),
    totals: { sum: ["licenses", "quantity", "costToDate"], perCurrency: "currency" },
    chart: {
      type: "bar",
      title: `Cost to date by publisher${paren(code)}`,
      ...{ label: "publisher", value: "costToDate", top },
    },
    emptyText: EMPTY,
  };
}

const NOTE = `${COST_COLUMNS.note} ${COST_COLUMNS.subtotalNote}`;
const NO_LICENSES = "No licenses match these parameters.";
const C = COST_COLUMNS;

/**
 * The "currency-totals" section: every figure summed within its currency.
 *
 * @example
 * ```ts
 * import { currencyTotalsSection } from "./license_cost_summary_sections.ts";
 * console.log(currencyTotalsSection([]).id); // "currency-totals"
 * ```
 */
export function currencyTotalsSection(rows: readonly Subtotal<"currency">[]): Section {
  return {
    id: "currency-totals",
    title: "Totals by currency",
    description: "Every figure summed within its currency; amounts in different currencies " +
      `are never added together. ${NOTE}`,
    columns: [C.currency, ...C.subtotals.filter((c) => c.key !== "currency")],
    rows: [...rows],
    // Money in different currencies is added only once converted to a reporting currency.
    totals: { sum: ["licenses", "withoutCosts"], converted: C.sums.slice(1) },
    emptyText: NO_LICENSES,
  };
}

/**
 * The "by-application" section: subtotals per application and currency.
 *
 * @example
 * ```ts
 * import { applicationSubtotalsSection } from "./license_cost_summary_sections.ts";
 * console.log(applicationSubtotalsSection([]).title); // "Cost by application"
 * ```
 */
export function applicationSubtotalsSection(
  rows: readonly Subtotal<"application" | "currency">[],
): Section {
  return {
    id: "by-application",
    title: "Cost by application",
    description: `Subtotals per application and currency. ${C.subtotalNote}`,
    columns: [C.application(32), C.publisher(18), ...C.subtotals],
    rows: [...rows],
    totals: C.subtotalSums,
    emptyText: NO_LICENSES,
  };
}

/**
 * The "by-vendor" section: subtotals per vendor (who the license was bought from) and currency.
 *
 * @example
 * ```ts
 * import { vendorSubtotalsSection } from "./license_cost_summary_sections.ts";
 * console.log(vendorSubtotalsSection([]).title); // "Cost by vendor"
 * ```
 */
export function vendorSubtotalsSection(rows: readonly Subtotal<"vendor" | "currency">[]): Section {
  return {
    id: "by-vendor",
    title: "Cost by vendor",
    description: "Subtotals per vendor (who the license was bought from) and currency. " +
      C.subtotalNote,
    columns: [C.vendor(28), ...C.subtotals],
    rows: [...rows],
    totals: C.subtotalSums,
    emptyText: NO_LICENSES,
  };
}
