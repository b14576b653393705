/**
 * Headline facts derived from a section's rows: a report declares what each headline is — a
 * count, a distinct count, a sum (per currency for money), a minimum or maximum, or a ratio of
 * two sums — over which section's rows, and the runner computes it while those very rows pass
 * on their way to the renderers. One computation per figure, so a headline can never disagree
 * with the table it summarises.
 *
 * @module
 */

import type { CellValue, Column, ColumnType, Fact, Row, Section } from "./model.ts";
import { ReportDefinitionError } from "./model.ts";
import { compareText } from "../query/sort.ts";
import { toMinorUnits } from "../query/money.ts";

/** What every fact declares. */
export interface FactBase {
  /** What the figure is (per-currency facts get ` (EUR)` appended). */
  readonly label: string;
  /**
   * Only rows for which this holds. It sees each row as its table prints it (the columns' keys
   * and the currency code of each amount), so a headline is always recomputable from the table.
   */
  readonly where?: (row: Row) => boolean;
  /**
   * A figure the reader decides on: shown on the cover (a per-currency fact in every currency),
   * in declaration order. A report that marks none shows its first four facts there.
   */
  readonly cover?: boolean;
}

/**
 * A headline fact over a section's rows:
 * - `{ count: true }` rows (with `where`: rows where it holds);
 * - `{ distinct: key }` distinct non-empty values of a column;
 * - `{ sum: key }` the column's sum (0 over no rows, blank when every row's value is blank); for
 *   a currency column give `perCurrency` (the row key of the code): one fact per currency that
 *   has an amount, in code order, never across currencies;
 * - `{ min: key }` / `{ max: key }` the column's smallest / largest value;
 * - `{ ratio: [a, b] }` the sum of column `a` over the sum of column `b` (a percent; null when
 *   `b` sums to 0).
 */
export type SectionFact =
  & FactBase
  & (
    | { readonly count: true }
    | { readonly distinct: string }
    | { readonly sum: string; readonly perCurrency?: string; readonly unknown?: UnknownRows }
    | { readonly min: string }
    | { readonly max: string }
    | { readonly ratio: readonly [string, string] }
  );

/**
 * What a sum over rows some of which may have no value adds, named in its label so the label
 * says exactly what is computed, run after run (a label is the figure's name: trends and a pack's
 * "change since" follow a figure by it, so it never carries counts). The rows it leaves out are
 * the report's to count in a fact of their own ("Without hardware data").
 */
export interface UnknownRows {
  /** The rows the sum adds: "hosts with hardware data". */
  readonly counted: string;
}

/**
 * The label of a sum that declares {@link UnknownRows}: the declared label with the rows it adds.
 *
 * @example
 * ```ts
 * import { partialSumLabel } from "./facts.ts";
 * console.log(partialSumLabel("Per-core requirement", { counted: "hosts with hardware data" }));
 * // "Per-core requirement (hosts with hardware data)"
 * console.log(partialSumLabel("Cores")); // "Cores"
 * ```
 */
export function partialSumLabel(label: string, unknown?: UnknownRows): string {
  return unknown ? `${label} (${unknown.counted})` : label;
}

/** A fact of the report's `facts` list: a {@link SectionFact} naming the section it reads. */
export type FactSpec = SectionFact & {
  /** The id of the section whose rows the fact reads. */
  readonly section: string;
};

/** A running fact: sees rows, then yields its figures. */
interface FactFold {
  add(row: Row): void;
  facts(): Fact[];
}

const isNumber = (v: CellValue | undefined): v is number =>
  typeof v === "number" && Number.isFinite(v);

function columnType(section: Section, key: string, spec: SectionFact): Column {
  const column = section.columns.find((c) => c.key === key);
  if (!column) {
    throw new ReportDefinitionError(
      `fact "${spec.label}" reads column "${key}", which section "${section.id}" does not have ` +
        "(a headline reads only the columns its table prints)",
    );
  }
  return column;
}

/**
 * The row keys a reader of the section's table sees: its columns' keys, and the key holding the
 * currency code of each money column (the code printed beside the amount, or in its header or
 * section title).
 */
function printedKeys(section: Section): string[] {
  const keys = new Set(section.columns.map((c) => c.key));
  for (const c of section.columns) {
    if (c.type === "currency") keys.add(c.currencyKey ?? "currency");
  }
  return [...keys];
}

/** The row as its table prints it: the printed keys only, so a headline cannot rest on others. */
function printed(row: Row, keys: readonly string[]): Row {
  const out: Row = {};
  for (const key of keys) if (key in row) out[key] = row[key];
  return out;
}

function countFold(spec: SectionFact, value?: (row: Row) => CellValue): FactFold {
  let n = 0;
  const seen = new Set<unknown>();
  return {
    add: (row) => {
      if (!value) return void n++;
      const v = value(row);
      if (v === null || v === undefined || v === "") return;
      seen.add(v instanceof Date ? v.getTime() : v);
    },
    facts: () => [{ label: spec.label, value: value ? seen.size : n, type: "integer" }],
  };
}

function sumFold(
  spec: SectionFact & { sum: string; perCurrency?: string; unknown?: UnknownRows },
  column: Column,
): FactFold {
  const money = column.type === "currency";
  if (money && !spec.perCurrency) {
    throw new ReportDefinitionError(
      `fact "${spec.label}" sums money column "${column.key}": it needs perCurrency`,
    );
  }
  const sums = new Map<string, number>();
  let rows = 0;
  return {
    add: (row) => {
      rows++;
      const v = row[spec.sum];
      if (!isNumber(v)) return;
      const code = spec.perCurrency ? String(row[spec.perCurrency] ?? "") : "";
      sums.set(code, (sums.get(code) ?? 0) + (money ? toMinorUnits(v)! : v));
    },
    facts: () => {
      if (!spec.perCurrency) {
        // No rows: 0. Rows, every one blank (unknown or not applicable): blank, never 0.
        const value = sums.get("") ?? (rows > 0 ? null : 0);
        // A sum over rows that may lack a value names the rows it adds.
        const label = partialSumLabel(spec.label, spec.unknown);
        return [{ label, value, type: column.type }];
      }
      return [...sums.keys()].sort(compareText).map((code) => ({
        label: `${spec.label} (${code})`,
        value: money ? sums.get(code)! / 100 : sums.get(code)!,
        type: column.type,
        ...(money ? { currency: code } : {}),
      }));
    },
  };
}

function extremeFold(spec: SectionFact, column: Column, key: string, sign: 1 | -1): FactFold {
  let best: number | Date | null = null;
  const score = (v: number | Date) => (v instanceof Date ? v.getTime() : v) * sign;
  return {
    add: (row) => {
      const v = row[key];
      if (!(isNumber(v) || (v instanceof Date && !isNaN(v.getTime())))) return;
      if (best === null || score(v) > score(best)) best = v;
    },
    facts: () => [{ label: spec.label, value: best, type: column.type }],
  };
}

function ratioFold(spec: SectionFact, [a, b]: readonly [string, string]): FactFold {
  let top = 0;
  let bottom = 0;
  return {
    add: (row) => {
      if (isNumber(row[a])) top += row[a] as number;
      if (isNumber(row[b])) bottom += row[b] as number;
    },
    facts: () => [{ label: spec.label, value: bottom ? top / bottom : null, type: "percent" }],
  };
}

function foldOf(spec: SectionFact, section: Section): FactFold {
  if ("count" in spec) return countFold(spec);
  if ("distinct" in spec) {
    columnType(section, spec.distinct, spec);
    return countFold(spec, (row) => row[spec.distinct]);
  }
  if ("sum" in spec) return sumFold(spec, columnType(section, spec.sum, spec));
  if ("min" in spec) return extremeFold(spec, columnType(section, spec.min, spec), spec.min, -1);
  if ("max" in spec) return extremeFold(spec, columnType(section, spec.max, spec), spec.max, 1);
  for (const key of spec.ratio) columnType(section, key, spec);
  return ratioFold(spec, spec.ratio);
}

/** The type of the figure a fact yields (for documentation and checks). */
export type FactType = ColumnType;

/**
 * Computes declared facts while sections' rows pass: {@link FactsCollector.tap} wraps a
 * section's rows (every row is seen once, as the renderers see it), {@link FactsCollector.facts}
 * gives the figures in declaration order once every section was read.
 *
 * @example
 * ```ts
 * import { FactsCollector } from "./facts.ts";
 * const section = {
 *   id: "licenses",
 *   title: "Licenses",
 *   columns: [
 *     { key: "app", label: "Application", type: "text" as const },
 *     { key: "cost", label: "Cost", type: "currency" as const },
 *   ],
 *   rows: [{ app: "Visio", cost: 0.1, currency: "EUR" }, { app: "Visio", cost: 0.2, currency: "EUR" }],
 * };
 * const facts = new FactsCollector([
 *   { section: "licenses", label: "Licenses", count: true },
 *   { section: "licenses", label: "Applications", distinct: "app" },
 *   { section: "licenses", label: "Total cost", sum: "cost", perCurrency: "currency" },
 * ], [section]);
 * const seen = [];
 * for await (const row of facts.tap(section).rows) seen.push(row); // the runner spools them
 * console.log(facts.facts().map((f) => f.value)); // [2, 1, 0.3]
 * ```
 */
export class FactsCollector {
  #folds: { section: string; fold: FactFold; where: boolean }[];

  /**
   * Checks the fact specs against the sections and starts counting.
   *
   * @param specs The report's own facts, shown first, in order.
   * @param sections The report's sections (each fact's section must be among them); their own
   *   `facts` follow, in section order.
   */
  constructor(specs: readonly FactSpec[], sections: readonly Section[]) {
    const declared = sections.flatMap((s) => (s.facts ?? []).map((f) => ({ ...f, section: s.id })));
    this.#folds = [...specs, ...declared].map((spec) => {
      const section = sections.find((s) => s.id === spec.section);
      if (!section) {
        throw new ReportDefinitionError(
          `fact "${spec.label}" reads section "${spec.section}", which the report does not have`,
        );
      }
      const fold = this.#filtered(spec, foldOf(spec, section));
      return { section: spec.section, fold, where: spec.where !== undefined };
    });
  }

  #filtered(spec: SectionFact, fold: FactFold): FactFold {
    const where = spec.where;
    const facts = spec.cover
      ? () => fold.facts().map((f) => ({ ...f, cover: true }))
      : () => fold.facts();
    return { add: where ? (row) => where(row) && fold.add(row) : (row) => fold.add(row), facts };
  }

  /** The section with rows that feed this section's facts as they pass. */
  tap(section: Section): Section {
    const mine = this.#folds.filter((f) => f.section === section.id);
    if (mine.length === 0) return section;
    const folds = mine.map((f) => f.fold);
    const source = section.rows;
    // Only a `where` can read a key beyond the columns (the folds read columns by name): the
    // row is cut to what its table prints for it alone, not copied for every headline.
    const keys = mine.some((f) => f.where) ? printedKeys(section) : undefined;
    async function* rows() {
      for await (const row of source) {
        const shown = keys ? printed(row, keys) : row;
        for (const fold of folds) fold.add(shown);
        yield row;
      }
    }
    return { ...section, rows: rows() };
  }

  /** The facts, in declaration order (per-currency facts expanded in currency order). */
  facts(): Fact[] {
    return this.#folds.flatMap((f) => f.fold.facts());
  }
}

/** How many facts the cover shows of a report that marks none. */
export const DEFAULT_COVER_FACTS = 4;

/**
 * The facts a cover shows: every fact marked `cover` (a per-currency figure in every currency,
 * so no currency is left off), in order; for a report that marks none, its first
 * {@link DEFAULT_COVER_FACTS}, the last of them in every currency when it is money (a cover of
 * three shortfalls and a shortfall cost shows that cost in EUR, GBP and USD, not EUR alone).
 *
 * @example
 * ```ts
 * import { coverFacts } from "./facts.ts";
 * const facts = [
 *   { label: "Rows", value: 3, type: "integer" as const },
 *   { label: "Cost (EUR)", value: 1, type: "currency" as const, currency: "EUR", cover: true },
 *   { label: "Cost (USD)", value: 2, type: "currency" as const, currency: "USD", cover: true },
 * ];
 * console.log(coverFacts(facts).map((f) => f.label)); // ["Cost (EUR)", "Cost (USD)"]
 * const unmarked = ["A", "B", "C"].map((label) => ({ label, value: 1, type: "integer" as const }));
 * const costs = ["EUR", "GBP"].map((currency) => ({
 *   label: `Cost (${currency})`, value: 1, type: "currency" as const, currency,
 * }));
 * console.log(coverFacts([...unmarked, ...costs]).length); // 5
 * ```
 */
export function coverFacts(facts: readonly Fact[]): Fact[] {
  const marked = facts.filter((f) => f.cover);
  if (marked.length) return marked;
  let end = Math.min(facts.length, DEFAULT_COVER_FACTS);
  const last = facts[end - 1];
  const money = (f: Fact | undefined) => f?.type === "currency" && f.currency !== undefined;
  // The figure the first four end with, in its other currencies too.
  while (money(last) && money(facts[end]) && sameFigure(facts[end], last)) end++;
  return facts.slice(0, end);
}

/** Two per-currency facts of one figure ("Shortfall cost (EUR)", "Shortfall cost (USD)"). */
function sameFigure(a: Fact, b: Fact): boolean {
  return baseLabel(a).base === baseLabel(b).base;
}

/** One value of a cover tile: a fact, and what distinguishes it from the tile's others. */
export interface CoverValue {
  /** The fact. */
  readonly fact: Fact;
  /** "all currencies" for a converted total beside per-currency ones; else none. */
  readonly note?: string;
}

/** A tile of the cover: one figure, with a value per currency when it is money. */
export interface CoverTile {
  /** What the figure is (without its currency). */
  readonly label: string;
  /** Its values, in order: the all-currencies total first when there is one. */
  readonly values: readonly CoverValue[];
}

/** A per-currency fact's label without its currency: "Cost to date (EUR)" → "Cost to date". */
function baseLabel(fact: Fact): { base: string; all: boolean } {
  if (fact.type !== "currency" || !fact.currency) return { base: fact.label, all: false };
  const all = `, all currencies (${fact.currency})`;
  if (fact.label.endsWith(all)) return { base: fact.label.slice(0, -all.length), all: true };
  const one = ` (${fact.currency})`;
  return fact.label.endsWith(one)
    ? { base: fact.label.slice(0, -one.length), all: false }
    : { base: fact.label, all: false };
}

/**
 * The cover's tiles from its figures (see {@link coverFacts}): a money figure's values in every
 * currency (and its all-currencies total) share one tile, so a cover holds every currency
 * compactly; other figures have a tile each; text figures (the rates used) are left for the
 * cover's statements ({@link coverStatements}).
 *
 * @example
 * ```ts
 * import { coverTiles } from "./facts.ts";
 * const tiles = coverTiles([
 *   { label: "Cost, all currencies (EUR)", value: 3, type: "currency", currency: "EUR" },
 *   { label: "Cost (EUR)", value: 1, type: "currency", currency: "EUR" },
 *   { label: "Cost (USD)", value: 2, type: "currency", currency: "USD" },
 *   { label: "Licenses", value: 7, type: "integer" },
 * ]);
 * console.log(tiles.map((t) => [t.label, t.values.map((v) => v.note ?? v.fact.currency)]));
 * // [["Cost", ["all currencies", "EUR", "USD"]], ["Licenses", [undefined]]]
 * ```
 */
export function coverTiles(facts: readonly Fact[]): CoverTile[] {
  const tiles: { label: string; values: CoverValue[] }[] = [];
  for (const fact of facts) {
    if (fact.type === "text") continue;
    const { base, all } = baseLabel(fact);
    const money = fact.type === "currency" && fact.currency;
    const last = tiles.at(-1);
    const value = all ? { fact, note: "all currencies" } : { fact };
    if (money && last && last.label === base && last.values[0].fact.type === "currency") {
      last.values.push(value);
    } else tiles.push({ label: money ? base : fact.label, values: [value] });
  }
  return tiles;
}

/**
 * The cover's text figures (the rates a reporting currency used), for the cover's statements.
 *
 * @example
 * ```ts
 * import { coverStatements } from "./facts.ts";
 * const facts = [{ label: "Reporting currency", value: "1 EUR = 1.1 USD", type: "text" as const }];
 * console.log(coverStatements(facts).length); // 1
 * ```
 */
export function coverStatements(facts: readonly Fact[]): Fact[] {
  return facts.filter((f) => f.type === "text");
}
