/**
 * How the CLI reports an error: a one-line message on stderr (secrets redacted, escape sequences
 * and control characters removed, at most {@link MAX_MESSAGE_CHARS} characters) and an exit
 * code — 2 for bad usage or bad input, 1 for a failure.
 *
 * @module
 */

import { UsageError } from "./usage_error.ts";
import { OutputError, ParamError, UnknownReportError } from "../report/errors.ts";
import { redact } from "../api/redact.ts";
import { clip, printErr } from "./terminal_text.ts";

/**
 * The longest error message printed whole; a longer one (a server echoing a huge request, say)
 * is cut with its length.
 *
 * @example
 * ```ts
 * import { MAX_MESSAGE_CHARS } from "./errors.ts";
 * console.log(MAX_MESSAGE_CHARS); // 1000
 * ```
 */
export const MAX_MESSAGE_CHARS = 1000;

const BAD_INPUT = new Set([
  "UsageError",
  "ParamError",
  "UnknownReportError",
  "OutputError",
  "FilterSyntaxError",
  "FilterFieldError",
  "FilterOperatorError",
  "FilterValueError",
  "FilterValidationError",
  "PackFileError",
  "CronError",
  "SnapshotFileError",
  "PriceFileError",
  "ContainmentError",
  "JsonTextError",
  "TenantsFileError",
  "DatabaseUrlError",
  "FxRatesFileError",
  "MissingFxRateError",
  "ThemeError",
  "SigningKeyError",
  "KeyExistsError",
  "RunFolderError",
  "ReportModuleError",
]);

/** What to do next, by error name: printed after the message. */
const HINTS: Readonly<Record<string, string>> = {
  NetworkError: "Check that the API answers at the base URL (--base-url, SAM_BASE_URL or " +
    "SAM_REGION), or leave them unset to use the embedded demo server.",
  PagingIntegrityError: "Nothing was written. The collection's pages did not add up even after " +
    "reading it again (data changing while it was read, or a service paging it inconsistently): " +
    "run again when no import or scan is updating the estate; if it persists, report the " +
    "operation and counts above to the service.",
  PriceFileError:
    "Nothing was written. A price file is CSV with a header row (or JSON, an array) " +
    "with application, metric, currency (ISO 4217) and unitPrice (a positive number).",
  ShapeError: "Nothing was written. The service answered something that is not the resource " +
    "asked for: check that --base-url (and --registry-prefix, if set) point at the SAM API.",
};

/**
 * What to do next for an answer refused for a reason the base URL does not explain (read from a
 * refused answer's `refusal`; before the hint by error name).
 */
const REFUSAL_HINTS: Readonly<Record<string, string>> = {
  encoding: "Nothing was written. JSON must be UTF-8: ask the service's owner (or whoever runs " +
    "a proxy in front of it) to send UTF-8.",
};

/** The hint printed after an error's message, if there is one. */
function hintOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const refusal = (error as { refusal?: unknown }).refusal;
  return (typeof refusal === "string" ? REFUSAL_HINTS[refusal] : undefined) ?? HINTS[error.name];
}

/**
 * The exit code for an error: 2 for bad usage or input, 1 otherwise.
 *
 * @example
 * ```ts
 * import { exitCodeOf } from "./errors.ts";
 * import { UsageError } from "./usage_error.ts";
 * console.log(exitCodeOf(new UsageError("x"))); // 2
 * ```
 */
export function exitCodeOf(error: unknown): 1 | 2 {
  if (
    error instanceof UsageError || error instanceof ParamError ||
    error instanceof UnknownReportError || error instanceof OutputError
  ) return 2;
  return error instanceof Error && BAD_INPUT.has(error.name) ? 2 : 1;
}

/**
 * Prints an error for a person and returns its exit code.
 *
 * @example
 * ```ts
 * import { reportError } from "./errors.ts";
 * const code = reportError(new Error("boom"), { quiet: true });
 * console.log(code); // 1
 * ```
 */
export function reportError(error: unknown, options: { quiet?: boolean } = {}): 1 | 2 {
  const code = exitCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (!options.quiet) printErr(`samkit: ${clip(redact(message), MAX_MESSAGE_CHARS)}`);
  if (options.quiet) return code;
  if (code === 2 && error instanceof UsageError) printErr("Run with --help for usage.");
  const hint = hintOf(error);
  if (hint) printErr(hint);
  return code;
}
