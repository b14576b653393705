/**
 * The figures a CFO reads first, picked from a run's figures in one place (the pack summary and
 * the trends report both use it): compliance exposure (shortfall cost per currency, unpriced
 * shortfalls, positions short), cost to date and annual run rate per currency, uncovered
 * installs and stale computers. Money is kept per currency, never added or compared across currencies.
 *
 * @module
 */

import type { Change, Figure } from "./figures.ts";

/** The headline figures of one run (null: the pack has no report that gives it). */
export interface Headline {
  /** Shortfall cost per currency (license-position "Shortfall cost (CUR)"). */
  readonly shortfallCost: Readonly<Record<string, number>>;
  /** Positions short with no price (license-position "Unpriced shortfalls"). */
  readonly unpricedShortfalls: number | null;
  /** Positions short (license-position "Positions short"). */
  readonly positionsShort: number | null;
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
    spend: perCurrency("spend"),
    runRate: perCurrency("runRate"),
    uncoveredInstalls: one("uncoveredInstalls"),
    staleComputers: one("staleComputers"),
  };
}
