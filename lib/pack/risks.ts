/**
 * The top risks of a run: the license positions with the largest shortfall cost, per currency
 * (amounts in different currencies are never ranked together), read from the license-position
 * report's `positions` rows as the pack renders it; and the shortfalls that have no price, named
 * (application × metric), since their cost is in no total.
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

/** A shortfall with no price: its cost is unknown, not 0. */
export interface UnpricedShortfall {
  /** The application. */
  readonly application: string;
  /** The metric the shortfall is counted in. */
  readonly metric: string;
  /** Units short. */
  readonly shortfall: number;
}

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
 * Whether a license-position row is a shortfall without a price (its `unpricedShortfall` flag,
 * else short with no shortfall cost).
 *
 * @example
 * ```ts
 * import { isUnpriced } from "./risks.ts";
 * console.log(isUnpriced({ shortfall: 3, shortfallCost: null })); // true
 * ```
 */
export function isUnpriced(row: Record<string, unknown>): boolean {
  if (typeof row.unpricedShortfall === "boolean") return row.unpricedShortfall;
  return Number(row.shortfall ?? 0) > 0 && typeof row.shortfallCost !== "number";
}

/**
 * Unpriced shortfalls, largest first (then by application and metric).
 *
 * @example
 * ```ts
 * import { unpricedShortfalls } from "./risks.ts";
 * const rows = [{ application: "A", metric: "Core", shortfall: 4, shortfallCost: null }];
 * console.log(unpricedShortfalls(rows)); // [{ application: "A", metric: "Core", shortfall: 4 }]
 * ```
 */
export function unpricedShortfalls(rows: Iterable<Record<string, unknown>>): UnpricedShortfall[] {
  const out: UnpricedShortfall[] = [];
  for (const row of rows) {
    if (!isUnpriced(row)) continue;
    out.push({
      application: String(row.application ?? ""),
      metric: String(row.metric ?? ""),
      shortfall: Number(row.shortfall ?? 0),
    });
  }
  return out.sort((a, b) =>
    b.shortfall - a.shortfall || a.application.localeCompare(b.application) ||
    a.metric.localeCompare(b.metric)
  );
}

/** What the pack summary reads of the license position: top risks and unpriced shortfalls. */
export interface Exposure {
  /** Top risks per currency. */
  readonly risks: RisksByCurrency;
  /** Every unpriced shortfall, largest first. */
  readonly unpriced: readonly UnpricedShortfall[];
}

/**
 * Reads the top risks and the unpriced shortfalls of a rendered license-position document in
 * one pass over its positions (empty for any other report).
 *
 * @example
 * ```ts ignore
 * import { collectExposure } from "./risks.ts";
 * const { risks, unpriced } = await collectExposure("license-position", document);
 * ```
 */
export async function collectExposure(report: string, doc: RenderDocument): Promise<Exposure> {
  const section = report === RISK_SOURCE.report
    ? doc.sections.find((s) => s.id === RISK_SOURCE.section)
    : undefined;
  if (!section) return { risks: {}, unpriced: [] };
  const rows: Record<string, unknown>[] = [];
  const unpriced: Record<string, unknown>[] = [];
  let kept: RisksByCurrency = {};
  for await (const row of section.rows()) {
    if (typeof row.shortfallCost === "number" && row.shortfallCost > 0) rows.push(row);
    if (isUnpriced(row)) unpriced.push(row);
    if (rows.length >= 1024) kept = merge(kept, rows.splice(0));
  }
  return { risks: merge(kept, rows), unpriced: unpricedShortfalls(unpriced) };
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
  return (await collectExposure(report, doc)).risks;
}

function merge(kept: RisksByCurrency, rows: Record<string, unknown>[]): RisksByCurrency {
  return topRisks([...Object.values(kept).flat() as unknown as Record<string, unknown>[], ...rows]);
}
