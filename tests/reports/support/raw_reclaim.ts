/**
 * Test support: what harvesting idle installs gives back, computed independently of samkit from
 * the reference server's raw JSON (the independent ELP of `raw_elp.ts` and plain `fetch`), by
 * the rules a SAM analyst applies: per application × metric, the idle installs (unused for the
 * top threshold or more, or of unknown age) count what their metric-tracking rows require; a
 * short position takes them first; the units beyond the shortfall are reclaimable, valued at the
 * unit price paid (most units' currency, rounded to the cent) else the registry's list price.
 *
 * @module
 */

import { ESTATE, type Expected, rawAll, type RawApi, wholeDays } from "./raw_api.ts";
import { rawAppLabel, rawElp } from "./raw_elp.ts";

/** Metric names where the registry gives none (the reference server's ids). */
const METRIC_NAMES: Record<string, string> = {
  MET01: "Installations",
  MET02: "Processor cores",
  MET03: "Processors",
  MET04: "Users",
  MET05: "Devices",
};

/** One expected reclaim row, keyed `application|metric`. */
export interface RawReclaim {
  readonly application: string;
  readonly metric: string;
  installs: number;
  units: number;
  entitlements: number;
  requirement: number;
  shortfallFirst: number;
  reclaimable: Expected;
  currency: Expected;
  unitPrice: Expected;
  reclaimValue: Expected;
  note: Expected;
}

/**
 * The expected reclaim rows of the estate behind `api` at `now` with top threshold `top`.
 *
 * @example
 * ```ts ignore
 * const rows = await rawReclaim(api, TEST_NOW, 180);
 * console.log(rows.get("Oracle WebLogic Server 14c 14.1.1|Processor cores"));
 * ```
 */
export async function rawReclaim(
  api: RawApi,
  now: Date,
  top: number,
): Promise<Map<string, RawReclaim>> {
  const [elp, installs] = await Promise.all([
    rawElp(api),
    rawAll(api, `${ESTATE}/computers-applications`),
  ]);
  const candidates = new Set<string>();
  for (const i of installs) {
    if (i.isInstalled !== true) continue;
    const since = i.lastUsed ?? i.firstDiscovered ?? null;
    if (since === null || wholeDays(since, now) >= top) {
      candidates.add(`${i.computerId}|${i.applicationId}`);
    }
  }
  const idle = new Map<string, { installs: number; units: number }>();
  for (const r of elp.tracking) {
    if (!candidates.has(`${r.computerId}|${r.applicationId}`)) continue;
    const key = `${r.applicationId}|${r.metricId}`;
    const t = idle.get(key) ?? { installs: 0, units: 0 };
    t.installs++;
    t.units += Math.max(0, Number(r.requirement ?? 0));
    idle.set(key, t);
  }
  const out = new Map<string, RawReclaim>();
  for (const [key, t] of idle) {
    const line = elp.lines.get(key)!;
    const received = Object.values(line.received).reduce((a, b) => a + b, 0);
    const entitlements = line.purchased + received - line.given;
    const held = line.purchased + received > 0;
    const shortfall = Math.max(0, line.requirement - entitlements);
    const shortfallFirst = Math.min(t.units, shortfall);
    const reclaimable = t.units - shortfallFirst;
    const price = held ? unitCents(line, elp.metrics.get(key)) : null;
    const application = rawAppLabel(elp.registry, line.applicationId);
    const metric = elp.metrics.get(key)?.name ?? METRIC_NAMES[line.metricId] ?? line.metricId;
    out.set(`${application}|${metric}`, {
      application,
      metric,
      ...t,
      entitlements,
      requirement: line.requirement,
      shortfallFirst,
      reclaimable: held ? reclaimable : null,
      currency: price?.currency ?? null,
      unitPrice: price ? price.cents / 100 : null,
      reclaimValue: price ? Math.round(reclaimable * price.cents) / 100 : null,
      note: !held ? "No license" : price ? null : "Unpriced",
    });
  }
  return out;
}

/** The unit price in whole cents: paid (currency of most units, ties by code), else list. */
function unitCents(
  line: { paid: Map<string, { units: number; cents: number }> },
  metric: Record<string, unknown> | undefined,
): { currency: string; cents: number } | null {
  const [best] = [...line.paid].sort(([a, x], [b, y]) => y.units - x.units || (a < b ? -1 : 1));
  if (best) return { currency: best[0], cents: Math.round(best[1].cents / best[1].units) };
  const list = Number(metric?.licenseCost ?? 0);
  const currency = String(metric?.licenseCostCurrency ?? "").trim();
  return list > 0 && currency ? { currency, cents: Math.round(list * 100) } : null;
}
