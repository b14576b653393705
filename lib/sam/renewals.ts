/**
 * Renewals: what ends within a horizon and what renewing it costs a year at current terms.
 *
 * One renewal per license and kind: its subscription (`subscriptionValidTo`), its maintenance
 * and its support (the latest maintenance/support period of the license that carries that
 * cost, by `validTo`). A renewal is due when it ends between the day and the day + the horizon;
 * a period superseded by a later one is not due (it was renewed). A subscription that already
 * ended while installations of its application remain is listed too, flagged as expired in use.
 * The annual cost is the ending term's cost × 12 ÷ its length in whole months (the run rate's
 * rule, `lib/query/run_rate.ts`), in integer cents, in the term's own currency.
 *
 * @module
 */

import { annualCents, type RunRateLicense, termMonths } from "../query/run_rate.ts";
import { fromMinorUnits, toMinorUnits } from "../query/money.ts";

/**
 * What renewals read of a license: what the run rate reads (a subscription's term, its purchase
 * value being the term's cost) and whose it is.
 */
export interface RenewalLicense extends RunRateLicense {
  /** Its application. */
  readonly applicationId?: string | null;
  /** Its organisation. */
  readonly organizationId?: string | null;
}

/** What renewals read of a maintenance and support period. */
export interface RenewalPeriod {
  /** The license it belongs to. */
  readonly licenseId?: string | null;
  /** Period start. */
  readonly validFrom?: Date | null;
  /** Period end. */
  readonly validTo?: Date | null;
  /** Maintenance cost of the period. */
  readonly maintenanceCost?: number | null;
  /** Support cost of the period. */
  readonly supportCost?: number | null;
  /** The period's currency. */
  readonly purchaseCurrency?: string | null;
}

/** The kind of a renewal. */
export type RenewalKind = "Subscription" | "Maintenance" | "Support";

/** One renewal: a license's subscription, maintenance or support ending. */
export interface Renewal {
  /** The license id. */
  readonly licenseId: string;
  /** What renews. */
  readonly kind: RenewalKind;
  /** When the current term ends. */
  readonly endDate: Date;
  /** Whole days from the day to the end (negative: ended that many days ago). */
  readonly daysLeft: number;
  /** The annual cost of renewing at current terms (major units, exact to the cent), or null. */
  readonly annualCost: number | null;
  /** Its currency (null when the data names none). */
  readonly currency: string | null;
  /** The application id. */
  readonly applicationId: string | null;
  /** The organisation id. */
  readonly organizationId: string | null;
  /** A subscription that ended while its application is still installed. */
  readonly expiredInUse: boolean;
}

/** Options of {@link renewalsDue}. */
export interface RenewalsOptions {
  /** The day renewals are counted from. */
  readonly now: Date;
  /** How many days ahead (inclusive). */
  readonly horizonDays: number;
  /** Installations per application id (for expired subscriptions still in use). */
  readonly installs?: ReadonlyMap<string, number>;
}

const DAY = 86_400_000;
const valid = (d: Date | null | undefined): d is Date => d instanceof Date && !isNaN(d.getTime());

/**
 * Whole days from `now` to `end`, rounded down (negative when `end` is past).
 *
 * @example
 * ```ts
 * import { daysLeft } from "./renewals.ts";
 * const now = new Date("2026-01-01T12:00:00Z");
 * console.log(daysLeft(new Date("2026-01-31T12:00:00Z"), now)); // 30
 * console.log(daysLeft(new Date("2025-12-31T12:00:00Z"), now)); // -1
 * ```
 */
export function daysLeft(end: Date, now: Date): number {
  return Math.floor((end.getTime() - now.getTime()) / DAY);
}

/** The yearly cost of a term in major units (null when its cost or term is unknown). */
function perYear(cost: number | null | undefined, from: Date | null | undefined, to: Date) {
  const cents = toMinorUnits(cost);
  if (cents === null || !valid(from) || from > to) return null;
  return fromMinorUnits(annualCents(cents, termMonths(from, to)));
}

function subscriptionOf(license: RenewalLicense, options: RenewalsOptions): Renewal | null {
  const to = license.subscriptionValidTo;
  if (license.isSubscription === false || !valid(to) || !license.id) return null;
  const left = daysLeft(to, options.now);
  const installed = (options.installs?.get(license.applicationId ?? "") ?? 0) > 0;
  if (left > options.horizonDays || (to < options.now && !installed)) return null;
  return {
    licenseId: license.id,
    kind: "Subscription",
    endDate: to,
    daysLeft: left,
    annualCost: perYear(license.purchaseValue, license.subscriptionValidFrom, to),
    currency: license.purchaseCurrency?.trim() || null,
    applicationId: license.applicationId ?? null,
    organizationId: license.organizationId ?? null,
    expiredInUse: to < options.now,
  };
}

/** The latest period of each license that carries a cost of `field` (or any period). */
function latestPeriods(periods: Iterable<RenewalPeriod>, field: "maintenanceCost" | "supportCost") {
  type Dated = RenewalPeriod & { readonly validTo: Date };
  const latest = new Map<string, Dated>();
  for (const p of periods) {
    if (!p.licenseId || !valid(p.validTo)) continue;
    const carries = (toMinorUnits(p[field]) ?? 0) !== 0 ||
      (field === "maintenanceCost" && !toMinorUnits(p.supportCost));
    if (!carries) continue;
    const seen = latest.get(p.licenseId);
    if (!seen || p.validTo > seen.validTo) latest.set(p.licenseId, p as Dated);
  }
  return latest;
}

function periodRenewals(
  periods: readonly RenewalPeriod[],
  licenses: ReadonlyMap<string, RenewalLicense>,
  { now, horizonDays }: RenewalsOptions,
): Renewal[] {
  const out: Renewal[] = [];
  for (
    const [kind, field] of [["Maintenance", "maintenanceCost"], ["Support", "supportCost"]] as const
  ) {
    for (const [id, p] of latestPeriods(periods, field)) {
      const left = daysLeft(p.validTo, now);
      if (p.validTo < now || left > horizonDays) continue;
      const license = licenses.get(id);
      out.push({
        licenseId: id,
        kind,
        endDate: p.validTo,
        daysLeft: left,
        annualCost: perYear(p[field], p.validFrom, p.validTo),
        currency: p.purchaseCurrency?.trim() || license?.purchaseCurrency?.trim() || null,
        applicationId: license?.applicationId ?? null,
        organizationId: license?.organizationId ?? null,
        expiredInUse: false,
      });
    }
  }
  return out;
}

/**
 * The renewals of `licenses` and `periods` due within the horizon, plus subscriptions that
 * ended while their application is still installed; earliest end first, then license and kind.
 * Periods of licenses not in `licenses` are left out (the report's scope is its licenses).
 *
 * @example
 * ```ts
 * import { renewalsDue } from "./renewals.ts";
 * const now = new Date("2026-01-01T00:00:00Z");
 * const rows = renewalsDue({
 *   licenses: [{ id: "L1", applicationId: "A1", isSubscription: true, purchaseValue: 1200,
 *     purchaseCurrency: "EUR", subscriptionValidFrom: new Date("2025-03-01T00:00:00Z"),
 *     subscriptionValidTo: new Date("2026-03-01T00:00:00Z") }],
 *   periods: [{ licenseId: "L1", validFrom: new Date("2025-06-01T00:00:00Z"),
 *     validTo: new Date("2026-06-01T00:00:00Z"), maintenanceCost: 0.1, supportCost: 0.2,
 *     purchaseCurrency: "EUR" }],
 * }, { now, horizonDays: 365 });
 * console.log(rows.map((r) => `${r.kind} ${r.daysLeft} ${r.annualCost}`));
 * // ["Subscription 59 1200", "Maintenance 151 0.1", "Support 151 0.2"]
 * ```
 */
export function renewalsDue(
  input: {
    readonly licenses: readonly RenewalLicense[];
    readonly periods: readonly RenewalPeriod[];
  },
  options: RenewalsOptions,
): Renewal[] {
  const byId = new Map(input.licenses.filter((l) => l.id).map((l) => [l.id!, l]));
  const periods = input.periods.filter((p) => p.licenseId && byId.has(p.licenseId));
  const subscriptions = input.licenses.map((l) => subscriptionOf(l, options))
    .filter((r): r is Renewal => r !== null);
  const order: RenewalKind[] = ["Subscription", "Maintenance", "Support"];
  return [...subscriptions, ...periodRenewals(periods, byId, options)].sort((a, b) =>
    a.endDate.getTime() - b.endDate.getTime() ||
    (a.licenseId < b.licenseId ? -1 : a.licenseId > b.licenseId ? 1 : 0) ||
    order.indexOf(a.kind) - order.indexOf(b.kind)
  );
}
