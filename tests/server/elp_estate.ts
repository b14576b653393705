/**
 * The effective license position of a generated estate computed from its rows by samkit's ELP
 * rules (v1): per application × metric, purchased (licenses), received and given (computer and
 * user transfers), entitlements, requirement (metric tracking) and position; plus the
 * applications with an uncovered install (entitlement state Unlicensed or Under-licensed). A
 * test helper: the reference server's estate must agree with it.
 *
 * @module
 */

import { STATE } from "../../lib/server/generator_catalogue.ts";

type Row = Record<string, unknown>;

/** The ELP figures of one application and metric. */
export interface ElpLine {
  applicationId: string;
  metricId: string;
  purchased: number;
  received: number;
  given: number;
  entitlements: number;
  requirement: number;
  position: number;
}

const num = (v: unknown): number => typeof v === "number" ? v : Number(v) || 0;

/**
 * ELP lines of an estate, keyed `applicationId|metricId`.
 *
 * @example
 * ```ts
 * import { collectEstate } from "../../lib/server/generator.ts";
 * import { elpLines } from "./elp_estate.ts";
 * const lines = elpLines(collectEstate({ seed: 1, computers: 50 }));
 * console.log(lines.size > 0); // true
 * ```
 */
export function elpLines(estate: Map<string, Row[]>): Map<string, ElpLine> {
  const out = new Map<string, ElpLine>();
  const line = (app: unknown, metric: unknown): ElpLine => {
    const key = `${app}|${metric}`;
    let l = out.get(key);
    if (!l) {
      l = {
        applicationId: String(app),
        metricId: String(metric),
        purchased: 0,
        received: 0,
        given: 0,
        entitlements: 0,
        requirement: 0,
        position: 0,
      };
      out.set(key, l);
    }
    return l;
  };
  for (const r of estate.get("licenses") ?? []) {
    line(r.applicationId, r.metricId).purchased += num(r.quantity);
  }
  for (const table of ["computer_transfers", "user_transfers"]) {
    for (const r of estate.get(table) ?? []) {
      line(r.toApplicationId, r.metricId).received += num(r.quantity);
      line(r.fromApplicationId, r.metricId).given += num(r.quantity);
    }
  }
  for (const r of estate.get("metric_tracking") ?? []) {
    line(r.applicationId, r.metricId).requirement += num(r.requirement);
  }
  for (const l of out.values()) {
    l.entitlements = l.purchased + l.received - l.given;
    l.position = l.entitlements - l.requirement;
  }
  return out;
}

/**
 * `applicationId|metricId` of every install with the Unlicensed or Under-licensed state.
 *
 * @example
 * ```ts
 * import { collectEstate } from "../../lib/server/generator.ts";
 * import { uncoveredInstalls } from "./elp_estate.ts";
 * console.log(uncoveredInstalls(collectEstate({ seed: 1, computers: 50 })).size >= 0); // true
 * ```
 */
export function uncoveredInstalls(estate: Map<string, Row[]>): Set<string> {
  const short = new Set<string>([STATE.unlicensed, STATE.underLicensed]);
  const out = new Set<string>();
  for (const r of estate.get("computer_application_entitlements") ?? []) {
    if (short.has(String(r.entitlementStateId))) out.add(`${r.applicationId}|${r.metricId}`);
  }
  return out;
}
