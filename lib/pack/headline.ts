/**
 * The figures a CFO reads first, picked from a run's figures in one place (the pack summary and
 * the trends report both use it): compliance exposure (shortfall cost per currency, unpriced
 * shortfalls, positions short), the remaining purchase need per currency and the optimisation
 * beside it (license-optimization's `currencies` rows), cost to date and annual run rate per
 * currency, uncovered installs and stale computers. Money is kept per currency, never added or compared across currencies; when
 * the run had a reporting currency, the reports' own "…, all currencies (EUR)" totals are picked
 * beside the per-currency figures (never converted or added here).
 *
 * @module
 */

import type { TrackedFigure } from "../report/model.ts";
import type { Change, Figure } from "./figures.ts";
import { UNCOVERED_ENTITLEMENTS } from "../sam/entitlement_counts.ts";

/**
 * How harvest and reallocation got to the remaining purchase need in one currency, as
 * license-optimization's `currencies` section states it (one row per currency; each key is the
 * section's column key): never recomputed here.
 */
export interface Optimisation {
  /** The ELP's shortfall cost (column "Shortfall cost before"). */
  readonly costBefore: number;
  /** Money saved (column "Money saved"). */
  readonly moneySaved: number;
  /** Positions closed (column "Closed"). */
  readonly closed: number;
  /** Positions short before (column "Positions short"). */
  readonly short: number;
}

/** One currency's remaining purchase need with the optimisation that left it. */
export interface PurchaseNeed extends Optimisation {
  /** What is left to buy after every step (column `costAfter`, "Remaining purchase need"). */
  readonly remainingPurchaseNeed: number;
}

/** license-optimization's `currencies` column holding the remaining purchase need. */
const REMAINING_COLUMN = "costAfter";

/** The optimisation's `currencies` columns the headline reads, in the order the summary states them. */
export const OPTIMISATION_PARTS: readonly (keyof Optimisation)[] = [
  "costBefore",
  "moneySaved",
  "closed",
  "short",
];

/** The one name of what is left to buy after harvest and reallocation, wherever it is shown. */
export const REMAINING_PURCHASE_NEED = "Remaining purchase need";

const OPTIMISATION_LABELS: Readonly<Record<keyof Optimisation, string>> = {
  costBefore: "Shortfall cost before",
  moneySaved: "Money saved",
  closed: "Closed",
  short: "Positions short",
};

/**
 * Row figures the pack collects from a report whatever the report itself tracks, by report id:
 * the per-currency rows of license-optimization's `currencies` section, which the headline reads.
 */
export const HEADLINE_ROWS: Readonly<Record<string, readonly TrackedFigure[]>> = {
  "license-optimization": [REMAINING_COLUMN, ...OPTIMISATION_PARTS].map((value) => ({
    section: "currencies",
    key: "currency",
    value,
    label: `Purchase need per currency: ${
      value === REMAINING_COLUMN
        ? REMAINING_PURCHASE_NEED
        : OPTIMISATION_LABELS[value as keyof Optimisation]
    }`,
    currencyKey: "currency",
  })),
};

/**
 * The all-currency totals in the reporting currency, as the reports' facts state them (each
 * amount converted to the cent by the report, then added); null where no report gave one.
 */
export interface ConvertedTotals {
  /** The reporting currency (ISO 4217). */
  readonly currency: string;
  /** license-position "Shortfall cost, all currencies (CUR)". */
  readonly shortfallCost: number | null;
  /** license-optimization "Remaining purchase need, all currencies (CUR)". */
  readonly remainingPurchaseNeed: number | null;
  /** license-optimization "Money saved, all currencies (CUR)". */
  readonly moneySaved: number | null;
  /** license-cost-summary "Cost to date, all currencies (CUR)". */
  readonly costToDate: number | null;
  /** license-cost-summary "Annual run rate, all currencies (CUR)". */
  readonly runRate: number | null;
}

/** Which all-currency total a converted headline figure is. */
export type ConvertedPart = Exclude<keyof ConvertedTotals, "currency">;

/** The converted totals in the order the summary states them. */
export const CONVERTED_PARTS: readonly ConvertedPart[] = [
  "shortfallCost",
  "remainingPurchaseNeed",
  "moneySaved",
  "costToDate",
  "runRate",
];

/** The headline figures of one run (null: the pack has no report that gives it). */
export interface Headline {
  /** Shortfall cost per currency (license-position "Shortfall cost (CUR)"). */
  readonly shortfallCost: Readonly<Record<string, number>>;
  /** Positions short with no price (license-position "Unpriced shortfalls"). */
  readonly unpricedShortfalls: number | null;
  /** Positions short (license-position "Positions short"). */
  readonly positionsShort: number | null;
  /**
   * Remaining purchase need per currency: the shortfall cost left after harvesting idle installs
   * and reassigning surplus (license-optimization "Remaining purchase need", section
   * `currencies`); empty when the pack has no such report.
   */
  readonly remainingPurchaseNeed: Readonly<Record<string, number>>;
  /**
   * Per currency, how harvest and reallocation got there from the ELP's shortfall cost (same
   * section; a currency only when its row gave every part); empty without the report.
   */
  readonly optimisation: Readonly<Record<string, Optimisation>>;
  /**
   * Cost to date per currency: purchase plus maintenance and support accumulated since purchase
   * (license-cost-summary "Cost to date (CUR)").
   */
  readonly costToDate: Readonly<Record<string, number>>;
  /**
   * Annual run rate per currency: current maintenance and support plus running subscriptions
   * per year (license-cost-summary "Annual run rate (CUR)").
   */
  readonly runRate: Readonly<Record<string, number>>;
  /** Installs in an uncovered entitlement state (entitlement-state-by-computer). */
  readonly uncoveredInstalls: number | null;
  /** Computers not scanned for the report's days (stale-computers). */
  readonly staleComputers: number | null;
  /** The all-currency totals in the reporting currency (absent: the run had none). */
  readonly converted?: ConvertedTotals;
}

/** One headline figure, with what it was in the last comparable run. */
export interface HeadlineFigure {
  /** Which headline figure (`shortfallCost`, `costToDate`, …). */
  readonly name: keyof Headline;
  /**
   * Which part: of the optimisation (`costBefore`, …) for `optimisation`, which total
   * (`costToDate`, …) for `converted`.
   */
  readonly part?: keyof Optimisation | ConvertedPart;
  /** For a person. */
  readonly label: string;
  /** The value. */
  readonly value: number;
  /** `currency` or `integer`. */
  readonly type: string;
  /** The currency of a money figure. */
  readonly currency?: string;
  /** The value in the last comparable run (null: not compared or new). */
  readonly previous: number | null;
  /** value − previous (null when not compared). */
  readonly delta: number | null;
  /** The figure's key in summary.json. */
  readonly key: string;
}

/** Where one headline figure is found among a run's figures. */
export interface HeadlinePick {
  /** The headline figure. */
  readonly name: keyof Headline;
  /** Which part of the optimisation, or which converted total. */
  readonly part?: keyof Optimisation | ConvertedPart;
  /** Its label (the currency is added to money figures). */
  readonly label: string;
  /** The exact key, or the key prefix of a per-currency fact (`… (CUR)`). */
  readonly key: string;
  /** One figure per currency. */
  readonly perCurrency?: boolean;
}

/** A converted total: the report's "…, all currencies (CUR)" fact, one per reporting currency. */
const converted = (part: ConvertedPart, label: string, fact: string): HeadlinePick => ({
  name: "converted",
  part,
  label: `${label}, all currencies`,
  key: `${fact}, all currencies (`,
  perCurrency: true,
});

/**
 * Which figure each headline figure is, in the order the summary shows them (each converted
 * total right after the per-currency figures it converts).
 */
export const HEADLINE_FIGURES: readonly HeadlinePick[] = [
  {
    name: "shortfallCost",
    label: "Shortfall cost",
    key: "license-position|fact|Shortfall cost (",
    perCurrency: true,
  },
  converted("shortfallCost", "Shortfall cost", "license-position|fact|Shortfall cost"),
  {
    name: "unpricedShortfalls",
    label: "Unpriced shortfalls",
    key: "license-position|fact|Unpriced shortfalls",
  },
  {
    name: "positionsShort",
    label: "Positions short",
    key: "license-position|fact|Positions short",
  },
  {
    name: "remainingPurchaseNeed",
    label: REMAINING_PURCHASE_NEED,
    key: `license-optimization|row|currencies|${REMAINING_COLUMN}|`,
    perCurrency: true,
  },
  ...OPTIMISATION_PARTS.map((part): HeadlinePick => ({
    name: "optimisation",
    part,
    label: `Optimisation: ${OPTIMISATION_LABELS[part]}`,
    key: `license-optimization|row|currencies|${part}|`,
    perCurrency: true,
  })),
  converted(
    "remainingPurchaseNeed",
    REMAINING_PURCHASE_NEED,
    `license-optimization|fact|${REMAINING_PURCHASE_NEED}`,
  ),
  converted("moneySaved", "Optimisation: Money saved", "license-optimization|fact|Money saved"),
  {
    name: "costToDate",
    label: "Cost to date",
    key: "license-cost-summary|fact|Cost to date (",
    perCurrency: true,
  },
  converted("costToDate", "Cost to date", "license-cost-summary|fact|Cost to date"),
  {
    name: "runRate",
    label: "Annual run rate",
    key: "license-cost-summary|fact|Annual run rate (",
    perCurrency: true,
  },
  converted("runRate", "Annual run rate", "license-cost-summary|fact|Annual run rate"),
  {
    name: "uncoveredInstalls",
    // entitlement-state-by-computer's figure, under the name that report gives it.
    label: UNCOVERED_ENTITLEMENTS,
    key: "entitlement-state-by-computer|total|computers|uncovered|All",
  },
  {
    name: "staleComputers",
    label: "Stale computers",
    key: "stale-computers|total|organizations|stale|All",
  },
];

const matches = (pick: HeadlinePick, f: Figure) =>
  pick.perCurrency ? f.key.startsWith(pick.key) && Boolean(f.currency) : f.key === pick.key;

/**
 * The headline figures among a run's figures or changes, in display order (money per currency,
 * currencies alphabetical), each with its previous value when the figures are changes.
 *
 * @example
 * ```ts
 * import { headlineFigures } from "./headline.ts";
 * const figures = [{
 *   key: "license-position|fact|Shortfall cost (EUR)", report: "license-position",
 *   label: "Shortfall cost (EUR)", value: 1200, type: "currency", currency: "EUR",
 * }];
 * console.log(headlineFigures(figures)[0].label); // "Shortfall cost (EUR)"
 * ```
 */
export function headlineFigures(figures: readonly (Figure | Change)[]): HeadlineFigure[] {
  const out: HeadlineFigure[] = [];
  for (const pick of HEADLINE_FIGURES) {
    const found = figures.filter((f) => matches(pick, f))
      .sort((a, b) => (a.currency ?? "") < (b.currency ?? "") ? -1 : 1);
    for (const f of found) {
      const change = f as Partial<Change>;
      out.push({
        name: pick.name,
        ...(pick.part ? { part: pick.part } : {}),
        label: f.currency ? `${pick.label} (${f.currency})` : pick.label,
        value: f.value,
        type: f.type,
        ...(f.currency ? { currency: f.currency } : {}),
        previous: change.previous ?? null,
        delta: change.delta ?? null,
        key: f.key,
      });
    }
  }
  return out;
}

/**
 * The optimisation per currency among headline lines: a currency only when its `currencies` row
 * gave every part.
 *
 * @example
 * ```ts
 * import { headlineFigures, optimisationOf } from "./headline.ts";
 * const figures = ["costBefore", "moneySaved", "closed", "short"].map((part, i) => ({
 *   key: `license-optimization|row|currencies|${part}|EUR|EUR`, report: "license-optimization",
 *   label: part, value: i + 1, type: i < 2 ? "currency" : "integer", currency: "EUR",
 * }));
 * console.log(optimisationOf(headlineFigures(figures)).EUR.closed); // 3
 * ```
 */
export function optimisationOf(
  lines: readonly HeadlineFigure[],
): Record<string, Optimisation> {
  const out: Record<string, Optimisation> = {};
  const mine = lines.filter((l) => l.name === "optimisation" && l.part && l.currency);
  for (const code of [...new Set(mine.map((l) => l.currency!))].sort()) {
    const parts = mine.filter((l) => l.currency === code);
    const part = (p: keyof Optimisation) => parts.find((l) => l.part === p)?.value;
    if (OPTIMISATION_PARTS.some((p) => part(p) === undefined)) continue;
    out[code] = Object.fromEntries(
      OPTIMISATION_PARTS.map((p) => [p, part(p)!]),
    ) as unknown as Optimisation;
  }
  return out;
}

/**
 * The remaining purchase need per currency with the optimisation that left it: a currency only
 * when its `currencies` row gave the need and every part.
 *
 * @example
 * ```ts
 * import { headlineFigures, purchaseNeedOf } from "./headline.ts";
 * const figures = ["costAfter", "costBefore", "moneySaved", "closed", "short"].map((part, i) => ({
 *   key: `license-optimization|row|currencies|${part}|EUR|EUR`, report: "license-optimization",
 *   label: part, value: i + 1, type: i < 3 ? "currency" : "integer", currency: "EUR",
 * }));
 * console.log(purchaseNeedOf(headlineFigures(figures)).EUR.remainingPurchaseNeed); // 1
 * ```
 */
export function purchaseNeedOf(lines: readonly HeadlineFigure[]): Record<string, PurchaseNeed> {
  const out: Record<string, PurchaseNeed> = {};
  for (const [code, optimisation] of Object.entries(optimisationOf(lines))) {
    const need = lines.find((l) => l.name === "remainingPurchaseNeed" && l.currency === code);
    if (need) out[code] = { remainingPurchaseNeed: need.value, ...optimisation };
  }
  return out;
}

/**
 * The all-currency totals among headline lines (null: the run had no reporting currency). Each
 * total is the figure of the report that gives it, never computed here.
 *
 * @example
 * ```ts
 * import { convertedOf, headlineFigures } from "./headline.ts";
 * const figures = [{
 *   key: "license-cost-summary|fact|Cost to date, all currencies (EUR)",
 *   report: "license-cost-summary", label: "Cost to date, all currencies (EUR)",
 *   value: 13972220.79, type: "currency", currency: "EUR",
 * }];
 * console.log(convertedOf(headlineFigures(figures))?.costToDate); // 13972220.79
 * ```
 */
export function convertedOf(lines: readonly HeadlineFigure[]): ConvertedTotals | null {
  const mine = lines.filter((l) => l.name === "converted" && l.currency);
  if (!mine.length) return null;
  const currency = mine[0].currency!;
  const part = (p: ConvertedPart) =>
    mine.find((l) => l.part === p && l.currency === currency)?.value ?? null;
  return {
    currency,
    ...Object.fromEntries(CONVERTED_PARTS.map((p) => [p, part(p)])),
  } as unknown as ConvertedTotals;
}

/**
 * The headline of a run from its figures.
 *
 * @example
 * ```ts
 * import { headlineOf } from "./headline.ts";
 * console.log(headlineOf([]).unpricedShortfalls); // null
 * ```
 */
export function headlineOf(figures: readonly Figure[]): Headline {
  const lines = headlineFigures(figures);
  const perCurrency = (name: keyof Headline) =>
    Object.fromEntries(lines.filter((l) => l.name === name).map((l) => [l.currency!, l.value]));
  const one = (name: keyof Headline) => lines.find((l) => l.name === name)?.value ?? null;
  const converted = convertedOf(lines);
  return {
    shortfallCost: perCurrency("shortfallCost"),
    unpricedShortfalls: one("unpricedShortfalls"),
    positionsShort: one("positionsShort"),
    remainingPurchaseNeed: perCurrency("remainingPurchaseNeed"),
    optimisation: optimisationOf(lines),
    costToDate: perCurrency("costToDate"),
    runRate: perCurrency("runRate"),
    uncoveredInstalls: one("uncoveredInstalls"),
    staleComputers: one("staleComputers"),
    ...(converted ? { converted } : {}),
  };
}
