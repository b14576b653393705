/**
 * Errors in a report module, told as `file:line: what to fix`: the line is where the module's
 * own text holds the wrong value, or where the runtime's import error points.
 *
 * @module
 */

import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A report module that cannot be used: it does not load, exports no definition, breaks the
 * model's rules, or lies outside the folders report modules may come from. Bad input (exit 2);
 * thrown before any request and before anything is written.
 *
 * @example
 * ```ts
 * import { ReportModuleError } from "./module_error.ts";
 * const e = new ReportModuleError({ file: "reports/x.ts", line: 3, problem: "exports nothing" });
 * console.log(e.message); // "reports/x.ts:3: exports nothing"
 * ```
 */
export class ReportModuleError extends Error {
  /** The module file, as the user named it (or relative to the working folder). */
  readonly file: string;
  /** The 1-based line the problem is on, when known. */
  readonly line?: number;
  /**
   * Builds the error from the file, the line and what is wrong.
   *
   * @param options The file, the line (when known) and what is wrong and how to fix it.
   */
  constructor(
    options: { readonly file: string; readonly line?: number; readonly problem: string },
  ) {
    const at = options.line === undefined ? options.file : `${options.file}:${options.line}`;
    super(`${at}: ${options.problem}`);
    this.name = "ReportModuleError";
    this.file = options.file;
    if (options.line !== undefined) this.line = options.line;
  }
}

/**
 * The 1-based number of the first line of `text` that holds `literal` as a quoted string
 * (`"txt"`, `'txt'` or `` `txt` ``), else undefined.
 *
 * @example
 * ```ts
 * import { lineOfLiteral } from "./module_error.ts";
 * console.log(lineOfLiteral('a\n  { key: "os", type: "txt" },\n', "txt")); // 2
 * ```
 */
export function lineOfLiteral(text: string, literal: string): number | undefined {
  const quoted = ['"', "'", "`"].map((q) => `${q}${literal}${q}`);
  const lines = text.split("\n");
  const i = lines.findIndex((line) => quoted.some((q) => line.includes(q)));
  return i < 0 ? undefined : i + 1;
}

/**
 * The 1-based number of the first line of `text` that matches `pattern`, else undefined.
 *
 * @example
 * ```ts
 * import { lineMatching } from "./module_error.ts";
 * console.log(lineMatching("// x\nexport default 1;\n", /^\s*export\s+default\b/)); // 2
 * ```
 */
export function lineMatching(text: string, pattern: RegExp): number | undefined {
  const i = text.split("\n").findIndex((line) => pattern.test(line));
  return i < 0 ? undefined : i + 1;
}

// deno-lint-ignore no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const LOCATION = /(file:\/\/[^\s()]+?):(\d+):(\d+)/g;

/** Where an error points: a file URL and a 1-based line. */
export interface ErrorLocation {
  /** The file's URL. */
  readonly url: string;
  /** The 1-based line. */
  readonly line: number;
}

/**
 * Where an import or evaluation error points, from its message and stack (`at file:///…:4:1`):
 * the first place in `preferred` (the module being loaded), else the first place outside
 * `exclude` (samkit's own code). Colour codes in the runtime's messages are ignored.
 *
 * @example
 * ```ts
 * import { errorLocation } from "./module_error.ts";
 * const e = new TypeError("SyntaxError: Expression expected\n    at file:///p/r.ts:4:1");
 * console.log(errorLocation(e, { preferred: "file:///p/r.ts" })); // { url: "file:///p/r.ts", line: 4 }
 * ```
 */
export function errorLocation(
  error: unknown,
  options: { readonly preferred: string; readonly exclude?: string },
): ErrorLocation | undefined {
  const text = error instanceof Error
    ? `${error.message}\n${error.stack ?? ""}`.replace(ANSI, "")
    : "";
  const places = [...text.matchAll(LOCATION)].map((m) => ({ url: m[1], line: Number(m[2]) }));
  return places.find((p) => p.url === options.preferred) ??
    places.find((p) => !options.exclude || !p.url.startsWith(options.exclude));
}

/**
 * The first line of an import error's message, without the runtime's wrapping (`TypeError:`),
 * its code frame or its location, colour codes removed.
 *
 * @example
 * ```ts
 * import { importProblem } from "./module_error.ts";
 * const e = new TypeError("SyntaxError: Expression expected\n  |\n4 | };\n    at file:///p/r.ts:4:1");
 * console.log(importProblem(e)); // "SyntaxError: Expression expected"
 * ```
 */
export function importProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.replace(ANSI, "").split("\n")[0].trim();
  const named = error instanceof Error && error.name !== "TypeError" && error.name !== "Error"
    ? `${error.name}: ${first}`
    : first;
  return named || "the module threw while loading";
}

/**
 * A file URL as a path for messages: relative to the working folder when inside it.
 *
 * @example
 * ```ts
 * import { shownPath } from "./module_error.ts";
 * console.log(shownPath(new URL(`file://${Deno.cwd()}/reports/x.ts`).href)); // "reports/x.ts"
 * ```
 */
export function shownPath(url: string): string {
  if (!url.startsWith("file:")) return url;
  const path = fileURLToPath(url);
  const rel = relative(Deno.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
