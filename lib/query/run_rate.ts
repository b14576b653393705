/**
 * The annual run rate of a license estate: what it costs per year to keep, per currency —
 * each license's current yearly maintenance and support, plus each subscription running on the
 * day, annualised from its term. Amounts are summed in integer cents within one currency and
 * never across currencies; what cannot be counted (a subscription without a term, one that
 * ended, a license without a currency) is counted and said, never read as 0.
 *
 * A subscription's cost is its purchase cost (the costs summary's `purchaseCost`, else the
 * license's `purchaseValue`) for its term (`subscriptionValidFrom` … `subscriptionValidTo`);
 * per year that is cost × 12 ÷ the term in whole months (a term of 365 or 366 days is 12
 * months, so a yearly subscription counts its price exactly). Only the real service (and the
 * reference server) sends subscription terms; without them subscriptions are not in the rate
 * and {@link RunRate.subscriptionTermsSeen} says so.
 *
 * @module
 */

import { fromMinorUnits, toMinorUnits } from "./money.ts";

/** What the run rate reads of one license (its list entry or detail). */
export interface RunRateLicense {
  /** The license id. */
  readonly id?: string | null;
  /** Whether the license is a subscription (`null`/absent: not sent). */
  readonly isSubscription?: boolean | null;
  /** When its subscription term starts. */
  readonly subscriptionValidFrom?: Date | null;
  /** When its subscription term ends. */
  readonly subscriptionValidTo?: Date | null;
  /** The license's purchase currency. */
  readonly purchaseCurrency?: string | null;
  /** The license's purchase value. */
  readonly purchaseValue?: number | null;
}

/** What the run rate reads of a license's costs summary. */
export interface RunRateSummary {
  /** The summary's currency. */
  readonly currency?: string | null;
  /** The purchase cost. */
  readonly purchaseCost?: number | null;
  /** The current maintenance cost per year. */
  readonly currentMaintenanceCost?: number | null;
  /** The current support cost per year. */
  readonly currentSupportCost?: number | null;
}

/** One license and its costs summary (`null`: it has none). */
export interface RunRateEntry {
  /** The license. */
  readonly license: RunRateLicense;
  /** Its costs summary, or null. */
  readonly summary: RunRateSummary | null;
}

/** The run rate of one currency, in major units (exact to the cent). */
export interface CurrencyRunRate {
  /** The currency code. */
  readonly currency: string;
  /** Current maintenance per year. */
  readonly maintenance: number;
  /** Current support per year. */
  readonly support: number;
  /** Running subscriptions, annualised. */
  readonly subscriptions: number;
  /** maintenance + support + subscriptions. */
  readonly total: number;
  /** Licenses that add to it (a non-zero amount). */
  readonly licenses: number;
  /** Running subscriptions counted. */
  readonly runningSubscriptions: number;
  /**
   * With a reporting currency: each license's amounts converted once, to the cent, then summed
   * (the total is the sum of the three converted sums).
   */
  readonly converted?: {
    readonly maintenance: number;
    readonly support: number;
    readonly subscriptions: number;
    readonly total: number;
  };
}

/** The run rate of an estate. */
export interface RunRate {
  /** Per currency, alphabetical. */
  readonly byCurrency: readonly CurrencyRunRate[];
  /** Whether any license carried subscription terms (else subscriptions are not counted). */
  readonly subscriptionTermsSeen: boolean;
  /** Subscriptions whose term ended before the day: not counted. */
  readonly endedSubscriptions: number;
  /** Subscriptions whose term starts after the day: not counted. */
  readonly futureSubscriptions: number;
  /** Subscriptions without a term or a cost: not counted. */
  readonly subscriptionsWithoutTerm: number;
  /** Licenses without a costs summary: their maintenance and support are unknown. */
  readonly withoutCostSummary: number;
  /** Licenses with an amount but no currency: not counted. */
  readonly withoutCurrency: number;
}

/** Average month length in milliseconds (365.25 days ÷ 12). */
const MONTH_MS = (365.25 / 12) * 86_400_000;

/**
 * Whole months of a term (at least 1), from its start and end instants.
 *
 * @example
 * ```ts
 * import { termMonths } from "./run_rate.ts";
 * const from = new Date("2026-03-01T00:00:00Z");
 * console.log(termMonths(from, new Date("2027-03-01T00:00:00Z"))); // 12
 * console.log(termMonths(from, new Date("2029-02-28T00:00:00Z"))); // 36
 * ```
 */
export function termMonths(from: Date, to: Date): number {
  return Math.max(1, Math.round((to.getTime() - from.getTime()) / MONTH_MS));
}

/**
 * A subscription's cost per year in cents: `cents × 12 ÷ months`, halves away from zero.
 *
 * @example
 * ```ts
 * import { annualCents } from "./run_rate.ts";
 * console.log(annualCents(100_000, 12), annualCents(100_000, 36), annualCents(1, 24)); // 100000 33333 1
 * ```
 */
export function annualCents(cents: number, months: number): number {
  const scaled = cents * 12;
  return Math.sign(scaled) * Math.floor((Math.abs(scaled) * 2 + months) / (months * 2));
}

const valid = (d: Date | null | undefined): d is Date => d instanceof Date && !isNaN(d.getTime());

type Tally = {
  maintenance: number;
  support: number;
  subscriptions: number;
  licenses: number;
  running: number;
  /** The converted cents of maintenance, support and subscriptions. */
  converted: [number, number, number];
};

/** Converts an amount (major units) of a currency into the reporting currency. */
type Convert = (amount: number | null, currency: string) => number | null;

type Counts =
  & { -readonly [K in Exclude<keyof RunRate, "byCurrency" | "subscriptionTermsSeen">]: number }
  & {
    seen: boolean;
  };

/**
 * The subscription part of one license per year in cents on the day `asOf`, or why it is not
 * counted: not a subscription, its term ended or has not started, or its term or cost is unknown.
 *
 * @example
 * ```ts
 * import { subscriptionCents } from "./run_rate.ts";
 * const license = {
 *   isSubscription: true, purchaseValue: 1200,
 *   subscriptionValidFrom: new Date("2026-06-01"), subscriptionValidTo: new Date("2027-06-01"),
 * };
 * console.log(subscriptionCents({ license, summary: null }, new Date("2026-11-24"))); // 120000
 * ```
 */
export function subscriptionCents(
  { license, summary }: RunRateEntry,
  asOf: Date,
): number | "none" | "ended" | "future" | "unknown" {
  if (license.isSubscription !== true) return "none";
  const from = license.subscriptionValidFrom, to = license.subscriptionValidTo;
  const cents = toMinorUnits(summary?.purchaseCost ?? license.purchaseValue);
  if (!valid(from) || !valid(to) || to < from || cents === null) return "unknown";
  if (to < asOf) return "ended";
  if (from > asOf) return "future";
  return annualCents(cents, termMonths(from, to));
}

/**
 * The annual run rate of `entries` on the day `asOf`, per currency (see the module doc).
 *
 * @example
 * ```ts
 * import { annualRunRate } from "./run_rate.ts";
 * const rate = annualRunRate([
 *   { license: { id: "L1" }, summary: { currency: "EUR", currentMaintenanceCost: 0.1, currentSupportCost: 0.2 } },
 *   {
 *     license: {
 *       id: "L2", isSubscription: true, purchaseCurrency: "EUR", purchaseValue: 1200,
 *       subscriptionValidFrom: new Date("2026-06-01"), subscriptionValidTo: new Date("2027-06-01"),
 *     },
 *     summary: null,
 *   },
 * ], { asOf: new Date("2026-11-24") });
 * console.log(rate.byCurrency[0].total); // 1200.3
 * ```
 */
export function annualRunRate(
  entries: Iterable<RunRateEntry>,
  { asOf, convert }: {
    readonly asOf: Date;
    /** A reporting currency's conversion: each license's amounts converted once, then summed. */
    readonly convert?: Convert;
  },
): RunRate {
  const tallies = new Map<string, Tally>();
  const counts: Counts = {
    seen: false,
    endedSubscriptions: 0,
    futureSubscriptions: 0,
    subscriptionsWithoutTerm: 0,
    withoutCostSummary: 0,
    withoutCurrency: 0,
  };
  for (const entry of entries) addEntry(entry, asOf, tallies, counts, convert);
  const { seen, ...rest } = counts;
  return {
    byCurrency: [...tallies].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([code, t]) => ({
      currency: code,
      maintenance: fromMinorUnits(t.maintenance)!,
      support: fromMinorUnits(t.support)!,
      subscriptions: fromMinorUnits(t.subscriptions)!,
      total: fromMinorUnits(t.maintenance + t.support + t.subscriptions)!,
      licenses: t.licenses,
      runningSubscriptions: t.running,
      ...(convert
        ? {
          converted: {
            maintenance: fromMinorUnits(t.converted[0])!,
            support: fromMinorUnits(t.converted[1])!,
            subscriptions: fromMinorUnits(t.converted[2])!,
            total: fromMinorUnits(t.converted[0] + t.converted[1] + t.converted[2])!,
          },
        }
        : {}),
    })),
    subscriptionTermsSeen: seen,
    ...rest,
  };
}

function addEntry(
  entry: RunRateEntry,
  asOf: Date,
  tallies: Map<string, Tally>,
  counts: Counts,
  convert?: Convert,
) {
  const { license, summary } = entry;
  if (valid(license.subscriptionValidFrom) || valid(license.subscriptionValidTo)) {
    counts.seen = true;
  }
  if (summary === null) counts.withoutCostSummary++;
  const maintenance = toMinorUnits(summary?.currentMaintenanceCost) ?? 0;
  const support = toMinorUnits(summary?.currentSupportCost) ?? 0;
  const sub = subscriptionCents(entry, asOf);
  if (sub === "ended") counts.endedSubscriptions++;
  else if (sub === "future") counts.futureSubscriptions++;
  else if (sub === "unknown") counts.subscriptionsWithoutTerm++;
  const subscription = typeof sub === "number" ? sub : 0;
  if (maintenance === 0 && support === 0 && typeof sub !== "number") return;
  const code = runRateCurrency(entry);
  if (!code) return void counts.withoutCurrency++;
  const t = tallies.get(code) ??
    { maintenance: 0, support: 0, subscriptions: 0, licenses: 0, running: 0, converted: [0, 0, 0] };
  t.maintenance += maintenance;
  t.support += support;
  t.subscriptions += subscription;
  if (convert) {
    [maintenance, support, subscription].forEach((cents, i) => {
      if (cents !== 0) t.converted[i] += toMinorUnits(convert(cents / 100, code)) ?? 0;
    });
  }
  t.running += typeof sub === "number" ? 1 : 0;
  t.licenses += maintenance !== 0 || support !== 0 || subscription !== 0 ? 1 : 0;
  tallies.set(code, t);
}

/**
 * The currency a license's run rate is counted in: its costs summary's, else its purchase
 * currency; undefined when it has neither.
 *
 * @example
 * ```ts
 * import { runRateCurrency } from "./run_rate.ts";
 * console.log(runRateCurrency({ license: { purchaseCurrency: "GBP" }, summary: null })); // "GBP"
 * ```
 */
export function runRateCurrency({ license, summary }: RunRateEntry): string | undefined {
  return summary?.currency?.trim() || license.purchaseCurrency?.trim() || undefined;
}
