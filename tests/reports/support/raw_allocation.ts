/**
 * Test support: the cross-check of an organisation's ELP with the service's compliance
 * allocation, recomputed from the reference server's raw JSON (plain `fetch`, no samkit client,
 * no `lib/query/elp`): per application × metric, the allocation rows of the scope's
 * organisations summed, beside the independent scoped ELP of `raw_elp.ts`.
 *
 * @module
 */

import { type Expected, LICENSES, rawAll, type RawApi, type RawItem } from "./raw_api.ts";
import { rawAppLabel, type RawElp, rawFigures, rawRowKey } from "./raw_elp.ts";

/**
 * The allocation figures compared, as the report names them.
 *
 * @example
 * ```ts ignore
 * console.log(RAW_ALLOCATION_FIGURES.map(([figure]) => figure));
 * ```
 */
export const RAW_ALLOCATION_FIGURES = [
  ["Entitlements", "coverage"],
  ["Requirement", "requirement"],
  ["Position", "compliance"],
] as const;

/** The service's allocation rows of an application (none when it offers none). */
export async function rawAllocation(api: RawApi, app: string): Promise<RawItem[]> {
  try {
    return await rawAll(api, `${LICENSES}/compliance/summary/${app}/allocation`);
  } catch (error) {
    if (/answered (404|403|405|501)/.test((error as Error).message)) return [];
    throw error;
  }
}

/**
 * The differences between a scope's independent ELP and the sum of its organisations'
 * allocation rows, as `Application|Metric|Figure` keys with samkit's and the service's values
 * (samkit null: no line in the scope).
 *
 * @example
 * ```ts ignore
 * const elp = await rawElp(api, { organization: "ORG05" });
 * const differences = await rawAllocationDifferences(api, elp, await rawSubtree(api, "ORG05"));
 * ```
 */
export async function rawAllocationDifferences(
  api: RawApi,
  elp: RawElp,
  orgs: ReadonlySet<string>,
): Promise<Map<string, Record<string, Expected>>> {
  const out = new Map<string, Record<string, Expected>>();
  const apps = new Set([...elp.lines.values()].map((l) => l.applicationId));
  for (const app of apps) {
    const rows = await rawAllocation(api, app);
    if (rows.length === 0) continue;
    const sums = new Map<string, Record<string, number>>();
    for (const r of rows.filter((r) => orgs.has(r.organizationId))) {
      const key = `${r.applicationId}|${r.metricId}`;
      const s = sums.get(key) ?? { coverage: 0, requirement: 0, compliance: 0 };
      for (const [, field] of RAW_ALLOCATION_FIGURES) s[field] += Number(r[field] ?? 0);
      sums.set(key, s);
    }
    for (const [key, line] of elp.lines) {
      if (line.applicationId !== app) continue;
      const f = rawFigures(line);
      const mine = [f.entitlements, line.requirement, f.position];
      const s = sums.get(key);
      RAW_ALLOCATION_FIGURES.forEach(([figure, field], i) => {
        const theirs = s ? s[field] : null;
        if (theirs === null ? mine[i] === 0 : mine[i] === theirs) return;
        out.set(`${rawRowKey(elp, key)}|${figure}`, { samkit: mine[i], service: theirs });
      });
      sums.delete(key);
    }
    for (const [key, s] of sums) {
      const label = `${rawAppLabel(elp.registry, app)}|${key.split("|")[1]}`;
      for (const [figure, field] of RAW_ALLOCATION_FIGURES) {
        if (s[field] !== 0) out.set(`${label}|${figure}`, { samkit: null, service: s[field] });
      }
    }
  }
  return out;
}
