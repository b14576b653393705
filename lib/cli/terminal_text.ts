/**
 * Text made safe for a terminal. Names, error messages and other text that come from an API
 * server or from a user's input reach stdout and stderr; a terminal obeys the escape sequences in
 * them (colours, cursor moves, window titles, hyperlinks, clipboard writes, a bell…). Every print
 * path of the CLI goes through {@link terminalText}; JSON output through {@link terminalJson}, and
 * echoes of user input are shortened by {@link clip}.
 *
 * @module
 */

/**
 * ESC sequences: CSI `ESC [ … final`, OSC/DCS/SOS/PM/APC strings up to BEL, ST or `ESC \`
 * (an unterminated string loses only its introducer, never the text after it), other escapes.
 */
const ESC_SEQUENCE = new RegExp(
  [
    "\\x1b\\[[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?", // CSI
    "\\x1b[\\]PX^_][^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)", // OSC, DCS, SOS, PM, APC
    "\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?", // nF and Fp/Fe/Fs escapes
    "\\x9b[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?", // 8-bit CSI
    "[\\x90\\x9d\\x98\\x9e\\x9f][^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)", // 8-bit strings
  ].join("|"),
  "g",
);

/**
 * C0 controls but tab and line feed, DEL, C1 controls, and the Unicode bidirectional overrides
 * and isolates (which reorder what a reader sees).
 */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text with every escape sequence and control character removed, except tab and line feed.
 * A carriage return is removed too (it would let text overwrite the start of its line).
 *
 * @example
 * ```ts
 * import { terminalText } from "./terminal_text.ts";
 * console.log(terminalText("\x1b[31mred\x1b[0m\x07 \x9b2Jok\tline\n")); // "red ok\tline\n"
 * console.log(terminalText("\x1b]8;;http://x\x07link\x1b]8;;\x07")); // "link"
 * ```
 */
export function terminalText(text: string): string {
  return text.replace(ESC_SEQUENCE, "").replace(CONTROL, "");
}

/** Characters JSON.stringify leaves raw that a terminal would obey. */
const JSON_UNSAFE = /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify(value, null, 2)` with every character a terminal would obey written as a
 * `\uXXXX` escape (JSON already escapes C0 controls; this adds DEL, C1 controls and the bidi
 * controls), so the output is the same data and still valid JSON.
 *
 * @example
 * ```ts
 * import { terminalJson } from "./terminal_text.ts";
 * console.log(terminalJson({ name: "\x1b[31m\x9bx" })); // '{\n  "name": "\\u001b[31m\\u009bx"\n}'
 * ```
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value, null, 2) ?? "undefined").replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A value echoed in a message, cut to its first `max` characters (default 80) with its length
 * when longer, so that a huge input is never printed whole.
 *
 * @example
 * ```ts
 * import { clip } from "./terminal_text.ts";
 * console.log(clip("status -eq Active")); // "status -eq Active"
 * console.log(clip("x".repeat(100_000), 5)); // "xxxxx… (100,000 characters)"
 * ```
 */
export function clip(text: string, max = 80): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length.toLocaleString("en-US")} characters)`;
}

/**
 * Prints lines on stdout, made safe with {@link terminalText}.
 *
 * @example
 * ```ts
 * import { printOut } from "./terminal_text.ts";
 * printOut("out/report.pdf");
 * ```
 */
export function printOut(text: string): void {
  console.log(terminalText(text));
}

/**
 * Prints lines on stderr, made safe with {@link terminalText}.
 *
 * @example
 * ```ts
 * import { printErr } from "./terminal_text.ts";
 * printErr("samkit: something went wrong");
 * ```
 */
export function printErr(text: string): void {
  console.error(terminalText(text));
}
