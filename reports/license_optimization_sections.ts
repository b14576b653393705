/**
 * The sections of the license-optimization report: declarations only, their rows from
 * `optimization_rows.ts`.
 *
 * @module
 */

import { date, integer, money, text, whenPositive } from "../lib/report/columns.ts";
import type { Section } from "../lib/report/model.ts";
import { distinctNames } from "../lib/fs/safe_name.ts";
import { APPLICATION_METRIC } from "./license_position_sections.ts";
import type {
  actionRows,
  currencyRows,
  OptimizedPositionRow,
} from "../lib/sam/optimization_rows.ts";

/**
 * The positions section: each short position before and after, most money saved first.
 *
 * @example
 * ```ts
 * import { positionsSection } from "./license_optimization_sections.ts";
 * console.log(positionsSection([], 90, "").id); // "positions"
 * ```
 */
export function positionsSection(
  rows: readonly OptimizedPositionRow[],
  idleDays: number,
  scope: string,
): Section {
  return {
    id: "positions",
    title: `Optimised license position${scope}`,
    description: "Every position short in the effective license position (the shortfall before " +
      "is license-position's), after harvesting installs unused for " +
      `${idleDays} days or more (each frees what its metric tracking counts), and after ` +
      "reassigning surplus licenses (another organisation's, or another version's or edition's " +
      "where the licenses carry downgrade or cross-edition rights). Money at the ELP's unit " +
      "price; unpriced positions have no money.",
    columns: [
      ...APPLICATION_METRIC,
      integer("shortfallBefore", "Shortfall before", {
        emphasis: whenPositive("shortfallBefore", "bad"),
      }),
      integer("installsHarvested", "Installs removed"),
      integer("unitsHarvested", "Units freed"),
      integer("shortfallAfterHarvest", "Shortfall after harvest"),
      integer("unitsReassigned", "Units reassigned"),
      integer("shortfallAfter", "Shortfall after", {
        emphasis: whenPositive("shortfallAfter", "bad"),
      }),
      text("outcome", "Outcome", { width: 12 }),
      money("unitPrice", "Unit price"),
      money("costBefore", "Shortfall cost before", { width: 14 }),
      money("costAfter", "Remaining purchase need", { width: 14 }),
      money("moneySaved", "Money saved", { width: 14 }),
      text("currency", "Currency", { width: 8 }),
    ],
    rows,
    emptyText: "No position is short: nothing to optimise.",
    facts: [
      {
        label: "Remaining purchase need",
        sum: "costAfter",
        perCurrency: "currency",
        cover: true,
      },
      { label: "Money saved", sum: "moneySaved", perCurrency: "currency", cover: true },
      { label: "Positions short before", count: true, cover: true },
      {
        label: "Positions closed",
        count: true,
        where: (r) => r.outcome === "Closed",
        cover: true,
      },
      {
        label: "Unpriced positions (no money)",
        count: true,
        where: (r) => r.currency === null,
        cover: true,
      },
    ],
  };
}

/**
 * The per-currency summary, and one section per currency listing what is still to buy.
 *
 * @example
 * ```ts
 * import { purchaseSections } from "./license_optimization_sections.ts";
 * console.log(purchaseSections([], []).map((s) => s.id)); // ["currencies"]
 * ```
 */
export function purchaseSections(
  currencies: ReturnType<typeof currencyRows>,
  positions: readonly OptimizedPositionRow[],
): Section[] {
  const parts = distinctNames(currencies.map((c) => c.currency));
  return [
    {
      id: "currencies",
      title: "Purchase need per currency",
      description: "Per currency: positions short before, closed and still short; the ELP's " +
        "shortfall cost, the money harvest and reallocation save, and what is left to buy.",
      columns: [
        text("currency", "Currency", { width: 8 }),
        integer("short", "Positions short"),
        integer("closed", "Closed"),
        integer("stillShort", "Still short"),
        money("costBefore", "Shortfall cost before", { width: 14 }),
        money("moneySaved", "Money saved", { width: 14 }),
        money("costAfter", "Remaining purchase need", { width: 14 }),
      ],
      rows: currencies,
      // Money in different currencies is added only once converted to a reporting currency.
      totals: {
        sum: ["short", "closed", "stillShort"],
        converted: ["costBefore", "moneySaved", "costAfter"],
      },
      emptyText: "No priced shortfall.",
    },
    ...currencies.map((c) => ({
      id: `purchase-${parts.get(c.currency)}`,
      title: `Remaining purchase need (${c.currency})`,
      description: `Positions still short after every step, priced in ${c.currency} only.`,
      columns: [
        ...APPLICATION_METRIC,
        integer("shortfallAfter", "Shortfall after"),
        money("unitPrice", "Unit price"),
        money("costAfter", "Remaining purchase need", { width: 14 }),
      ],
      rows: positions.filter((p) => p.currency === c.currency && p.shortfallAfter > 0),
      totals: { sum: ["costAfter"], perCurrency: "currency" },
      emptyText: `Nothing left to buy in ${c.currency}.`,
    })),
  ];
}

/**
 * The actions section: the work list, one row per install to remove or license to reassign.
 *
 * @example
 * ```ts
 * import { actionsSection } from "./license_optimization_sections.ts";
 * console.log(actionsSection([]).id); // "actions"
 * ```
 */
export function actionsSection(rows: ReturnType<typeof actionRows>): Section {
  return {
    id: "actions",
    title: "Actions",
    description: "One row per step, most money saved first: installs to remove (a step that " +
      "removes several installs together shows its units and money on its first row) and " +
      "license units to reassign, with ids for evidence.",
    columns: [
      integer("step", "Step"),
      text("action", "Action", { width: 22 }),
      text("application", "Application", { width: 24 }),
      text("applicationId", "Application id", { width: 10 }),
      text("metric", "Metric", { width: 14 }),
      text("computer", "Computer", { width: 16 }),
      text("computerId", "Computer id", { width: 10 }),
      text("organization", "Organization", { width: 16 }),
      date("lastUsed", "Last used"),
      integer("idleDays", "Days unused"),
      integer("unitsFreed", "Units freed"),
      text("license", "License", { width: 12 }),
      text("from", "From", { width: 16 }),
      text("to", "To", { width: 16 }),
      integer("units", "Units"),
      money("moneySaved", "Money saved", { width: 18 }),
      text("currency", "Currency", { width: 8 }),
      text("note", "Note", { width: 22 }),
    ],
    rows,
    emptyText: "No action: no short position has idle installs or reassignable surplus.",
    facts: [
      { label: "Installs to remove", count: true, where: (r) => r.action === "Remove install" },
      { label: "Reassignments", count: true, where: (r) => r.action !== "Remove install" },
    ],
  };
}
