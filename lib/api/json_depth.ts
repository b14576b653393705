/**
 * How deep a response's JSON may nest. `JSON.parse` reads any depth, but what reads the value
 * afterwards (normalising, keys, copies, reports) walks it recursively, and a 100,000-deep array
 * exhausts the stack with an error that names nothing. The depth is checked on the body's bytes
 * before parsing, in one pass that skips strings; real answers nest a handful of levels.
 *
 * @module
 */

/**
 * The deepest nesting of arrays and objects a response may have: 256 levels.
 *
 * @example
 * ```ts
 * import { MAX_JSON_DEPTH } from "./json_depth.ts";
 * console.log(MAX_JSON_DEPTH); // 256
 * ```
 */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text (UTF-8 bytes) opens more than `max` arrays and objects inside each other.
 * Brackets inside strings do not count (UTF-8 continuation bytes never equal an ASCII one). A
 * body shorter than `max` bytes is not scanned: it cannot nest deeper.
 *
 * @example
 * ```ts
 * import { nestsDeeperThan } from "./json_depth.ts";
 * const text = (s: string) => new TextEncoder().encode(s);
 * console.log(nestsDeeperThan(text("[[[1]]]"), 2)); // true
 * console.log(nestsDeeperThan(text('[["[[[[["]]'), 2)); // false
 * ```
 */
export function nestsDeeperThan(json: Uint8Array, max: number): boolean {
  if (json.byteLength <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.byteLength; i++) {
    const b = json[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
