/**
 * The cover tiles of a rendered HTML report, as a reader sees them.
 *
 * @module
 */

/**
 * The cover tiles' values as the HTML file shows them, entities decoded.
 *
 * @example
 * ```ts
 * import { tileValues } from "./cover_tiles.ts";
 * const html = '<ul class="cover-facts"><li><span class="fact-value">€1.00</span></li></ul>';
 * console.log(tileValues(html)); // ["€1.00"]
 * ```
 */
export function tileValues(html: string): string[] {
  const facts = /<ul class="cover-facts">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? "";
  return [...facts.matchAll(/<span class="fact-value">([^<]+)/g)].map((m) =>
    m[1].replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').trim()
  );
}
