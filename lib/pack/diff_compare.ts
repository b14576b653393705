/**
 * What changed between two runs, item by item: computers added, removed and changed (status,
 * organisation, host, and the hardware that changes a requirement: the units a metric-tracking
 * row counts), installs that appeared, disappeared or changed (the service's entitlement state,
 * the requirement of its metric-tracking row), and licenses added, removed and changed
 * (quantity, cost, validity). Every item is named by its id and its name.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import { organizationLabel } from "../query/names.ts";
import { asc, sortBy } from "../query/sort.ts";
import type { Row } from "../report/model.ts";
import type { RunState } from "./diff_read.ts";

type Tracking = Resource<"MetricTracking">;

/**
 * A cell as text: dates as days, numbers without float noise, nothing as null.
 *
 * @example
 * ```ts
 * import { shown } from "./diff_compare.ts";
 * console.log(shown(0.1 + 0.2), shown(new Date("2026-11-23T06:00:00Z")), shown("")); // "0.3" "2026-11-23" null
 * ```
 */
export function shown(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "number") return String(Number(value.toPrecision(12)));
  return String(value);
}

const same = (a: unknown, b: unknown) => shown(a) === shown(b);

/**
 * The key of an install or a metric-tracking row: computer × application × metric.
 *
 * @example
 * ```ts
 * import { installKey } from "./diff_compare.ts";
 * const key = installKey({ computerId: "C1", applicationId: "A", metricId: "MET01" });
 * console.log(key === "C1\u0000A\u0000MET01"); // true
 * ```
 */
export function installKey(
  r: { computerId: string | null; applicationId: string | null; metricId: string | null },
): string {
  return `${r.computerId}\u0000${r.applicationId}\u0000${r.metricId}`;
}

/** The metric name of an application × metric in either run. */
function metricOf(a: RunState, b: RunState, app: string | null, metric: string | null): string {
  const find = (s: RunState) =>
    s.elp.positions.find((p) => p.applicationId === app && p.metricId === metric)?.metricName;
  return find(b) ?? find(a) ?? metric ?? "";
}

const COMPUTER_FIELDS = [
  ["hostName", "Name"],
  ["status", "Status"],
  ["organizationId", "Organisation"],
  ["hostComputerId", "Host"],
  ["isVirtual", "Virtual"],
  ["isServer", "Server"],
  ["processorCount", "Processors"],
  ["coreCount", "Cores"],
] as const;

function computerName(a: RunState, b: RunState, id: string | null): string {
  return b.computers.get(id)?.hostName ?? a.computers.get(id)?.hostName ?? id ?? "";
}

function fieldValue(s: RunState, c: Resource<"Computer">, field: string): string | null {
  const v = (c as Record<string, unknown>)[field];
  if (field === "organizationId") return v ? organizationLabel(s.organizations, v as string) : null;
  if (field === "hostComputerId") {
    return v ? s.computers.get(v as string)?.hostName ?? String(v) : null;
  }
  return shown(v);
}

/** A computer present in one run only, summarised. */
function presence(s: RunState, c: Resource<"Computer">): string {
  return [
    c.status,
    c.organizationId ? organizationLabel(s.organizations, c.organizationId) : null,
    c.isVirtual ? "virtual" : null,
    c.isServer ? "server" : null,
  ].filter(Boolean).join(", ");
}

/** The metric-tracking rows of a run by computer × application × metric. */
function trackingByKey(s: RunState): Map<string, Tracking> {
  return new Map(s.elp.basis.requirements.map((r) => [installKey(r), r]));
}

/**
 * Computers added, removed and changed between runs `a` and `b`, one row per change: a changed
 * computer has one row per field that changed, and one per metric-tracking row whose counted
 * units (cores, processors…) changed — the hardware that changes a requirement.
 *
 * @example
 * ```ts ignore
 * const rows = computerChanges(before, after);
 * ```
 */
export function computerChanges(a: RunState, b: RunState): Row[] {
  const rows: Row[] = [];
  const row = (id: string | null, change: string, what: string, before: unknown, after: unknown) =>
    rows.push({
      computer: computerName(a, b, id),
      computerId: id,
      change,
      what,
      before: shown(before),
      after: shown(after),
    });
  for (const [id, c] of b.computers) {
    const old = a.computers.get(id);
    if (!old) {
      row(id, "added", "computer", null, presence(b, c));
      continue;
    }
    for (const [field, label] of COMPUTER_FIELDS) {
      const before = fieldValue(a, old, field), after = fieldValue(b, c, field);
      if (before !== after) row(id, "changed", label, before, after);
    }
  }
  for (const [id, c] of a.computers) {
    if (!b.computers.has(id)) row(id, "removed", "computer", presence(a, c), null);
  }
  const before = trackingByKey(a);
  for (const r of b.elp.basis.requirements) {
    const old = before.get(installKey(r));
    if (!old || same(old.initialRequirement, r.initialRequirement)) continue;
    row(
      r.computerId,
      "hardware",
      `Counted for ${b.names.label(r.applicationId ?? "")} (${
        metricOf(a, b, r.applicationId, r.metricId)
      }), requirement ${shown(old.requirement)} → ${shown(r.requirement)}`,
      old.initialRequirement,
      r.initialRequirement,
    );
  }
  return sortBy(rows, asc((r) => String(r.change)), asc((r) => String(r.computer)));
}

/** An install's state name in a run, by key. */
function statesByKey(s: RunState): Map<string, string | null> {
  return new Map(
    s.elp.basis.installs.map((
      i,
    ) => [
      installKey(i),
      s.elp.basis.stateNames.get(i.entitlementStateId ?? "") ?? i.entitlementStateId,
    ]),
  );
}

/**
 * Installs that appeared, disappeared or changed between runs `a` and `b`: an install is a
 * computer × application × metric with an entitlement state or a metric-tracking row; a change
 * is its state or its requirement. Per application, by computer.
 *
 * @example
 * ```ts ignore
 * const rows = installChanges(before, after);
 * ```
 */
export function installChanges(a: RunState, b: RunState): Row[] {
  const stateA = statesByKey(a), stateB = statesByKey(b);
  const rowA = trackingByKey(a), rowB = trackingByKey(b);
  const keys = new Set([...stateA.keys(), ...stateB.keys(), ...rowA.keys(), ...rowB.keys()]);
  const rows: Row[] = [];
  for (const key of keys) {
    const inA = stateA.has(key) || rowA.has(key), inB = stateB.has(key) || rowB.has(key);
    const before = { state: stateA.get(key) ?? null, requirement: rowA.get(key)?.requirement };
    const after = { state: stateB.get(key) ?? null, requirement: rowB.get(key)?.requirement };
    const change = !inA
      ? "appeared"
      : !inB
      ? "disappeared"
      : !same(before.state, after.state)
      ? "state changed"
      : !same(before.requirement, after.requirement)
      ? "requirement changed"
      : null;
    if (!change) continue;
    const [computerId, applicationId, metricId] = key.split("\u0000");
    rows.push({
      application: (inB ? b : a).names.label(applicationId),
      metric: metricOf(a, b, applicationId, metricId),
      computer: computerName(a, b, computerId),
      computerId,
      change,
      stateBefore: inA ? before.state : null,
      stateAfter: inB ? after.state : null,
      requirementBefore: before.requirement ?? null,
      requirementAfter: after.requirement ?? null,
    });
  }
  return sortBy(
    rows,
    asc((r) => String(r.application)),
    asc((r) => String(r.metric)),
    asc((r) => String(r.change)),
    asc((r) => String(r.computer)),
  );
}

const LICENSE_FIELDS = [
  ["quantity", "Quantity"],
  ["purchaseValue", "Purchase value"],
  ["purchaseCurrency", "Currency"],
  ["purchaseDate", "Purchased"],
  ["subscriptionValidFrom", "Valid from"],
  ["subscriptionValidTo", "Valid to"],
  ["organizationId", "Organisation"],
  ["applicationId", "Application"],
  ["metricId", "Metric"],
] as const;

type License = Resource<"License">;

/** A license present in one run only, summarised. */
function licenseSummary(l: License): string {
  const money = typeof l.purchaseValue === "number"
    ? `${l.purchaseCurrency ?? ""} ${l.purchaseValue.toFixed(2)}`.trim()
    : null;
  const valid = l.subscriptionValidTo ? `valid to ${shown(l.subscriptionValidTo)}` : null;
  return [`${shown(l.quantity) ?? "no"} units`, money, valid].filter(Boolean).join(", ");
}

/**
 * Licenses added, removed and changed between runs `a` and `b` (by id), one row per license
 * added or removed and one per field changed; `units` is the change in quantity (added: its
 * quantity, removed: minus it).
 *
 * @example
 * ```ts ignore
 * const rows = licenseChanges(before, after);
 * ```
 */
export function licenseChanges(a: RunState, b: RunState): Row[] {
  const byId = (s: RunState) =>
    new Map(s.elp.basis.pricedLicenses.filter((l) => l.id).map((l) => [l.id!, l]));
  const before = byId(a), after = byId(b);
  const rows: Row[] = [];
  const row = (s: RunState, l: License, change: string, fields: Partial<Row>) =>
    rows.push({
      license: l.id,
      application: s.names.label(l.applicationId ?? ""),
      metric: metricOf(a, b, l.applicationId, l.metricId),
      change,
      what: null,
      before: null,
      after: null,
      units: 0,
      ...fields,
    });
  for (const [id, l] of after) {
    const old = before.get(id);
    if (!old) {
      row(b, l, "added", { after: licenseSummary(l), units: l.quantity ?? 0 });
      continue;
    }
    for (const [field, label] of LICENSE_FIELDS) {
      const x = (old as Record<string, unknown>)[field], y = (l as Record<string, unknown>)[field];
      if (same(x, y)) continue;
      row(b, l, "changed", {
        what: label,
        before: shown(x),
        after: shown(y),
        units: field === "quantity" ? (l.quantity ?? 0) - (old.quantity ?? 0) : 0,
      });
    }
  }
  for (const [id, l] of before) {
    if (!after.has(id)) {
      row(a, l, "removed", { before: licenseSummary(l), units: -(l.quantity ?? 0) });
    }
  }
  return sortBy(rows, asc((r) => String(r.change)), asc((r) => String(r.license)));
}
