/**
 * The error of bad command-line usage (exit code 2).
 *
 * @module
 */

/**
 * Bad usage: an unknown flag, a missing argument, a bad value.
 *
 * @example
 * ```ts
 * import { UsageError } from "./usage_error.ts";
 * console.log(new UsageError("unknown flag --fromat").message);
 * ```
 */
export class UsageError extends Error {
  /** @param message What is wrong, naming the flag or argument. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
