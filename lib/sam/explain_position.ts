/**
 * Why a position is what it is: the lines of one application's effective license position —
 * each license (or, for an organisation scope, each allocation) and transfer that makes its
 * entitlements, each metric-tracking row that makes its requirement with its rule and the
 * service's entitlement state, and how its price was found — taken from the very lines the
 * position was summed from ({@link ElpBasis}), never computed again. The sums of the lines are
 * checked against the position before anything is shown: an explanation that does not add up to
 * its license-position row is an {@link ExplanationMismatchError}, not a report.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import type { ElpBasis, ElpDeviceRequirement, ElpPosition, ElpResult } from "../query/elp/elp.ts";
import { type ElpTransfer, type TransferKind, transferKind } from "../query/elp/position.ts";
import { paidPrices, priceKey } from "../query/elp/pricing.ts";
import { asc, desc, sortBy } from "../query/sort.ts";
import type { CellValue, Row } from "../report/model.ts";
import type { ElpNames, PositionRow } from "./elp_rows.ts";
import { requirementRule } from "./explain_rule.ts";

/** How an explanation names what it shows, beyond {@link ElpNames}. */
export interface ExplainNames extends ElpNames {
  /** A computer by id, when the estate has it. */
  readonly computer: (id: string | null | undefined) => Resource<"Computer"> | undefined;
  /** An organisation's label. */
  readonly organization: (id: string | null | undefined) => string;
}

/** What {@link explainApplication} returns: one list per section. */
export interface PositionExplanation {
  /** The application's license-position rows, one per metric. */
  readonly positions: readonly PositionRow[];
  /** Each license (or allocation) and transfer that makes the entitlements. */
  readonly entitlements: readonly Row[];
  /** Each device requirement (the license-position's devices of the application). */
  readonly installs: readonly Row[];
  /** Metric-tracking rows and installs that count nothing, with why. */
  readonly notCounted: readonly Row[];
  /** The licenses or list price the unit price comes from. */
  readonly price: readonly Row[];
  /** How each position adds up from those lines. */
  readonly sums: readonly Row[];
}

/**
 * An explanation whose lines do not add up to the position they explain (a fault of samkit,
 * never of the data): names the application, metric, figure and both values.
 *
 * @example
 * ```ts
 * import { ExplanationMismatchError } from "./explain_position.ts";
 * console.log(new ExplanationMismatchError("APP1", "Users", "requirement", 4, 5).message);
 * // "explain APP1 Users: the lines add up to requirement 4, the position has 5"
 * ```
 */
export class ExplanationMismatchError extends Error {
  /**
   * Builds the error from the position and the figure that differs.
   *
   * @param application The application's label.
   * @param metric The metric's name.
   * @param figure The figure (`purchased`, `requirement` …).
   * @param lines What the lines add up to.
   * @param position What the position says.
   */
  constructor(
    application: string,
    metric: string,
    figure: string,
    lines: number,
    position: number,
  ) {
    super(
      `explain ${application} ${metric}: the lines add up to ${figure} ${lines}, ` +
        `the position has ${position}`,
    );
    this.name = "ExplanationMismatchError";
  }
}

/** Rounds away float noise, as the position does. */
const clean = (n: number) => Number(n.toPrecision(12));
const finite = (n: number | null | undefined) =>
  typeof n === "number" && Number.isFinite(n) ? n : 0;
const pairKey = (app: string | null | undefined, metric: string | null | undefined) =>
  `${app}\u0000${metric}`;

const KIND_WORDS: Record<TransferKind, string> = {
  downgrade: "downgrade",
  upgrade: "upgrade",
  crossEdition: "cross-edition",
  crossPlatform: "cross-platform",
  other: "transfer",
};

/** The rows of one position's license lines (licenses, or a scope's allocations). */
function licenseRows(
  basis: ElpBasis,
  position: PositionRow & { metricId: string },
  names: ExplainNames,
): Row[] {
  const rows = basis.licenses
    .filter((l) => l.applicationId === position.applicationId && l.metricId === position.metricId)
    .map((l): Row => {
      const full = l as Partial<Resource<"License">> & { organizationId?: string | null };
      const allocation = full.id === undefined;
      return {
        application: position.application,
        metric: position.metric,
        line: allocation ? "Allocated to the organisation" : "License",
        id: full.id ?? null,
        license: full.id ?? null,
        kind: allocation ? "allocation" : full.isSubscription ? "subscription" : "purchase",
        from: null,
        to: position.application,
        holder: null,
        organization: names.organization(full.organizationId),
        validFrom: (full.subscriptionValidFrom ?? full.purchaseDate ?? null) as CellValue,
        validTo: (full.subscriptionValidTo ?? null) as CellValue,
        units: finite(l.quantity),
      };
    });
  return sortBy(rows, asc((r) => String(r.organization)), asc((r) => String(r.id ?? "")));
}

/** The holder of a transfer (a computer's host name, else its id, or a user id). */
function holderOf(t: ElpTransfer, names: ExplainNames): string | null {
  const x = t as ElpTransfer & { computerId?: string | null; userId?: string | null };
  if (x.computerId) return names.computer(x.computerId)?.hostName ?? x.computerId;
  return x.userId ? `user ${x.userId}` : null;
}

/** The rows of the transfers into (received) and out of (given) one position. */
function transferRows(
  basis: ElpBasis,
  position: PositionRow & { metricId: string },
  names: ExplainNames,
): Row[] {
  const rows: Row[] = [];
  for (const t of basis.transfers) {
    if (t.metricId !== position.metricId) continue;
    const x = t as ElpTransfer & { id?: string | null; organizationId?: string | null };
    const into = t.toApplicationId === position.applicationId;
    const out = t.fromApplicationId === position.applicationId;
    if (!into && !out) continue;
    const row = (sign: 1 | -1): Row => ({
      application: position.application,
      metric: position.metric,
      line: sign > 0 ? "Received by transfer" : "Given by transfer",
      id: x.id ?? null,
      license: t.licenseId ?? null,
      kind: KIND_WORDS[transferKind(t)],
      from: t.fromApplicationId ? names.label(t.fromApplicationId) : null,
      to: t.toApplicationId ? names.label(t.toApplicationId) : null,
      holder: holderOf(t, names),
      organization: names.organization(x.organizationId),
      validFrom: null,
      validTo: null,
      units: sign * finite(t.quantity),
    });
    if (into) rows.push(row(1));
    if (out) rows.push(row(-1));
  }
  return sortBy(rows, asc("line"), asc((r) => String(r.id ?? "")));
}

/** The state names of the installs, by computer × application × metric. */
function installStates(basis: ElpBasis): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of basis.installs) {
    const name = basis.stateNames.get(i.entitlementStateId ?? "") ?? i.entitlementStateId;
    if (name) out.set(`${i.computerId}\u0000${pairKey(i.applicationId, i.metricId)}`, name);
  }
  return out;
}

/** One metric-tracking row as an explanation row: computer, rule, state and cover. */
function trackingRow(
  row: Resource<"MetricTracking">,
  context: {
    readonly elp: ElpResult;
    readonly names: ExplainNames;
    readonly metric: string;
    readonly states: ReadonlyMap<string, string>;
    readonly licenseIds?: readonly string[];
  },
): Row {
  const { names, elp } = context;
  const computer = names.computer(row.computerId);
  const host = computer?.hostComputerId
    ? names.computer(computer.hostComputerId)?.hostName ?? computer.hostComputerId
    : null;
  return {
    computer: computer?.hostName ?? row.computerId,
    computerId: row.computerId,
    organization: names.organization(computer?.organizationId),
    host,
    application: names.label(row.applicationId ?? ""),
    metric: context.metric,
    counted: row.initialRequirement,
    coreFactor: row.coreFactor,
    minimum: row.minimumRequirement,
    requirement: row.requirement,
    rule: requirementRule(row, {
      metric: context.metric,
      host,
      withoutHardware: elp.withoutHardware.has(row.computerId ?? ""),
    }),
    state:
      context.states.get(`${row.computerId}\u0000${pairKey(row.applicationId, row.metricId)}`) ??
        (finite(row.physicalHost) > 0
          ? "(host row: no install of its own)"
          : "(no state reported)"),
    coveredBy: context.licenseIds?.join(", ") || null,
  };
}

/** The device requirements of one position, in the license-position's order. */
function installRows(
  devices: readonly ElpDeviceRequirement[],
  context: Omit<Parameters<typeof trackingRow>[1], "licenseIds">,
): Row[] {
  const rows = devices.map((d) => trackingRow(d.row, { ...context, licenseIds: d.licenseIds }));
  return sortBy(rows, desc("requirement"), asc((r) => String(r.computer ?? "")));
}

/** Tracking rows of the position that count nothing, and installs with no tracking row. */
function notCountedRows(
  basis: ElpBasis,
  position: PositionRow & { metricId: string },
  context: Omit<Parameters<typeof trackingRow>[1], "licenseIds">,
): Row[] {
  const mine = (r: { applicationId: string | null; metricId: string | null }) =>
    r.applicationId === position.applicationId && r.metricId === position.metricId;
  const tracked = new Set<string>();
  const rows: Row[] = [];
  for (const r of basis.requirements) {
    if (!mine(r)) continue;
    tracked.add(r.computerId ?? "");
    if (finite(r.requirement) > 0 || finite(r.requirementMoved) > 0) continue;
    rows.push(trackingRow(r, context));
  }
  for (const i of basis.installs) {
    if (!mine(i) || tracked.has(i.computerId ?? "")) continue;
    const computer = context.names.computer(i.computerId);
    rows.push({
      computer: computer?.hostName ?? i.computerId,
      computerId: i.computerId,
      organization: context.names.organization(computer?.organizationId),
      host: null,
      application: position.application,
      metric: position.metric,
      counted: null,
      coreFactor: null,
      minimum: null,
      requirement: 0,
      rule: "No metric-tracking row: the service counts no requirement for it → 0",
      state: basis.stateNames.get(i.entitlementStateId ?? "") ?? i.entitlementStateId,
      coveredBy: null,
    });
  }
  return sortBy(rows, asc((r) => String(r.rule)), asc((r) => String(r.computer ?? "")));
}

/** The lines the unit price comes from: licenses paid in its currency, or the one list price. */
function priceRows(basis: ElpBasis, position: PositionRow & { metricId: string }): Row[] {
  if (position.unitPrice === null || position.currency === null) return [];
  const key = priceKey(position.applicationId, position.metricId);
  const base = {
    application: position.application,
    metric: position.metric,
    source: position.priceSource,
  };
  if (position.priceSource !== "Average price paid") {
    return [{
      ...base,
      license: null,
      units: 1,
      amount: position.unitPrice,
      currency: position.currency,
    }];
  }
  const rows: Row[] = [];
  for (const l of basis.pricedLicenses) {
    // A license counts toward the average exactly when the price's own tally counts it.
    const line = paidPrices([l]).get(key)?.get(position.currency);
    if (!line) continue;
    rows.push({
      ...base,
      license: l.id,
      units: line.units,
      amount: line.cents / 100,
      currency: position.currency,
    });
  }
  return sortBy(rows, asc((r) => String(r.license ?? "")));
}

/** Sums a numeric column of rows, as the position rounds. */
const total = (rows: readonly Row[], key: string, keep: (r: Row) => boolean = () => true) =>
  clean(rows.filter(keep).reduce((n, r) => n + finite(r[key] as number), 0));

/** Throws when a figure the lines add up to is not the position's. */
function check(position: PositionRow, figure: string, lines: number, value: number): void {
  if (Math.abs(lines - value) > 1e-9) {
    throw new ExplanationMismatchError(position.application, position.metric, figure, lines, value);
  }
}

/** How one position adds up from its lines, each step checked against the position. */
function sumRows(
  position: PositionRow,
  lines: { entitlements: readonly Row[]; installs: readonly Row[]; price: readonly Row[] },
): Row[] {
  const licenses = (r: Row) => r.line === "License" || r.line === "Allocated to the organisation";
  const purchased = total(lines.entitlements, "units", licenses);
  const received = total(lines.entitlements, "units", (r) => r.line === "Received by transfer");
  const given = 0 - total(lines.entitlements, "units", (r) => r.line === "Given by transfer");
  const requirement = total(lines.installs, "requirement");
  const entitlements = clean(purchased + received - given);
  const net = clean(entitlements - requirement);
  check(position, "purchased", purchased, position.purchased);
  check(position, "received", received, position.received);
  check(position, "given", given, position.given);
  check(position, "entitlements", entitlements, position.entitlements);
  check(position, "requirement", requirement, position.requirement);
  check(position, "position", net, position.position);
  const count = (keep: (r: Row) => boolean) => lines.entitlements.filter(keep).length;
  const step = (
    figure: string,
    units: number | null,
    how: string,
    amount: number | null = null,
  ) => ({
    application: position.application,
    metric: position.metric,
    figure,
    units,
    amount,
    currency: amount === null ? null : position.currency,
    how,
  });
  const rows: Row[] = [
    step("Purchased", purchased, `Σ of ${count(licenses)} license lines`),
    step(
      "Received",
      received,
      `Σ of ${count((r) => r.line === "Received by transfer")} transfers in`,
    ),
    step("Given", given, `Σ of ${count((r) => r.line === "Given by transfer")} transfers out`),
    step("Entitlements", entitlements, "purchased + received − given"),
    step("Requirement", requirement, `Σ of ${lines.installs.length} device requirements`),
    step("Position", net, "entitlements − requirement"),
    ...priceSteps(position, lines.price),
  ];
  return rows;
}

/** The unit price, and the shortfall cost or surplus value, as the position prints them. */
function priceSteps(position: PositionRow, price: readonly Row[]): Row[] {
  const base = {
    application: position.application,
    metric: position.metric,
    currency: position.currency,
  };
  if (position.unitPrice === null) {
    return position.shortfall > 0
      ? [{
        ...base,
        figure: "Unit price",
        units: null,
        amount: null,
        how: "Unpriced: no price paid, list price or price-file entry",
      }]
      : [];
  }
  const paid = position.priceSource === "Average price paid";
  const units = total(price, "units");
  const cents = Math.round(total(price, "amount") * 100);
  if (paid) {
    const unitCents = Math.round(cents / units);
    check(position, "unit price (cents)", unitCents, Math.round(position.unitPrice * 100));
  }
  const rows: Row[] = [{
    ...base,
    figure: "Unit price",
    units: null,
    amount: position.unitPrice,
    how: paid
      ? `${position.priceSource}: Σ purchase value ${
        (cents / 100).toFixed(2)
      } ÷ Σ ${units} units, to the cent`
      : String(position.priceSource),
  }];
  const cost = (units: number) => Math.round(units * Math.round(position.unitPrice! * 100)) / 100;
  if (position.shortfall > 0) {
    check(position, "shortfall cost", cost(position.shortfall), position.shortfallCost ?? NaN);
    rows.push({
      ...base,
      figure: "Shortfall cost",
      units: position.shortfall,
      amount: position.shortfallCost,
      how: "unit price × shortfall",
    });
  }
  const surplus = position.position > 0 ? position.position : 0;
  if (surplus > 0 && position.surplusValue !== null) {
    check(position, "surplus value", cost(surplus), position.surplusValue);
    rows.push({
      ...base,
      figure: "Surplus value",
      units: surplus,
      amount: position.surplusValue,
      how: "unit price × surplus",
    });
  }
  return rows;
}

/**
 * The explanation of every position (one per metric) of each application of `applicationIds`,
 * in that order, from the lines of `elp`; `rows` are `elp`'s license-position rows
 * (`positionRows`), so each explained figure is the one license-position prints. Throws
 * {@link ExplanationMismatchError} when the lines do not add up to their row.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { positionRows, reportElp } from "./elp_rows.ts";
 * import { explainApplications } from "./explain_position.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const rows = positionRows(elp, names);
 *   const short = rows.find((r) => r.shortfall > 0)!;
 *   const more = { computer: () => undefined, organization: (id?: string | null) => id ?? "" };
 *   const why = explainApplications(elp, { ...names, ...more }, rows, [short.applicationId]);
 *   console.log(why.sums.find((s) => s.figure === "Position")?.units === short.position); // true
 * });
 * ```
 */
export function explainApplications(
  elp: ElpResult,
  names: ExplainNames,
  rows: readonly PositionRow[],
  applicationIds: readonly string[],
): PositionExplanation {
  const states = installStates(elp.basis);
  const out = {
    positions: [] as PositionRow[],
    entitlements: [] as Row[],
    installs: [] as Row[],
    notCounted: [] as Row[],
    price: [] as Row[],
    sums: [] as Row[],
  };
  const rowOf = new Map(rows.map((r) => [pairKey(r.applicationId, r.metric), r]));
  const order = new Map(applicationIds.map((id, at) => [id, at]));
  const positions = elp.positions.filter((p) => order.has(p.applicationId))
    .sort((a, b) => order.get(a.applicationId)! - order.get(b.applicationId)!);
  for (const p of positions) {
    const applicationId = p.applicationId;
    const row = rowOf.get(pairKey(applicationId, metricLabel(p)));
    if (!row) continue;
    const position = { ...row, metricId: p.metricId };
    const context = { elp, names, metric: row.metric, states };
    const devices = elp.devices.filter((d) =>
      d.row.applicationId === applicationId && d.row.metricId === p.metricId
    );
    const entitlements = [
      ...licenseRows(elp.basis, position, names),
      ...transferRows(elp.basis, position, names),
    ];
    const installs = installRows(devices, context);
    const price = priceRows(elp.basis, position);
    out.positions.push(row);
    out.entitlements.push(...entitlements);
    out.installs.push(...installs);
    out.notCounted.push(...notCountedRows(elp.basis, position, context));
    out.price.push(...price);
    out.sums.push(...sumRows(row, { entitlements, installs, price }));
  }
  return out;
}

/** A position's metric as license-position labels it (marked when only its id is known). */
function metricLabel(p: ElpPosition): string {
  return p.metricNameSource === "id" ? `${p.metricName} (no name known)` : p.metricName;
}

/**
 * Every application of computer `computerId`: each metric-tracking row with its rule, the
 * service's entitlement state and the licenses covering it, each install with no tracking row,
 * and the position of its application × metric (status and shortfall) from `rows`.
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { positionRows, reportElp } from "./elp_rows.ts";
 * import { explainComputer } from "./explain_position.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { elp, names } = await reportElp(ctx);
 *   const [device] = elp.devices;
 *   const more = { computer: () => undefined, organization: (id?: string | null) => id ?? "" };
 *   const rows = explainComputer(elp, { ...names, ...more }, positionRows(elp, names), device.row.computerId!);
 *   console.log(rows.length > 0); // true
 * });
 * ```
 */
export function explainComputer(
  elp: ElpResult,
  names: ExplainNames,
  rows: readonly PositionRow[],
  computerId: string,
): Row[] {
  const states = installStates(elp.basis);
  const covered = new Map(
    elp.devices.filter((d) => d.row.computerId === computerId).map((d) => [
      pairKey(d.row.applicationId, d.row.metricId),
      d.licenseIds,
    ]),
  );
  const metricName = new Map(
    elp.positions.map((p) => [pairKey(p.applicationId, p.metricId), metricLabel(p)]),
  );
  const positionOf = new Map(rows.map((r) => [pairKey(r.applicationId, r.metric), r]));
  const out: Row[] = [];
  const tracked = new Set<string>();
  for (const r of elp.basis.requirements) {
    if (r.computerId !== computerId) continue;
    const key = pairKey(r.applicationId, r.metricId);
    tracked.add(key);
    const metric = metricName.get(key) ?? r.metricId ?? "";
    const row = trackingRow(r, { elp, names, metric, states, licenseIds: covered.get(key) });
    out.push(withPosition(row, positionOf.get(pairKey(r.applicationId, metric))));
  }
  for (const i of elp.basis.installs) {
    const key = pairKey(i.applicationId, i.metricId);
    if (i.computerId !== computerId || tracked.has(key)) continue;
    const metric = metricName.get(key) ?? i.metricId ?? "";
    out.push(withPosition({
      application: names.label(i.applicationId ?? ""),
      metric,
      counted: null,
      coreFactor: null,
      minimum: null,
      requirement: 0,
      rule: "No metric-tracking row: the service counts no requirement for it → 0",
      state: elp.basis.stateNames.get(i.entitlementStateId ?? "") ?? i.entitlementStateId,
      coveredBy: null,
    }, positionOf.get(pairKey(i.applicationId, metric))));
  }
  return sortBy(out, asc((r) => String(r.application)), asc((r) => String(r.metric)));
}

function withPosition(row: Row, position: PositionRow | undefined): Row {
  return {
    ...row,
    positionStatus: position?.status ?? null,
    positionShortfall: position?.shortfall ?? null,
    position: position?.position ?? null,
  };
}
