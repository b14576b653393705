/**
 * Text from a service on one line: a message, a header or a link a server sent can reach an
 * error, a log line or a run record, so a line feed in it must not start a forged line there and
 * a control character must not rewrite what came before. Such text is shown JSON-quoted, every
 * line break, control, bidirectional control and lone surrogate escaped; plain text is shown as
 * it is.
 *
 * @module
 */

/**
 * What JSON escapes beyond C0 controls, quote and backslash but a line could still be broken or
 * reordered by: DEL and the C1 controls (NEL among them), the line and paragraph separators, the
 * bidirectional marks, embeddings, overrides and isolates, and the byte-order mark.
 */
const BEYOND_JSON =
  /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** Anything {@link oneLine} quotes: C0 controls, lone surrogates and {@link BEYOND_JSON}. */
const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * JSON text with the characters JSON leaves as they are but a terminal or log reader treats as a
 * line break or a direction change escaped too (`\u2028`, `\u0085`, `\u202e`, …). Still valid
 * JSON that parses to the same value.
 *
 * @example
 * ```ts
 * import { escapeJsonText } from "./one_line.ts";
 * console.log(escapeJsonText(JSON.stringify("a\u2028b"))); // "\"a\\u2028b\""
 * ```
 */
export function escapeJsonText(json: string): string {
  return json.replace(BEYOND_JSON, hex);
}

/**
 * `text` JSON-quoted, with every control, line break, bidirectional control and lone surrogate
 * escaped: always one line, and reads back with `JSON.parse`.
 *
 * @example
 * ```ts
 * import { quoted } from "./one_line.ts";
 * console.log(quoted("Bad filter\nINFO all good")); // "\"Bad filter\\nINFO all good\""
 * ```
 */
export function quoted(text: string): string {
  return escapeJsonText(JSON.stringify(text));
}

/**
 * `text` as it is when it is safe on one line, else {@link quoted}.
 *
 * @example
 * ```ts
 * import { oneLine } from "./one_line.ts";
 * console.log(oneLine("Bad filter")); // "Bad filter"
 * console.log(oneLine("Bad filter\r\nINFO ok")); // "\"Bad filter\\r\\nINFO ok\""
 * ```
 */
export function oneLine(text: string): string {
  return UNSAFE.test(text) ? quoted(text) : text;
}
