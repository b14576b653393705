/**
 * Argument parsing for the CLI on `node:util` parseArgs (the stand-in for @std/cli, which JSR
 * would provide), turning its errors into {@link UsageError}s that name the flag.
 *
 * @module
 */

import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage_error.ts";

/** The options table of a command, in parseArgs form. */
export type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parsed flags and positionals. */
export interface Parsed {
  /** Flag values by name. */
  readonly values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  /** Positional arguments. */
  readonly positionals: string[];
}

/**
 * Parses `argv` strictly against `options`.
 *
 * @example
 * ```ts
 * import { parseArgs } from "./args.ts";
 * const { values, positionals } = parseArgs(["x", "--out", "dir"], { out: { type: "string" } });
 * console.log(values.out, positionals); // dir ["x"]
 * ```
 */
export function parseArgs(argv: readonly string[], options: Options): Parsed {
  try {
    const { values, positionals } = nodeParseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (e) {
    const message = (e as Error).message.replace(/\. To specify a positional.*$/s, "");
    throw new UsageError(message.replace(/^Unknown option '(.*?)'.*$/s, "unknown flag $1"));
  }
}

/**
 * A flag's string value, or undefined.
 *
 * @example
 * ```ts
 * import { stringFlag } from "./args.ts";
 * console.log(stringFlag({ out: "x" }, "out")); // x
 * ```
 */
export function stringFlag(values: Parsed["values"], name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

/**
 * A flag's value as a whole number within bounds, or the default.
 *
 * @example
 * ```ts
 * import { intFlag } from "./args.ts";
 * console.log(intFlag({ port: "8787" }, "port", 0)); // 8787
 * ```
 */
export function intFlag(
  values: Parsed["values"],
  name: string,
  fallback: number,
  bounds: { min?: number; max?: number } = {},
): number {
  const raw = stringFlag(values, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} expects a whole number, got "${raw}"`);
  if (bounds.min !== undefined && n < bounds.min) {
    throw new UsageError(`--${name} must be at least ${bounds.min}, got ${n}`);
  }
  if (bounds.max !== undefined && n > bounds.max) {
    throw new UsageError(`--${name} must be at most ${bounds.max}, got ${n}`);
  }
  return n;
}
