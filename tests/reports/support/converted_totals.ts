/**
 * Test support: a JSON section's converted totals checked against its rows — each totals line's
 * value of a column converted to the reporting currency (`…InEUR`) is the sum of the rows'
 * converted values, per currency and over all currencies, to the cent.
 *
 * @module
 */

// deno-lint-ignore no-explicit-any
type Json = any;

/** An amount in cents. */
export const cents = (v: unknown): number => Math.round(Number(v) * 100);

/**
 * Every disagreement between a JSON section's converted totals (columns ending `In<code>`) and
 * its rows: `<section> <line> <key>: <total>, rows give <sum>`; empty when they agree.
 *
 * @example
 * ```ts
 * import { totalsProblems } from "./converted_totals.ts";
 * const section = {
 *   id: "costs",
 *   columns: [{ key: "costInEUR" }],
 *   rows: [{ currency: "USD", costInEUR: 1.01 }, { currency: "USD", costInEUR: 2 }],
 *   totals: { USD: { costInEUR: 3.01 }, "all currencies (EUR)": { costInEUR: 3.02 } },
 * };
 * console.log(totalsProblems(section)); // ["costs all currencies (EUR) costInEUR: 3.02, rows give 3.01"]
 * ```
 */
export function totalsProblems(section: Json, code = "EUR"): string[] {
  const out: string[] = [];
  const converted = section.columns.map((c: Json) => c.key)
    .filter((k: string) => k.endsWith(`In${code}`));
  // A table of one currency (exposure by publisher in USD, say) shows no currency column.
  const lines = Object.keys(section.totals ?? {}).filter((l) => /^[A-Z]{3}$/.test(l));
  const only = lines.length === 1 ? lines[0] : undefined;
  for (const key of converted) {
    const perCurrency = new Map<string, number>();
    let all = 0;
    for (const row of section.rows) {
      if (row[key] === null || row[key] === undefined) continue;
      const currency = row.currency ?? only;
      perCurrency.set(currency, (perCurrency.get(currency) ?? 0) + cents(row[key]));
      all += cents(row[key]);
    }
    for (const [line, values] of Object.entries(section.totals ?? {}) as [string, Json][]) {
      if (!(key in values)) continue;
      const want = line.startsWith("all currencies") || line === "All"
        ? all
        : perCurrency.get(line) ?? 0;
      if (cents(values[key]) !== want) {
        out.push(`${section.id} ${line} ${key}: ${values[key]}, rows give ${want / 100}`);
      }
    }
  }
  return out;
}
