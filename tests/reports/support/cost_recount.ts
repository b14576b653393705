/**
 * A reviewer's recount of a license-cost-summary JSON document, with code of its own: every
 * subtotal from the license lines printed, every total from the rows of its section, every
 * average from the purchase and quantity printed beside it, the rankings from the subtotals, and
 * the headline facts from the tables — per currency, in integer cents.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
type Json = any;

/** The cost figures of a line or subtotal, by JSON key. */
export const FIGURE_KEYS = [
  "purchaseCost",
  "currentMaintenance",
  "accumulatedMaintenance",
  "currentSupport",
  "accumulatedSupport",
  "costToDate",
] as const;

const cents = (x: number | null | undefined) =>
  x === null || x === undefined ? null : Math.round(x * 100);

/** Purchase ÷ quantity in cents, as a reader divides two printed figures. */
const average = (purchase: number | null, quantity: number | null) =>
  purchase === null || quantity === null || quantity <= 0 ? null : Math.round(purchase / quantity);

const sectionOf = (json: Json, id: string): Json => json.sections.find((s: Json) => s.id === id);

interface Recount {
  licenses: number;
  withoutCosts: number;
  costed: number;
  quantity: number;
  money: Record<string, number>;
}

/** The lines of `json` summed by `key`: costed lines' figures, every line's count. */
function recountBy(json: Json, key: (r: Json) => string): Map<string, Recount> {
  const out = new Map<string, Recount>();
  const at = (r: Json) => {
    const k = key(r);
    if (!out.has(k)) {
      out.set(k, { licenses: 0, withoutCosts: 0, costed: 0, quantity: 0, money: {} });
    }
    return out.get(k)!;
  };
  for (const r of sectionOf(json, "licenses").rows) {
    const e = at(r);
    e.licenses++;
    e.costed++;
    e.quantity += r.quantity ?? 0;
    for (const f of FIGURE_KEYS) e.money[f] = (e.money[f] ?? 0) + (cents(r[f]) ?? 0);
  }
  for (const r of sectionOf(json, "licenses-without-costs").rows) {
    const e = at(r);
    e.licenses++;
    e.withoutCosts++;
  }
  return out;
}

/** Compares one subtotal row with the recount of its lines; problems appended to `out`. */
function checkSubtotal(id: string, r: Json, e: Recount | undefined, out: string[]) {
  const name = `${id} ${r.application ?? r.vendor ?? ""} ${r.currency}`;
  if (!e) return void out.push(`${name}: no line adds up to it`);
  const want: Record<string, number | null> = {
    licenses: e.licenses,
    withoutCosts: e.withoutCosts,
    quantity: e.costed ? e.quantity : null,
  };
  for (const f of FIGURE_KEYS) want[f] = e.costed ? e.money[f] : null;
  for (const [k, v] of Object.entries(want)) {
    const got = FIGURE_KEYS.includes(k as typeof FIGURE_KEYS[number]) ? cents(r[k]) : r[k];
    if (got !== v) out.push(`${name} ${k}: printed ${got}, lines give ${v}`);
  }
}

/** Every printed average is the printed purchase ÷ the printed quantity of its row. */
function checkAverages(json: Json, out: string[]) {
  for (const s of json.sections) {
    if (!s.columns.some((c: Json) => c.key === "averageCost")) continue;
    for (const r of s.rows) {
      const want = average(cents(r.purchaseCost), r.quantity);
      if (cents(r.averageCost) !== want) {
        out.push(`${s.id} ${r.licenseId ?? r.application ?? r.vendor ?? r.currency} average`);
      }
    }
  }
}

/** Every section total is the sum of its rows, per currency. */
function checkTotals(json: Json, out: string[]) {
  for (const s of json.sections) {
    for (const [code, line] of Object.entries(s.totals ?? {}) as [string, Json][]) {
      const rows = s.rows.filter((r: Json) => code === "All" || r.currency === code);
      if (line.rows !== rows.length) out.push(`${s.id} ${code}: rows`);
      for (const [k, v] of Object.entries(line)) {
        if (k === "rows") continue;
        if (k.endsWith(":known")) {
          // How many rows the total added: those with a value.
          const key = k.slice(0, -":known".length);
          const known = rows.filter((r: Json) => typeof r[key] === "number").length;
          if (known !== v) out.push(`${s.id} ${code} ${k}: ${v} ≠ ${known} rows with a value`);
          continue;
        }
        const sum = rows.reduce((n: number, r: Json) => n + (cents(r[k]) ?? 0), 0);
        if (sum !== cents(v as number)) out.push(`${s.id} ${code} ${k}: ${v} ≠ Σ rows`);
      }
    }
  }
}

/** Rankings: each row is its application's (or publisher's) subtotal, largest first. */
function checkRankings(json: Json, out: string[]) {
  const apps = sectionOf(json, "by-application").rows;
  for (const s of json.sections.filter((s: Json) => s.id.startsWith("top-applications"))) {
    s.rows.forEach((r: Json, i: number) => {
      const app = apps.find((a: Json) =>
        a.application === r.application && a.currency === r.currency
      );
      for (const k of ["licenses", "withoutCosts", "quantity", "costToDate"]) {
        if (app?.[k] !== r[k]) out.push(`${s.id} ${r.application} ${k}`);
      }
      if (r.rank !== i + 1 || (i > 0 && s.rows[i - 1].costToDate < r.costToDate)) {
        out.push(`${s.id} ${r.application}: rank`);
      }
    });
  }
  for (const s of json.sections.filter((s: Json) => s.id.startsWith("by-publisher"))) {
    for (const r of s.rows) {
      const mine = apps.filter((a: Json) =>
        (a.publisher?.trim() || "(no publisher)") === r.publisher && a.currency === r.currency &&
        a.costToDate !== null
      );
      const sum = (f: (a: Json) => number) => mine.reduce((n: number, a: Json) => n + f(a), 0);
      if (r.licenses !== sum((a) => a.licenses - a.withoutCosts)) out.push(`${s.id} licenses`);
      if (r.quantity !== sum((a) => a.quantity)) out.push(`${s.id} ${r.publisher} quantity`);
      if (cents(r.costToDate) !== sum((a) => cents(a.costToDate)!)) out.push(`${s.id} total`);
    }
  }
}

/** The run rate of a currency is its maintenance, support and subscriptions added up. */
function checkRunRate(json: Json, out: string[]) {
  for (const r of sectionOf(json, "run-rate")?.rows ?? []) {
    const sum = cents(r.maintenance)! + cents(r.support)! + cents(r.subscriptions)!;
    if (sum !== cents(r.total)) out.push(`run-rate ${r.currency}`);
  }
}

/** The headline facts are the tables' figures. */
function checkFacts(json: Json, facts: readonly Json[], out: string[]) {
  const totals = sectionOf(json, "currency-totals").rows;
  for (const r of totals) {
    const fact = facts.find((f) => f.label === `Cost to date (${r.currency})`);
    if (r.costToDate !== null && cents(fact?.value) !== cents(r.costToDate)) {
      out.push(`fact Cost to date (${r.currency})`);
    }
  }
  const licenses = facts.find((f) => f.label === "Licenses in scope")?.value;
  if (licenses !== totals.reduce((n: number, r: Json) => n + r.licenses, 0)) {
    out.push("fact Licenses in scope");
  }
  const without = facts.find((f) => f.label.startsWith("Licenses without a cost summary"));
  if (without?.value !== sectionOf(json, "licenses-without-costs").rows.length) {
    out.push("fact Licenses without a cost summary");
  }
}

/**
 * Every figure of the document that does not recompute from the figures printed with it, as
 * one sentence each (empty: everything adds up).
 *
 * @example
 * ```ts ignore
 * import { recount } from "./cost_recount.ts";
 * assert.deepEqual(recount(run.json, run.result.document.summary), []);
 * ```
 */
export function recount(json: Json, facts: readonly Json[]): string[] {
  const out: string[] = [];
  const groupings: [string, (r: Json) => string][] = [
    ["currency-totals", (r) => r.currency],
    ["by-application", (r) => `${r.application}|${r.currency}`],
    ["by-vendor", (r) => `${r.vendor}|${r.currency}`],
  ];
  for (const [id, key] of groupings) {
    const lines = recountBy(json, key);
    const rows = sectionOf(json, id).rows;
    if (rows.length !== lines.size) {
      out.push(`${id}: ${rows.length} rows, lines give ${lines.size}`);
    }
    for (const r of rows) checkSubtotal(id, r, lines.get(key(r)), out);
  }
  checkAverages(json, out);
  checkTotals(json, out);
  checkRankings(json, out);
  checkRunRate(json, out);
  checkFacts(json, facts, out);
  return out;
}
