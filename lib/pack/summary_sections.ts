/**
 * The sections of the pack summary view (see `summary_view.ts`), each a heading, paragraphs and
 * tables of plain strings with labelled columns: exposure, top risks, software cost (cost to date
 * beside the annual run rate), estate, what moved (in totals, then row by row when the pack has a
 * diff: `summary_diff.ts`), and the reports with their scope. With a
 * reporting currency, each converted all-currency total sits right after the per-currency figures
 * it converts (the reports' own facts, see `headline.ts`).
 *
 * @module
 */

import {
  convertedOf,
  type ConvertedPart,
  type HeadlineFigure,
  headlineFigures,
  purchaseNeedOf,
  REMAINING_PURCHASE_NEED,
} from "./headline.ts";
import { reportScope } from "../report/scope.ts";
import { readableJson } from "../render/format.ts";
import { filterStatement } from "../report/scope.ts";
import type {
  SummaryFacts,
  SummaryView,
  ViewCell,
  ViewSection,
  ViewTable,
} from "./summary_view.ts";
import { formatValue } from "./summary_view.ts";
import { rowDiffSection } from "./summary_diff.ts";

/** The heading of the cost-to-date column. */
export const COST_TO_DATE = "Cost to date (purchase + maintenance + support since purchase)";
/** The heading of the run-rate column. */
export const RUN_RATE = "Annual run rate (maintenance + support + subscriptions per year)";
/** How many unpriced shortfalls are named (the rest are counted). */
export const UNPRICED_NAMED = 10;

const cell = (text: string, numeric = false, tone: "" | "bad" | "good" = ""): ViewCell => ({
  text,
  numeric,
  bad: tone === "bad",
  good: tone === "good",
});
const head = (...labels: string[]) => labels.map((l, i) => cell(l, i > 0));
const table = (
  columns: ViewCell[],
  rows: ViewCell[][],
  caption = "",
  after: string[] = [],
): ViewTable => ({ caption, columns, rows, after });
const section = (
  id: string,
  heading: string,
  parts: Partial<Omit<ViewSection, "id" | "heading">>,
): ViewSection => ({ id, heading, intro: [], tables: [], notes: [], link: null, ...parts });

/** What the section builders share. */
interface Ctx {
  readonly facts: SummaryFacts;
  readonly locale: string;
  readonly lines: readonly HeadlineFigure[];
  readonly comparedWith: string | null;
}

const of = (ctx: Ctx, ...names: string[]) => ctx.lines.filter((l) => names.includes(l.name));
/** The named lines with, in place, the converted totals of the parts given. */
const withConverted = (ctx: Ctx, names: string[], parts: ConvertedPart[]) =>
  ctx.lines.filter((l) =>
    names.includes(l.name) ||
    (l.name === "converted" && parts.includes(l.part as ConvertedPart))
  );
const value = (ctx: Ctx, l: HeadlineFigure, v = l.value, signed = false) =>
  formatValue(v, l, ctx.locale, signed);

function changeCell(ctx: Ctx, l: HeadlineFigure): ViewCell {
  if (l.delta === null) return cell(ctx.comparedWith ? "new" : "", true);
  return cell(value(ctx, l, l.delta, true), true, l.delta > 0 ? "bad" : l.delta < 0 ? "good" : "");
}

/** A Figure | Now | Change since … table of headline lines (no change column when not compared). */
function figureTable(ctx: Ctx, lines: readonly HeadlineFigure[]): ViewTable {
  const change = ctx.comparedWith ? [`Change since ${ctx.comparedWith}`] : [];
  return table(
    head("Figure", "Now", ...change),
    lines.map((l) => [
      cell(l.label),
      cell(value(ctx, l), true),
      ...(ctx.comparedWith ? [changeCell(ctx, l)] : []),
    ]),
  );
}

/**
 * Per currency, the remaining purchase need beside the ELP's shortfall cost, as
 * license-optimization's `currencies` section states it (none when the pack has no such report).
 */
function purchaseNeedLines(ctx: Ctx): string[] {
  const money = (v: number, currency: string) =>
    formatValue(v, { type: "currency", currency }, ctx.locale);
  const count = (n: number) => formatValue(n, { type: "integer" }, ctx.locale);
  const each = Object.entries(purchaseNeedOf(ctx.lines)).map(([code, o]) =>
    `${REMAINING_PURCHASE_NEED}: ${
      money(o.remainingPurchaseNeed, code)
    } after harvest and reallocation ` +
    `(ELP ${money(o.costBefore, code)}; ${money(o.moneySaved, code)} saved; ` +
    `${count(o.closed)} of ${count(o.short)} positions closed)`
  );
  const all = convertedOf(ctx.lines);
  if (!each.length || all?.remainingPurchaseNeed == null) return each;
  const saved = all.moneySaved === null ? "" : ` (${money(all.moneySaved, all.currency)} saved)`;
  return [
    ...each,
    `${REMAINING_PURCHASE_NEED}, all currencies (${all.currency}): ` +
    `${money(all.remainingPurchaseNeed, all.currency)} after harvest and reallocation${saved}`,
  ];
}

function exposureSection(ctx: Ctx): ViewSection | null {
  const lines = withConverted(
    ctx,
    ["shortfallCost", "unpricedShortfalls", "positionsShort"],
    ["shortfallCost"],
  );
  const needs = purchaseNeedLines(ctx);
  if (!lines.some((l) => l.key.startsWith("license-position|"))) {
    // A pack without the position (a finance pack, say) leads with what it measured.
    if (!needs.length) return null;
    return section("exposure", "Compliance exposure", {
      intro: ["Not measured: this pack has no license-position report.", ...needs],
    });
  }
  const unpriced = ctx.facts.unpriced ?? [];
  const named = unpriced.slice(0, UNPRICED_NAMED);
  const count = (n: number) => formatValue(n, { type: "integer" }, ctx.locale);
  return section("exposure", "Compliance exposure", {
    tables: [
      { ...figureTable(ctx, lines), after: needs },
      ...(named.length
        ? [table(
          [cell("Application"), cell("Metric"), cell("Short", true)],
          named.map((u) => [cell(u.application), cell(u.metric), cell(count(u.shortfall), true)]),
          "Unpriced shortfalls (no price known: their cost is unknown and in no total)",
        )]
        : []),
    ],
    notes: unpriced.length > named.length
      ? [
        `${count(unpriced.length - named.length)} more unpriced shortfalls: license-position, ` +
        "section Unpriced shortfalls.",
      ]
      : [],
  });
}

function risksSection(ctx: Ctx): ViewSection | null {
  const risks = Object.entries(ctx.facts.risks ?? {});
  if (!risks.length) return null;
  const n = (v: number) => formatValue(v, { type: "integer" }, ctx.locale);
  return section("risks", "Top risks by shortfall cost", {
    tables: risks.map(([currency, rows]) =>
      table(
        [
          cell(`Application (${currency})`),
          cell("Metric"),
          cell("Short", true),
          cell("Shortfall cost", true),
        ],
        rows.map((r) => [
          cell(r.application),
          cell(r.metric),
          cell(n(r.shortfall), true),
          cell(formatValue(r.shortfallCost, { type: "currency", currency }, ctx.locale), true),
        ]),
      )
    ),
  });
}

function costSection(ctx: Ctx): ViewSection | null {
  const spend = of(ctx, "costToDate"), rate = of(ctx, "runRate");
  if (!spend.length && !rate.length) return null;
  const codes = [...new Set([...spend, ...rate].map((l) => l.currency!))].sort();
  const shown = (lines: readonly HeadlineFigure[], code: string, missing: string) => {
    const l = lines.find((x) => x.currency === code);
    return l ? value(ctx, l) : missing;
  };
  // The run rate has a row per currency with a recurring cost: absent is none, 0 a year.
  const zero = (code: string) => formatValue(0, { type: "currency", currency: code }, ctx.locale);
  const all = convertedOf(ctx.lines);
  const converted = all && (all.costToDate !== null || all.runRate !== null) ? all : null;
  const money = (v: number | null) =>
    v === null
      ? ""
      : formatValue(v, { type: "currency", currency: converted!.currency }, ctx.locale);
  return section("cost", "Software cost", {
    tables: [table(
      head("Currency", COST_TO_DATE, ...(rate.length ? [RUN_RATE] : [])),
      [
        ...codes.map((code) => [
          cell(code),
          cell(shown(spend, code, "no cost summary"), true),
          ...(rate.length ? [cell(shown(rate, code, zero(code)), true)] : []),
        ]),
        ...(converted
          ? [[
            cell(`All currencies (${converted.currency})`),
            cell(money(converted.costToDate), true),
            ...(rate.length ? [cell(money(converted.runRate), true)] : []),
          ]]
          : []),
      ],
    )],
    notes: [
      "The cost to date is each license's purchase plus the maintenance and support the " +
      "service has accumulated since its purchase; the annual run rate is what the estate " +
      "costs per year to keep (license-cost-summary, section Annual run rate, says what it " +
      "leaves out). " +
      (converted
        ? `The all-currencies row adds every amount converted to ${converted.currency} at the ` +
          "rates stated above, each to the cent; the rows above it stay in their own currency."
        : "Currencies are never added together."),
    ],
  });
}

function estateSection(ctx: Ctx): ViewSection | null {
  const lines = of(ctx, "uncoveredInstalls", "staleComputers");
  return lines.length ? section("estate", "Estate", { tables: [figureTable(ctx, lines)] }) : null;
}

function movedSection(ctx: Ctx): ViewSection {
  const { comparison } = ctx.facts;
  const notes = comparison?.notes.filter((n) => n !== "no earlier finished run") ?? [];
  // Of license-optimization only the remaining purchase need is a headline line here; the
  // optimisation beside it (the ELP's cost, money saved, positions) counts among the other figures.
  const shown = ctx.lines.filter((l) =>
    l.name !== "optimisation" && (l.name !== "converted" || l.part !== "moneySaved")
  );
  const headlineKeys = new Set(shown.map((l) => l.key));
  const other =
    ctx.facts.changes.filter((c) => !headlineKeys.has(c.key) && c.delta !== null && c.delta !== 0)
      .length;
  const tail = other ? [`${other} other figures moved; every figure is in summary.json.`] : [];
  if (!ctx.comparedWith) {
    return section("moved", "What moved", {
      intro: [`Not compared${notes.length ? "." : ": no earlier run of this pack."}`],
      notes: [...notes, ...tail],
    });
  }
  const moved = shown.filter((l) => l.delta !== null && l.delta !== 0);
  const rates = moved.some((l) => l.name === "converted")
    ? [
      "A total in all currencies also moves when the rates move (this run's rates are stated above).",
    ]
    : [];
  return section("moved", `What moved since ${ctx.comparedWith}`, {
    intro: moved.length ? [] : ["No headline figure moved."],
    tables: moved.length
      ? [table(
        head("Figure", `Before (${ctx.comparedWith})`, "Now", `Change since ${ctx.comparedWith}`),
        moved.map((l) => [
          cell(l.label),
          cell(l.previous === null ? "" : value(ctx, l, l.previous), true),
          cell(value(ctx, l), true),
          changeCell(ctx, l),
        ]),
      )]
      : [],
    notes: [...rates, ...notes, ...tail],
  });
}

/**
 * A report's scope for a person: the parameters set (given or by default) with their values,
 * and the filter.
 *
 * @example
 * ```ts
 * import { scopeText } from "./summary_sections.ts";
 * const definition = {
 *   params: { top: { type: "integer" as const, description: "How many", default: 10 } },
 *   filterResource: "License",
 * };
 * console.log(scopeText(definition, { top: 10 })); // "top = 10 (default); filter: none (every license)"
 * ```
 */
export function scopeText(
  definition: Parameters<typeof reportScope>[0] | undefined,
  params: Readonly<Record<string, unknown>>,
  filter?: string,
): string {
  const show = (v: unknown) =>
    v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === "string" ? v : readableJson(v);
  if (!definition) {
    const given = Object.entries(params).filter(([, v]) => v !== undefined && v !== null);
    const list = given.map(([k, v]) => `${k} = ${show(v)}`);
    return [...list, `filter: ${filter ?? "none"}`].join("; ");
  }
  const scope = reportScope(definition, params, filter);
  const set = scope.parameters.filter((p) => p.origin !== "unset").map((p) =>
    `${p.name} = ${show(p.value)}${p.origin === "default" ? " (default)" : ""}`
  );
  const statement = filterStatement(scope);
  const filterText = statement === undefined
    ? []
    : [`filter: ${scope.filter ?? statement.replace(/^None: /, "none (") + ")"}`];
  const text = [...set, ...filterText].join("; ");
  return text || "no parameters, no filter";
}

function reportsSection(ctx: Ctx): ViewSection {
  const { manifest, titles, definitions, delivery } = ctx.facts;
  const rows = manifest.reports.map((r) => [
    cell(titles[r.id] ?? r.id),
    cell(r.status === "ok" ? "ok" : `${r.status}${r.error ? `: ${r.error}` : ""}`, false),
    cell(scopeText(definitions?.find((d) => d.id === r.id), r.params, r.filter)),
  ]);
  const files = delivery
    ? [
      `Attached: ${delivery.attached.join(", ") || "none"}`,
      ...(delivery.linked.length
        ? [
          `Not attached (together over the ${delivery.cap} limit), in the evidence folder: ` +
          delivery.linked.join(", "),
        ]
        : []),
      "manifest.json in the evidence folder lists every file with its SHA-256.",
      ...(delivery.link ? [] : [
        `Evidence folder on the machine that ran the pack (no published address is set for ` +
        `it, so it is not linked): ${delivery.folder}`,
      ]),
    ]
    : [];
  return section("reports", "Reports", {
    tables: [table([cell("Report"), cell("Status"), cell("Scope (parameters and filter)")], rows)],
    notes: files,
    link: delivery?.link ? { label: "Evidence folder", href: delivery.link } : null,
  });
}

/**
 * The sections of a run's summary, in display order.
 *
 * @example
 * ```ts ignore
 * import { summarySections } from "./summary_sections.ts";
 * const sections = summarySections(facts, "2026-11-17 06:00 UTC");
 * ```
 */
export function summarySections(
  facts: SummaryFacts,
  comparedWith: string | null,
): SummaryView["sections"] {
  const ctx: Ctx = {
    facts,
    locale: facts.locale ?? "en-US",
    lines: headlineFigures(facts.changes),
    comparedWith,
  };
  return [
    exposureSection(ctx),
    risksSection(ctx),
    costSection(ctx),
    estateSection(ctx),
    movedSection(ctx),
    rowDiffSection(facts.rowDiff, comparedWith),
    reportsSection(ctx),
  ].filter((s): s is ViewSection => s !== null);
}
