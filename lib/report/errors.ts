/**
 * Errors of bad input to a report run: each names what is wrong and is reported with exit
 * code 2 by the CLI.
 *
 * @module
 */

/**
 * A parameter that is unknown, missing or has a bad value.
 *
 * @example
 * ```ts
 * import { ParamError } from "./errors.ts";
 * const e = new ParamError("minCores", "expected an integer, got \"eight\"");
 * console.log(e.message); // parameter "minCores": expected an integer, got "eight"
 * ```
 */
export class ParamError extends Error {
  /** The parameter's name. */
  readonly param: string;
  /**
   * Builds the error from the parameter and what is wrong.
   *
   * @param param The parameter's name.
   * @param problem What is wrong with it.
   */
  constructor(param: string, problem: string) {
    super(`parameter "${param}": ${problem}`);
    this.name = "ParamError";
    this.param = param;
  }
}

/**
 * A report id that no definition has.
 *
 * @example
 * ```ts
 * import { UnknownReportError } from "./errors.ts";
 * console.log(new UnknownReportError("nope", ["a", "b"]).message);
 * ```
 */
export class UnknownReportError extends Error {
  /** The id asked for. */
  readonly id: string;
  /**
   * Builds the error from the id asked for and the ids that exist.
   *
   * @param id The id asked for.
   * @param known The ids that exist.
   */
  constructor(id: string, known: readonly string[]) {
    super(`unknown report "${id}"; known reports: ${known.join(", ")}`);
    this.name = "UnknownReportError";
    this.id = id;
  }
}

/**
 * An output folder that cannot be created or written.
 *
 * @example
 * ```ts
 * import { OutputError } from "./errors.ts";
 * console.log(new OutputError("/root/x", "permission denied").message);
 * ```
 */
export class OutputError extends Error {
  /** The folder. */
  readonly dir: string;
  /**
   * Builds the error from the folder and what is wrong.
   *
   * @param dir The folder.
   * @param problem Why it cannot be written.
   */
  constructor(dir: string, problem: string) {
    super(`output folder "${dir}" cannot be written: ${problem}`);
    this.name = "OutputError";
    this.dir = dir;
  }
}
