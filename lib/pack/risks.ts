/**
 * The top risks of a run: the license positions with the largest shortfall cost, per currency
 * (amounts in different currencies are never ranked together), read from the license-position
 * report's `positions` rows as the pack renders it.
 *
 * @module
 */

import type { RenderDocument } from "../render/renderer.ts";

/** One priced shortfall. */
export interface Risk {
  /** The application. */
  readonly application: string;
  /** The metric the shortfall is counted in. */
  readonly metric: string;
  /** Units short. */
  readonly shortfall: number;
  /** What buying the shortfall would cost, in {@link currency}. */
  readonly shortfallCost: number;
  /** The currency code. */
  readonly currency: string;
}

/** Top risks per currency code, largest first. */
export type RisksByCurrency = Record<string, Risk[]>;

/** The report and section the risks come from. */
export const RISK_SOURCE = { report: "license-position", section: "positions" } as const;

/** How many risks per currency are kept. */
export const TOP_RISKS = 5;

/**
 * Keeps the `top` rows with the largest positive shortfall cost per currency (ties by
 * application, then metric, so the choice is stable).
 *
 * @example
 * ```ts
 * import { topRisks } from "./risks.ts";
 * const rows = [
 *   { application: "A", metric: "Device", shortfall: 2, shortfallCost: 200, currency: "EUR" },
 *   { application: "B", metric: "Device", shortfall: 9, shortfallCost: 90, currency: "USD" },
 * ];
 * console.log(Object.keys(topRisks(rows))); // ["EUR", "USD"]
 * ```
 */
export function topRisks(
  rows: Iterable<Record<string, unknown>>,
  top = TOP_RISKS,
): RisksByCurrency {
  const out: RisksByCurrency = {};
  for (const row of rows) {
    const cost = row.shortfallCost;
    const currency = row.currency;
    if (typeof cost !== "number" || !(cost > 0) || typeof currency !== "string" || !currency) {
      continue;
    }
    const list = out[currency] ??= [];
    list.push({
      application: String(row.application ?? ""),
      metric: String(row.metric ?? ""),
      shortfall: Number(row.shortfall ?? 0),
      shortfallCost: Math.round(cost * 100) / 100,
      currency,
    });
    list.sort(byCost);
    if (list.length > top) list.length = top;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a < b ? -1 : 1));
}

function byCost(a: Risk, b: Risk): number {
  return b.shortfallCost - a.shortfallCost || a.application.localeCompare(b.application) ||
    a.metric.localeCompare(b.metric);
}

/**
 * Reads the top risks of a rendered license-position document (empty for any other report).
 *
 * @example
 * ```ts ignore
 * import { collectRisks } from "./risks.ts";
 * const risks = await collectRisks("license-position", document);
 * ```
 */
export async function collectRisks(report: string, doc: RenderDocument): Promise<RisksByCurrency> {
  if (report !== RISK_SOURCE.report) return {};
  const section = doc.sections.find((s) => s.id === RISK_SOURCE.section);
  if (!section) return {};
  const rows: Record<string, unknown>[] = [];
  let kept: RisksByCurrency = {};
  for await (const row of section.rows()) {
    if (typeof row.shortfallCost === "number" && row.shortfallCost > 0) rows.push(row);
    if (rows.length >= 1024) kept = merge(kept, rows.splice(0));
  }
  return merge(kept, rows);
}

function merge(kept: RisksByCurrency, rows: Record<string, unknown>[]): RisksByCurrency {
  return topRisks([...Object.values(kept).flat() as unknown as Record<string, unknown>[], ...rows]);
}
