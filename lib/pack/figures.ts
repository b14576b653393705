/**
 * Headline figures of a run and what moved since the previous run of the same pack: every
 * numeric fact of every report, every section total (per currency, never summed across), the
 * rows a report marks as tracked (for example the shortfall per application) and the rows the
 * headline reads (`HEADLINE_ROWS`: license-optimization's per-currency purchase need).
 *
 * @module
 */

import type { RenderDocument } from "../render/renderer.ts";
import type { ReportDefinition, TrackedFigure } from "../report/model.ts";
import { HEADLINE_ROWS } from "./headline.ts";

/** One figure of a run. */
export interface Figure {
  /** Stable key across runs: report id, kind and label. */
  readonly key: string;
  /** The report's id. */
  readonly report: string;
  /** What the figure is, for a person. */
  readonly label: string;
  /** The value. */
  readonly value: number;
  /** `currency`, `integer`, `number` or `percent`. */
  readonly type: string;
  /** The currency code of a currency figure. */
  readonly currency?: string;
}

/** A figure compared with the previous run. */
export interface Change extends Figure {
  /** The previous value (null when the figure is new). */
  readonly previous: number | null;
  /** value − previous (null when new). */
  readonly delta: number | null;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The report's own tracked rows, then the headline's rows of it that the report does not track. */
function trackedOf(definition: Pick<ReportDefinition, "id" | "tracked">): TrackedFigure[] {
  const own = definition.tracked ?? [];
  const id = (t: TrackedFigure) => JSON.stringify([t.section, t.value, t.key, t.currencyKey]);
  const seen = new Set(own.map(id));
  return [...own, ...(HEADLINE_ROWS[definition.id] ?? []).filter((t) => !seen.has(id(t)))];
}

/**
 * Collects the figures of one rendered report (its spooled sections must still be readable).
 *
 * @example
 * ```ts ignore
 * import { collectFigures } from "./figures.ts";
 * const figures = await collectFigures(definition, document);
 * ```
 */
export async function collectFigures(
  definition: Pick<ReportDefinition, "id" | "tracked">,
  doc: RenderDocument,
): Promise<Figure[]> {
  const id = definition.id;
  const out: Figure[] = [];
  const factValues = new Map<string, number>();
  for (const fact of doc.summary) {
    if (typeof fact.value !== "number" || !Number.isFinite(fact.value)) continue;
    const label = fact.currency && !fact.label.includes(fact.currency)
      ? `${fact.label} (${fact.currency})`
      : fact.label;
    // One figure once: the same fact stated by two sections is one figure; two different
    // values under one label are told apart by their order, so neither hides the other.
    const seen = factValues.get(label);
    if (seen === round(fact.value)) continue;
    const key = seen === undefined ? `${id}|fact|${label}` : `${id}|fact|${label}#${out.length}`;
    factValues.set(label, round(fact.value));
    out.push({
      key,
      report: id,
      label,
      value: round(fact.value),
      type: fact.type,
      ...(fact.currency ? { currency: fact.currency } : {}),
    });
  }
  for (const section of doc.sections) {
    for (const [line, sums] of Object.entries(section.totals)) {
      for (const [key, value] of Object.entries(sums)) {
        const column = section.columns.find((c) => c.key === key);
        if (!column || typeof value !== "number") continue;
        // A converted column's totals are in its one currency on every line.
        const currency = column.currency ?? (section.totalsSpec?.perCurrency ? line : undefined);
        const label = `${section.title}: ${column.label}${line !== "All" ? ` (${line})` : ""}`;
        out.push({
          key: `${id}|total|${section.id}|${key}|${line}`,
          report: id,
          label,
          value: round(value),
          type: column.type,
          ...(currency ? { currency } : {}),
        });
      }
    }
  }
  for (const tracked of trackedOf(definition)) {
    const section = doc.sections.find((s) => s.id === tracked.section);
    if (!section) continue;
    const column = section.columns.find((c) => c.key === tracked.value);
    for await (const row of section.rows()) {
      const value = row[tracked.value];
      if (typeof value !== "number") continue;
      const name = (typeof tracked.key === "string" ? [tracked.key] : tracked.key)
        .map((k) => row[k]).filter((v) => v !== null && v !== undefined && v !== "").join(" ");
      const currency = tracked.currencyKey ? String(row[tracked.currencyKey] ?? "") : "";
      // A row named by its currency alone (a per-currency summary) is labelled once by it.
      const named = name && name !== currency ? `: ${name}` : "";
      const label = `${tracked.label}${named}${currency ? ` (${currency})` : ""}`;
      out.push({
        key: `${id}|row|${tracked.section}|${tracked.value}|${name}|${currency}`,
        report: id,
        label,
        value: round(value),
        type: column?.type ?? "number",
        ...(currency ? { currency } : {}),
      });
    }
  }
  return out;
}

/**
 * Figure labels renamed since earlier runs, per report: the earlier label and today's. A fact's
 * key is renamed with its currency suffixes (`… (EUR)`, `…, all currencies (EUR)`), a total's
 * column key with it, so an earlier run compares with today's and trends read it. This is the
 * one place a rename is undone: summary.json's `headline` (whose keys were renamed too:
 * `spend` → `costToDate`, `optimisedExposure` → `remainingPurchaseNeed`) is never read back;
 * what moved, trends and the portfolio derive every headline figure from `figures`.
 */
export const RENAMED_FIGURES: readonly {
  readonly report: string;
  readonly from: string;
  readonly to: string;
  /** The column key of the figure's totals, when it has them. */
  readonly column?: readonly [string, string];
}[] = [
  {
    report: "license-cost-summary",
    from: "Total cost",
    to: "Cost to date",
    column: ["totalCost", "costToDate"],
  },
  { report: "license-cost-summary", from: "Licenses", to: "Licenses in scope" },
  { report: "renewals", from: "Annual cost of renewals", to: "Annual cost of renewals due" },
  {
    report: "license-position",
    from: "Disagreements with entitlement states",
    to: "Differences from entitlement states",
  },
];

/** A figure of an earlier run under today's key and label (see {@link RENAMED_FIGURES}). */
function renamed<F extends Figure>(f: F): F {
  for (const r of RENAMED_FIGURES) {
    if (f.report !== r.report) continue;
    const fact = `${r.report}|fact|${r.from}`;
    const rest = f.key.startsWith(fact) ? f.key.slice(fact.length) : null;
    if (rest !== null && (rest === "" || rest.startsWith(" (") || rest.startsWith(", "))) {
      return {
        ...f,
        key: `${r.report}|fact|${r.to}${rest}`,
        label: r.to + f.label.slice(r.from.length),
      };
    }
    const [was, is] = r.column ?? [];
    if (was && f.key.startsWith(`${r.report}|total|`) && f.key.includes(`|${was}|`)) {
      return { ...f, key: f.key.replace(`|${was}|`, `|${is}|`) };
    }
  }
  return f;
}

/**
 * Figures of an earlier run with today's names (see {@link RENAMED_FIGURES}).
 *
 * @example
 * ```ts
 * import { currentFigures } from "./figures.ts";
 * const [f] = currentFigures([{
 *   key: "license-cost-summary|fact|Total cost (EUR)", report: "license-cost-summary",
 *   label: "Total cost (EUR)", value: 1, type: "currency", currency: "EUR",
 * }]);
 * console.log(f.key, f.label); // "license-cost-summary|fact|Cost to date (EUR)" "Cost to date (EUR)"
 * ```
 */
export function currentFigures<F extends Figure>(figures: readonly F[]): F[] {
  return figures.map(renamed);
}

/**
 * Compares this run's figures with the previous run's: every current figure with its previous
 * value and delta, and the figures that disappeared (value 0).
 *
 * @example
 * ```ts
 * import { compareFigures } from "./figures.ts";
 * const a = [{ key: "k", report: "r", label: "Total", value: 10, type: "integer" }];
 * const b = [{ key: "k", report: "r", label: "Total", value: 12, type: "integer" }];
 * console.log(compareFigures(b, a)[0].delta); // 2
 * ```
 */
export function compareFigures(
  current: readonly Figure[],
  previous: readonly Figure[] | null,
): Change[] {
  const before = new Map(currentFigures(previous ?? []).map((f) => [f.key, f]));
  const changes: Change[] = current.map((f) => {
    const p = before.get(f.key);
    before.delete(f.key);
    return { ...f, previous: p ? p.value : null, delta: p ? round(f.value - p.value) : null };
  });
  if (previous) {
    for (const gone of before.values()) {
      changes.push({ ...gone, value: 0, previous: gone.value, delta: round(-gone.value) });
    }
  }
  return changes;
}
