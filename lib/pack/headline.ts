/**
 * The figures a CFO reads first, picked from a run's figures in one place (the pack summary and
 * the trends report both use it): compliance exposure (shortfall cost per currency, unpriced
 * shortfalls, positions short), the optimised exposure per currency (license-optimization's
 * `currencies` rows), cost to date and annual run rate per currency, uncovered installs and
 * stale computers. Money is kept per currency, never added or compared across currencies; when
 * the run had a reporting currency, the reports' own "…, all currencies (EUR)" totals are picked
 * beside the per-currency figures (never converted or added here).
 *
 * @module
 */

import type { TrackedFigure } from "../report/model.ts";
import type { Change, Figure } from "./figures.ts";

/**
 * What harvest and reallocation leave in one currency, as license-optimization's `currencies`
 * section states it (one row per currency): never recomputed here.
 */
export interface OptimisedExposure {
  /** The ELP's shortfall cost (column "Shortfall cost before"). */
  readonly costBefore: number;
  /** What is left to buy after every step (column "Remaining purchase need"). */
  readonly costAfter: number;
  /** Money saved (column "Money saved"). */
  readonly moneySaved: number;
  /** Positions closed (column "Closed"). */
  readonly closed: number;
  /** Positions short before (column "Positions short"). */
  readonly short: number;
}

/** The `currencies` row columns the headline reads, in the order the summary states them. */
export const OPTIMISED_PARTS: readonly (keyof OptimisedExposure)[] = [
  "costAfter",
  "costBefore",
  "moneySaved",
  "closed",
  "short",
];

const OPTIMISED_LABELS: Readonly<Record<keyof OptimisedExposure, string>> = {
  costAfter: "Remaining purchase need",
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
  "license-optimization": OPTIMISED_PARTS.map((part) => ({
    section: "currencies",
    key: "currency",
    value: part,
    label: `Purchase need per currency: ${OPTIMISED_LABELS[part]}`,
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
  readonly optimisedExposure: number | null;
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
  "optimisedExposure",
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
   * Per currency, what harvest and reallocation leave beside the ELP's shortfall cost
   * (license-optimization, section `currencies`); empty when the pack has no such report.
   */
  readonly optimisedExposure: Readonly<Record<string, OptimisedExposure>>;
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
   * Which part: of an optimised exposure (`costAfter`, …) for `optimisedExposure`, which total
   * (`costToDate`, …) for `converted`.
   */
  readonly part?: keyof OptimisedExposure | ConvertedPart;
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
  /** Which part of an optimised exposure, or which converted total. */
  readonly part?: keyof OptimisedExposure | ConvertedPart;
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
  ...OPTIMISED_PARTS.map((part): HeadlinePick => ({
    name: "optimisedExposure",
    part,
    label: part === "costAfter" ? "Optimised exposure" : `Optimisation: ${OPTIMISED_LABELS[part]}`,
    key: `license-optimization|row|currencies|${part}|`,
    perCurrency: true,
  })),
  converted(
    "optimisedExposure",
    "Optimised exposure",
    "license-optimization|fact|Remaining purchase need",
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
    label: "Uncovered installs",
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
 * The optimised exposure per currency among headline lines: a currency only when its
 * `currencies` row gave every part.
 *
 * @example
 * ```ts
 * import { headlineFigures, optimisedOf } from "./headline.ts";
 * const figures = ["costAfter", "costBefore", "moneySaved", "closed", "short"].map((part, i) => ({
 *   key: `license-optimization|row|currencies|${part}|EUR|EUR`, report: "license-optimization",
 *   label: part, value: i + 1, type: i < 3 ? "currency" : "integer", currency: "EUR",
 * }));
 * console.log(optimisedOf(headlineFigures(figures)).EUR.closed); // 4
 * ```
 */
export function optimisedOf(
  lines: readonly HeadlineFigure[],
): Record<string, OptimisedExposure> {
  const out: Record<string, OptimisedExposure> = {};
  const mine = lines.filter((l) => l.name === "optimisedExposure" && l.part && l.currency);
  for (const code of [...new Set(mine.map((l) => l.currency!))].sort()) {
    const parts = mine.filter((l) => l.currency === code);
    const part = (p: keyof OptimisedExposure) => parts.find((l) => l.part === p)?.value;
    if (OPTIMISED_PARTS.some((p) => part(p) === undefined)) continue;
    out[code] = Object.fromEntries(
      OPTIMISED_PARTS.map((p) => [p, part(p)!]),
    ) as unknown as OptimisedExposure;
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
    optimisedExposure: optimisedOf(lines),
    costToDate: perCurrency("costToDate"),
    runRate: perCurrency("runRate"),
    uncoveredInstalls: one("uncoveredInstalls"),
    staleComputers: one("staleComputers"),
    ...(converted ? { converted } : {}),
  };
}
