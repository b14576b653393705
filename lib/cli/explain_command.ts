/**
 * `samkit explain [APPLICATION] [--organization ORG] [--computer ID]`: the explain-position
 * report under a short name. It maps its argument and flags to the report's parameters and runs
 * `samkit report explain-position` with them, so it renders through the one report engine, in
 * every format, with the same source options.
 *
 * @module
 */

import { type Options, parseArgs, passOn, stringFlag } from "./args.ts";
import { reportError } from "./errors.ts";
import { reportCommand } from "./report_command.ts";
import { clip } from "./terminal_text.ts";
import { UsageError } from "./usage_error.ts";

/** The help text of `samkit explain`. */
export const EXPLAIN_HELP = `Usage: deno task explain [APPLICATION] [options]

Why a position is what it is: for APPLICATION (its id, or its name as license-position shows
it) and each of its metrics, each license and transfer that makes the entitlements, each install
that makes the requirement with its rule and the service's entitlement state, and the price;
every figure adds up to the license-position row it explains. Without APPLICATION (and without
--computer): every application whose position is short. An unknown application exits 2 naming
it and the nearest names. The same as: deno task report explain-position --param application=…

Options:
  --organization ORG  The position of this organisation and its sub-organisations, as
                     license-position computes it with --param organization=ORG
  --computer ID      Also every application of this computer (id or host name), with its
                     state and rule
  --price-file FILE  A price file, as license-position takes it (--param priceFile=FILE)
  --format LIST      Formats, comma-separated: html,pdf,xlsx,csv,json (default: all)
  --out DIR          Output folder (default: ./out)
  --base-url URL, --token TOKEN, --tenant, --registry-prefix P, --computers N, --seed N,
  --from-snapshot F, --locale TAG, --theme FILE, --pdf-rows N, --max-concurrency N,
  --page-size N, --retries N, --csv-formulas, --csv-bom=false, --quiet, --verbose
                     As for deno task report (see: deno task report --help)
  -h, --help         This help

Exit codes: 0 done, 1 failure, 2 bad usage or bad input (nothing is written).`;

/** The flags passed on to `samkit report` as they are. */
const PASSED: Options = {
  format: { type: "string" },
  out: { type: "string" },
  "base-url": { type: "string" },
  token: { type: "string" },
  tenant: { type: "boolean" },
  "registry-prefix": { type: "string" },
  computers: { type: "string" },
  seed: { type: "string" },
  "from-snapshot": { type: "string" },
  locale: { type: "string" },
  theme: { type: "string" },
  "pdf-rows": { type: "string" },
  "max-concurrency": { type: "string" },
  "page-size": { type: "string" },
  retries: { type: "string" },
  "csv-formulas": { type: "boolean" },
  "csv-bom": { type: "string" },
  quiet: { type: "boolean" },
  verbose: { type: "boolean" },
};

/** The flags of explain that become report parameters, by flag. */
const PARAMS: Readonly<Record<string, string>> = {
  organization: "organization",
  computer: "computer",
  "price-file": "priceFile",
};

/**
 * The `samkit report` arguments an explain command line stands for.
 *
 * @example
 * ```ts
 * import { explainReportArgs } from "./explain_command.ts";
 * console.log(explainReportArgs(["Visio", "--organization", "ORG05", "--format", "pdf"]));
 * // ["explain-position", "--param", "application=Visio", "--param", "organization=ORG05", "--format", "pdf"]
 * ```
 */
export function explainReportArgs(argv: readonly string[]): string[] {
  const options: Options = { ...PASSED };
  for (const flag of Object.keys(PARAMS)) options[flag] = { type: "string" };
  const { values, positionals } = parseArgs(argv, options);
  if (positionals.length > 1) {
    throw new UsageError(
      `expected one application (id or name; quote a name with spaces), got ${
        clip(positionals.map((p) => JSON.stringify(p)).join(" "))
      }`,
    );
  }
  const out = ["explain-position"];
  if (positionals.length === 1) out.push("--param", `application=${positionals[0]}`);
  for (const [flag, param] of Object.entries(PARAMS)) {
    const value = stringFlag(values, flag);
    if (value !== undefined) out.push("--param", `${param}=${value}`);
  }
  out.push(...passOn(values, PASSED));
  return out;
}

/**
 * Runs `samkit explain` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { explainCommand } from "./explain_command.ts";
 * Deno.exit(await explainCommand(["Microsoft Visio 2021", "--format", "pdf"]));
 * ```
 */
export async function explainCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(EXPLAIN_HELP);
    return 0;
  }
  let args: string[];
  try {
    args = explainReportArgs(argv);
  } catch (error) {
    return reportError(error);
  }
  return await reportCommand(args);
}
