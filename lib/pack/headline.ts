/**
 * The figures a CFO reads first, picked from a run's figures in one place (the pack summary and
 * the trends report both use it): compliance exposure (shortfall cost per currency, unpriced
 * shortfalls, positions short), the optimised exposure per currency (license-optimization's
 * `currencies` rows), cost to date and annual run rate per currency, uncovered installs and
 * stale computers. Money is kept per currency, never added or compared across currencies.
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
   * (license-cost-summary "Total cost (CUR)").
   */
  readonly spend: Readonly<Record<string, number>>;
  /**
   * Annual run rate per currency: current maintenance and support plus running subscriptions
   * per year (license-cost-summary "Annual run rate (CUR)").
   */
  readonly runRate: Readonly<Record<string, number>>;
  /** Installs in an uncovered entitlement state (entitlement-state-by-computer). */
  readonly uncoveredInstalls: number | null;
  /** Computers not scanned for the report's days (stale-computers). */
  readonly staleComputers: number | null;
}

/** One headline figure, with what it was in the last comparable run. */
export interface HeadlineFigure {
  /** Which headline figure (`shortfallCost`, `spend`, …). */
  readonly name: keyof Headline;
  /** Which part of an optimised exposure (`costAfter`, …), for `optimisedExposure` only. */
  readonly part?: keyof OptimisedExposure;
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
  /** Which part of an optimised exposure, for `optimisedExposure` only. */
  readonly part?: keyof OptimisedExposure;
  /** Its label (the currency is added to money figures). */
  readonly label: string;
  /** The exact key, or the key prefix of a per-currency fact (`… (CUR)`). */
  readonly key: string;
  /** One figure per currency. */
  readonly perCurrency?: boolean;
}

/** Which figure each headline figure is, in the order the summary shows them. */
export const HEADLINE_FIGURES: readonly HeadlinePick[] = [
  {
    name: "shortfallCost",
    label: "Shortfall cost",
    key: "license-position|fact|Shortfall cost (",
    perCurrency: true,
  },
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
  {
    name: "spend",
    label: "Cost to date",
    key: "license-cost-summary|fact|Total cost (",
    perCurrency: true,
  },
  {
    name: "runRate",
    label: "Annual run rate",
    key: "license-cost-summary|fact|Annual run rate (",
    perCurrency: true,
  },
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
  return {
    shortfallCost: perCurrency("shortfallCost"),
    unpricedShortfalls: one("unpricedShortfalls"),
    positionsShort: one("positionsShort"),
    optimisedExposure: optimisedOf(lines),
    spend: perCurrency("spend"),
    runRate: perCurrency("runRate"),
    uncoveredInstalls: one("uncoveredInstalls"),
    staleComputers: one("staleComputers"),
  };
}
