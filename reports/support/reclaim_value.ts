/**
 * How unused-software shows reclaimable value: a chart of the applications with a reclaimable
 * value (licensed and priced only, one axis per currency, never mixing currencies) and the
 * section of that value per currency (its headline summed from the section's own rows).
 *
 * @module
 */

import { integer, money, text } from "../../lib/report/columns.ts";
import type { Section, StackedBarChartSpec } from "../../lib/report/model.ts";
import { type ApplicationRow, reclaimValueRows } from "./unused_rows.ts";

/** Bars drawn at most. */
const TOP = 15;

/**
 * The chart of the applications' reclaimable value: the first valued rows (valued rows come
 * first, see `applicationRows`), at most 15, one axis per currency; `undefined` when no
 * application has a reclaimable value.
 *
 * @example
 * ```ts
 * import { reclaimChart } from "./reclaim_value.ts";
 * const apps = [{ reclaimValue: 5, currency: "EUR" }, { reclaimValue: null, currency: null }];
 * console.log(reclaimChart(apps as never)?.top); // 1
 * ```
 */
export function reclaimChart(apps: readonly ApplicationRow[]): StackedBarChartSpec | undefined {
  const valued = apps.filter((r) => r.reclaimValue !== null).length;
  if (valued === 0) return undefined;
  return {
    type: "stackedBar",
    title: "Reclaimable license value per application",
    label: "application",
    segments: [{ key: "reclaimValue", label: "Reclaimable value" }],
    currency: "currency",
    top: Math.min(valued, TOP),
    of: { count: valued, noun: "applications with a reclaimable value" },
  };
}

/**
 * The section of reclaimable value per currency, with its headline per currency.
 *
 * @example
 * ```ts
 * import { reclaimValueSection } from "./reclaim_value.ts";
 * const apps = [{ currency: "EUR", reclaimable: 2, reclaimValue: 5 }];
 * console.log(reclaimValueSection(apps as never, 180).id); // "reclaim-value"
 * ```
 */
export function reclaimValueSection(apps: readonly ApplicationRow[], top: number): Section {
  return {
    id: "reclaim-value",
    title: "Reclaimable license value per currency",
    description: "Value of the reclaimable licenses per currency (amounts in different " +
      "currencies are never added). A row without a currency counts reclaimable licenses " +
      "of applications whose licenses carry no price.",
    columns: [
      text("currency", "Currency", { width: 8 }),
      integer("applications", "Applications"),
      integer("licenses", "Reclaimable licenses"),
      money("value", "Value"),
    ],
    rows: reclaimValueRows(apps),
    emptyText: `No licensed installation has gone unused for ${top} days or more.`,
    facts: [{ label: "Reclaimable value", sum: "value", perCurrency: "currency" }],
  };
}
