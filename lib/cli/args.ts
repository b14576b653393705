/**
 * Argument parsing for the CLI on `node:util` parseArgs (the stand-in for @std/cli, which JSR
 * would provide), turning its errors into {@link UsageError}s that name the flag.
 *
 * @module
 */

import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage_error.ts";
import { clip } from "./terminal_text.ts";
import { DEFAULT_MAX_CONCURRENCY } from "../query/context.ts";

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
  if (!Number.isInteger(n)) {
    throw new UsageError(`--${name} expects a whole number, got "${clip(raw)}"`);
  }
  if (bounds.min !== undefined && n < bounds.min) {
    throw new UsageError(`--${name} must be at least ${bounds.min}, got ${n}`);
  }
  if (bounds.max !== undefined && n > bounds.max) {
    throw new UsageError(`--${name} must be at most ${bounds.max}, got ${n}`);
  }
  return n;
}

/**
 * The value of the flag `--name` as a whole number from `min` to `max` written in digits, or
 * undefined when it is absent; anything else is a {@link UsageError} (exit 2) naming the flag and
 * the range.
 *
 * @example
 * ```ts
 * import { rangeFlag } from "./args.ts";
 * console.log(rangeFlag({ retries: "2" }, "retries", 0, 10), rangeFlag({}, "retries", 0, 10)); // 2 undefined
 * try {
 *   rangeFlag({ retries: "1.5" }, "retries", 0, 10);
 * } catch (e) {
 *   console.log((e as Error).message); // --retries must be a whole number from 0 to 10, got "1.5"
 * }
 * ```
 */
export function rangeFlag(
  values: Parsed["values"],
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = stringFlag(values, name);
  if (raw === undefined) return undefined;
  const n = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}, got "${clip(raw)}"`,
    );
  }
  return n;
}

export { MAX_FILTER_CHARS } from "../report/params.ts";

/** The highest `--max-concurrency` accepted. */
const MAX_CONCURRENCY_BOUND = 1024;

/**
 * The `--max-concurrency N` flag: the user's cap on API calls in flight (the adaptive limit
 * starts lower and finds the service's capacity under it), a whole number from 1 to 1024.
 *
 * @example
 * ```ts
 * import { maxConcurrencyFlag } from "./args.ts";
 * console.log(maxConcurrencyFlag({ "max-concurrency": "16" })); // 16
 * console.log(maxConcurrencyFlag({})); // 64
 * ```
 */
export function maxConcurrencyFlag(values: Parsed["values"]): number {
  return intFlag(values, "max-concurrency", DEFAULT_MAX_CONCURRENCY, {
    min: 1,
    max: MAX_CONCURRENCY_BOUND,
  });
}

/**
 * Rejects a flag value longer than `max` characters with a {@link UsageError} that shows only
 * its start and its length (a huge value is never echoed whole).
 *
 * @example
 * ```ts
 * import { checkLength, MAX_FILTER_CHARS } from "./args.ts";
 * checkLength("filter", "status -eq Active", MAX_FILTER_CHARS); // fine
 * try {
 *   checkLength("filter", "x".repeat(100_000), MAX_FILTER_CHARS);
 * } catch (e) {
 *   console.log((e as Error).message.length < 200); // true
 * }
 * ```
 */
export function checkLength(name: string, value: string, max: number): void {
  if (value.length <= max) return;
  throw new UsageError(
    `--${name} is ${value.length.toLocaleString("en-US")} characters long; ` +
      `at most ${max.toLocaleString("en-US")} are accepted: "${clip(value)}"`,
  );
}

/**
 * The flags of `options` that were given, spelt again as command-line arguments (a boolean
 * flag bare, others with their value), for a command that hands them on to another.
 *
 * @example
 * ```ts
 * import { parseArgs, passOn } from "./args.ts";
 * const options = { format: { type: "string" }, quiet: { type: "boolean" } } as const;
 * const { values } = parseArgs(["--format", "pdf", "--quiet"], options);
 * console.log(passOn(values, options)); // ["--format", "pdf", "--quiet"]
 * ```
 */
export function passOn(values: Parsed["values"], options: Options): string[] {
  const out: string[] = [];
  for (const [flag, spec] of Object.entries(options)) {
    const value = values[flag];
    if (value === undefined) continue;
    if (spec.type === "boolean") {
      if (value === true) out.push(`--${flag}`);
    } else out.push(`--${flag}`, String(value));
  }
  return out;
}
