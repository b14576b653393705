/**
 * Renewals by month, for planning: one row per calendar month of the horizon (from the run's
 * month to the month the horizon ends, every month shown, none left out) and currency, with how
 * many renew and their annual cost by kind, summed to the cent from the very renewal rows the
 * list shows, so a month's figures add up to the list's. Subscriptions that ended while still
 * installed are a first row of their own ("Ended, in use"): they need renewing now. With a
 * reporting currency, each month's converted cost is the sum of its renewals' converted costs
 * (each converted once), never a converted sum.
 *
 * @module
 */

import type { AmountConverter, Row } from "../report/model.ts";
import { fromMinorUnits, toMinorUnits } from "../query/money.ts";
import { convertedKey } from "./reporting_currency.ts";

/** The month label of subscriptions that ended while still installed. */
export const ENDED_IN_USE_MONTH = "Ended, in use";

/** The amount keys of a month row by the kind of renewal they add up. */
export const KIND_KEYS = {
  Subscription: "subscriptions",
  Maintenance: "maintenance",
  Support: "support",
} as const;

/** A renewal row as the months read it (`renewal_rows.ts`, converted or not). */
export interface MonthInput {
  /** `YYYY-MM` of the end date. */
  readonly month: string;
  /** Subscription, Maintenance or Support. */
  readonly kind: keyof typeof KIND_KEYS;
  /** Whether the subscription ended while still installed. */
  readonly expiredInUse: boolean;
  /** The annual cost at current terms (null: unknown). */
  readonly annualCost: number | null;
  /** Its currency (null: none named). */
  readonly currency: string | null;
}

/** The calendar months from `from` to `to` (`YYYY-MM`, both included). */
function monthsBetween(from: Date, to: Date): string[] {
  const out: string[] = [];
  let y = from.getUTCFullYear(), m = from.getUTCMonth();
  const last = to.getUTCFullYear() * 12 + to.getUTCMonth();
  while (y * 12 + m <= last) {
    out.push(`${y}-${String(m + 1).padStart(2, "0")}`);
    if (++m === 12) [y, m] = [y + 1, 0];
  }
  return out;
}

/** What {@link renewalMonths} needs beyond the rows. */
export interface RenewalMonthsOptions {
  /** The run's day. */
  readonly now: Date;
  /** How many days ahead the renewals were looked for. */
  readonly horizonDays: number;
  /** The run's reporting currency, if any. */
  readonly fx?: AmountConverter;
}

/**
 * One row per month of the horizon and currency (months with nothing due show 0), the ended
 * subscriptions still in use first: renewals, annual cost by kind and in all, in cents exact.
 *
 * @example
 * ```ts
 * import { renewalMonths } from "./renewal_months.ts";
 * const rows = renewalMonths([
 *   { month: "2026-12", kind: "Support", expiredInUse: false, annualCost: 10.5, currency: "EUR" },
 * ], { now: new Date("2026-11-20"), horizonDays: 45 });
 * console.log(rows.map((r) => [r.month, r.renewals, r.annualCost])); // [["2026-11", 0, 0], ["2026-12", 1, 10.5]]
 * ```
 */
export function renewalMonths(rows: readonly MonthInput[], options: RenewalMonthsOptions): Row[] {
  const { now, horizonDays, fx } = options;
  const end = new Date(now.getTime() + horizonDays * 86_400_000);
  const months = monthsBetween(now, end);
  const currencies = [...new Set(rows.map((r) => r.currency ?? ""))].sort();
  const ended = rows.some((r) => r.expiredInUse) ? [ENDED_IN_USE_MONTH] : [];
  const cells = new Map<string, Row>();
  const kinds = Object.values(KIND_KEYS);
  const moneyKeys = [...kinds, "annualCost"];
  const converted = (key: string) => (fx ? [convertedKey(key, fx.code)] : []);
  for (const month of [...ended, ...months]) {
    for (const currency of currencies) {
      const row: Row = { month, currency: currency || null, renewals: 0 };
      for (const key of moneyKeys) {
        row[key] = 0;
        for (const c of converted(key)) row[c] = 0;
      }
      if (fx) row.reportingCurrency = fx.code;
      cells.set(`${month}\u0000${currency}`, row);
    }
  }
  for (const r of rows) {
    const month = r.expiredInUse ? ENDED_IN_USE_MONTH : r.month;
    const row = cells.get(`${month}\u0000${r.currency ?? ""}`);
    if (!row) continue;
    row.renewals = (row.renewals as number) + 1;
    const kind = KIND_KEYS[r.kind];
    addCents(row, kind, r.annualCost);
    addCents(row, "annualCost", r.annualCost);
    if (fx) {
      const amount = (r as unknown as Row)[convertedKey("annualCost", fx.code)] as number | null;
      addCents(row, convertedKey(kind, fx.code), amount);
      addCents(row, convertedKey("annualCost", fx.code), amount);
    }
  }
  return [...cells.values()];
}

/** Adds an amount to a row's figure exactly, in cents (null adds nothing). */
function addCents(row: Row, key: string, amount: number | null | undefined): void {
  const cents = toMinorUnits(amount);
  if (cents === null) return;
  row[key] = fromMinorUnits((toMinorUnits(row[key] as number) ?? 0) + cents);
}
