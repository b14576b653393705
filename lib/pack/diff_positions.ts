/**
 * Which positions moved between two runs and what moved them: every application × metric
 * whose shortfall or surplus changed, with the device requirements (metric-tracking rows) that
 * appeared, disappeared or changed, and the license lines (licenses, or an organisation scope's
 * allocations) and transfers that did — the very lines each run's position was summed from, so
 * the changes named add up to the change in requirement and entitlements. And the money per
 * currency: shortfall cost and surplus value before and after, never added across currencies.
 *
 * @module
 */

import type { ElpBasis } from "../query/elp/elp.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import type { PositionRow } from "../sam/elp_rows.ts";
import { installKey, shown } from "./diff_compare.ts";
import type { RunState } from "./diff_read.ts";

const clean = (n: number) => Number(n.toPrecision(12));
const finite = (n: number | null | undefined) =>
  typeof n === "number" && Number.isFinite(n) ? n : 0;
const pair = (app: string | null | undefined, metric: string | null | undefined) =>
  `${app}\u0000${metric}`;
const signed = (n: number) => (n > 0 ? `+${shown(n)}` : `${shown(n)}`.replace("-", "−"));

/** A few names, then how many more. */
function some(names: readonly string[], most = 5): string {
  const sorted = [...names].sort();
  const head = sorted.slice(0, most).join(", ");
  return sorted.length > most ? `${head} and ${sorted.length - most} more` : head;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lines of one application × metric in one run: device rows and license lines. */
interface Lines {
  readonly devices: Map<string, { requirement: number; computer: string }>;
  readonly licenses: Map<string, number>;
}

function linesOf(s: RunState, app: string, metric: string): Lines {
  const devices = new Map<string, { requirement: number; computer: string }>();
  for (const r of s.elp.basis.requirements) {
    if (r.applicationId !== app || r.metricId !== metric) continue;
    const computer = s.computers.get(r.computerId)?.hostName ?? r.computerId ?? "";
    devices.set(installKey(r), { requirement: finite(r.requirement), computer });
  }
  const licenses = new Map<string, number>();
  for (const l of s.elp.basis.licenses as ElpBasis["licenses"]) {
    if (l.applicationId !== app || l.metricId !== metric) continue;
    const id = (l as { id?: string | null }).id ??
      `allocation to ${s.organizations.get(l.organizationId ?? "") ?? l.organizationId}`;
    licenses.set(id, (licenses.get(id) ?? 0) + finite(l.quantity));
  }
  return { devices, licenses };
}

/** What moved the requirement: device rows added, removed and changed, in words. */
function requirementMoves(before: Lines, after: Lines): { delta: number; words: string[] } {
  const added: string[] = [], removed: string[] = [], changed: string[] = [];
  let up = 0, down = 0, moved = 0;
  for (const [key, d] of after.devices) {
    const old = before.devices.get(key);
    if (!old) {
      if (d.requirement !== 0) added.push(d.computer);
      up += d.requirement;
    } else if (old.requirement !== d.requirement) {
      changed.push(`${d.computer} ${shown(old.requirement)} → ${shown(d.requirement)}`);
      moved += d.requirement - old.requirement;
    }
  }
  for (const [key, d] of before.devices) {
    if (after.devices.has(key)) continue;
    if (d.requirement !== 0) removed.push(d.computer);
    down += d.requirement;
  }
  const words: string[] = [];
  if (added.length) {
    words.push(`${plural(added.length, "install")} added (${signed(clean(up))}) on ${some(added)}`);
  }
  if (removed.length) {
    words.push(
      `${plural(removed.length, "install")} removed (${signed(clean(-down))}) on ${some(removed)}`,
    );
  }
  if (changed.length) {
    words.push(
      `${plural(changed.length, "device")} changed (${signed(clean(moved))}): ${some(changed, 3)}`,
    );
  }
  return { delta: clean(up - down + moved), words };
}

/** What moved the purchased units: license lines added, removed and changed, in words. */
function licenseMoves(before: Lines, after: Lines): { delta: number; words: string[] } {
  const added: string[] = [], removed: string[] = [], changed: string[] = [];
  let delta = 0;
  for (const [id, q] of after.licenses) {
    const old = before.licenses.get(id);
    if (old === undefined) added.push(`${id} ${signed(q)}`);
    else if (old !== q) changed.push(`${id} ${shown(old)} → ${shown(q)}`);
    delta += q - (old ?? 0);
  }
  for (const [id, q] of before.licenses) {
    if (after.licenses.has(id)) continue;
    removed.push(`${id} ${signed(-q)}`);
    delta -= q;
  }
  const words: string[] = [];
  if (added.length) words.push(`${plural(added.length, "license")} added: ${some(added)}`);
  if (removed.length) words.push(`${plural(removed.length, "license")} removed: ${some(removed)}`);
  if (changed.length) words.push(`${plural(changed.length, "license")} changed: ${some(changed)}`);
  return { delta: clean(delta), words };
}

/** The state of a position in words: "short 18", "surplus 4", "balanced". */
function stateOf(p: PositionRow | undefined): string {
  if (!p) return "no position";
  if (p.shortfall > 0) return `short ${shown(p.shortfall)}`;
  return p.position > 0 ? `surplus ${shown(p.position)}` : "balanced";
}

/** Why a position moved, in one line (see the module doc). */
function movedBy(
  a: PositionRow | undefined,
  b: PositionRow | undefined,
  lines: { before: Lines; after: Lines },
): string {
  const req = requirementMoves(lines.before, lines.after);
  const lic = licenseMoves(lines.before, lines.after);
  const parts: string[] = [];
  const dReq = clean((b?.requirement ?? 0) - (a?.requirement ?? 0));
  if (dReq !== 0 || req.words.length) {
    parts.push(
      `requirement ${signed(dReq)}${req.words.length ? ` (${req.words.join("; ")})` : ""}`,
    );
  }
  const dPurchased = clean((b?.purchased ?? 0) - (a?.purchased ?? 0));
  if (dPurchased !== 0 || lic.words.length) {
    parts.push(
      `purchased ${signed(dPurchased)}${lic.words.length ? ` (${lic.words.join("; ")})` : ""}`,
    );
  }
  const dReceived = clean((b?.received ?? 0) - (a?.received ?? 0));
  if (dReceived !== 0) {
    parts.push(`received by transfer ${shown(a?.received ?? 0)} → ${shown(b?.received ?? 0)}`);
  }
  const dGiven = clean((b?.given ?? 0) - (a?.given ?? 0));
  if (dGiven !== 0) {
    parts.push(`given by transfer ${shown(a?.given ?? 0)} → ${shown(b?.given ?? 0)}`);
  }
  return `${stateOf(a)} → ${stateOf(b)}: ${parts.join("; ") || "no line changed"}`;
}

const surplusOf = (p: PositionRow | undefined) => (p && p.position > 0 ? p.position : 0);

/**
 * Every position whose shortfall or surplus changed between runs `a` and `b`, largest change in
 * shortfall first, each with what moved it ("short 18 → short 25: requirement +9 (9 installs
 * added on …); purchased +2 (1 license added: LIC… +2)").
 *
 * @example
 * ```ts ignore
 * const rows = positionChanges(before, after);
 * ```
 */
export function positionChanges(a: RunState, b: RunState): Row[] {
  const key = (p: { applicationId: string; metric: string }) => pair(p.applicationId, p.metric);
  const before = new Map(a.positions.map((p) => [key(p), p]));
  const after = new Map(b.positions.map((p) => [key(p), p]));
  const metricIds = new Map<string, string>();
  for (const s of [a, b]) {
    for (const p of s.elp.positions) {
      const label = p.metricNameSource === "id" ? `${p.metricName} (no name known)` : p.metricName;
      metricIds.set(pair(p.applicationId, label), p.metricId);
    }
  }
  const rows: Row[] = [];
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(k), y = after.get(k);
    if ((x?.shortfall ?? 0) === (y?.shortfall ?? 0) && surplusOf(x) === surplusOf(y)) continue;
    const [app] = k.split("\u0000");
    const metricId = metricIds.get(k)!;
    const lines = { before: linesOf(a, app, metricId), after: linesOf(b, app, metricId) };
    const p = (y ?? x)!;
    rows.push({
      application: p.application,
      metric: p.metric,
      shortfallBefore: x?.shortfall ?? 0,
      shortfallAfter: y?.shortfall ?? 0,
      shortfallChange: clean((y?.shortfall ?? 0) - (x?.shortfall ?? 0)),
      surplusBefore: surplusOf(x),
      surplusAfter: surplusOf(y),
      requirementBefore: x?.requirement ?? 0,
      requirementAfter: y?.requirement ?? 0,
      entitlementsBefore: x?.entitlements ?? 0,
      entitlementsAfter: y?.entitlements ?? 0,
      shortfallCostBefore: x?.shortfallCost ?? null,
      shortfallCostAfter: y?.shortfallCost ?? null,
      currency: y?.currency ?? x?.currency ?? null,
      movedBy: `${p.application} (${p.metric}): ${movedBy(x, y, lines)}`,
    });
  }
  return sortBy(
    rows,
    desc((r) => Math.abs(r.shortfallChange as number)),
    asc((r) => String(r.application)),
    asc((r) => String(r.metric)),
  );
}

/** Σ cents of a money field of positions, per currency. */
function perCurrency(rows: readonly PositionRow[], field: "shortfallCost" | "surplusValue") {
  const out = new Map<string, number>();
  for (const r of rows) {
    const v = r[field];
    if (v === null || !r.currency) continue;
    out.set(r.currency, (out.get(r.currency) ?? 0) + Math.round(v * 100));
  }
  return out;
}

/**
 * Money per currency in each run — shortfall cost and surplus value of all positions — and the
 * change, one row per currency (never added across currencies), and the purchase value of the
 * licenses added and removed.
 *
 * @example
 * ```ts ignore
 * const rows = moneyChanges(before, after, licenseChanges(before, after));
 * ```
 */
export function moneyChanges(a: RunState, b: RunState): Row[] {
  const costA = perCurrency(a.positions, "shortfallCost");
  const costB = perCurrency(b.positions, "shortfallCost");
  const valueA = perCurrency(a.positions, "surplusValue");
  const valueB = perCurrency(b.positions, "surplusValue");
  const bought = (from: RunState, other: RunState) => {
    const ids = new Set(other.elp.basis.pricedLicenses.map((l) => l.id));
    const out = new Map<string, number>();
    for (const l of from.elp.basis.pricedLicenses) {
      if (ids.has(l.id) || typeof l.purchaseValue !== "number" || !l.purchaseCurrency) continue;
      out.set(
        l.purchaseCurrency,
        (out.get(l.purchaseCurrency) ?? 0) + Math.round(l.purchaseValue * 100),
      );
    }
    return out;
  };
  const added = bought(b, a), removed = bought(a, b);
  const currencies = [
    ...new Set([
      ...costA.keys(),
      ...costB.keys(),
      ...valueA.keys(),
      ...valueB.keys(),
      ...added.keys(),
      ...removed.keys(),
    ]),
  ].sort();
  const money = (m: Map<string, number>, c: string) => (m.get(c) ?? 0) / 100;
  return currencies.map((currency) => ({
    currency,
    shortfallCostBefore: money(costA, currency),
    shortfallCostAfter: money(costB, currency),
    shortfallCostChange: ((costB.get(currency) ?? 0) - (costA.get(currency) ?? 0)) / 100,
    surplusValueBefore: money(valueA, currency),
    surplusValueAfter: money(valueB, currency),
    licensesAdded: money(added, currency),
    licensesRemoved: money(removed, currency),
  }));
}
