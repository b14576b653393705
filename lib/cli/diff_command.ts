/**
 * `samkit diff RUN_A RUN_B`: the run-diff report under a short name. It maps the two run
 * folders to the report's parameters and runs `samkit report run-diff` with them, so the
 * comparison renders through the one report engine, in every format; it reads the runs'
 * snapshots offline and writes only into `--out` (never into the run folders it reads).
 *
 * @module
 */

import { isAbsolute, relative, resolve } from "node:path";
import { type Options, parseArgs, passOn } from "./args.ts";
import { reportError } from "./errors.ts";
import { reportCommand } from "./report_command.ts";
import { clip } from "./terminal_text.ts";
import { UsageError } from "./usage_error.ts";

/** The help text of `samkit diff`. */
export const DIFF_HELP = `Usage: deno task diff RUN_A RUN_B [options]

What changed between two audits: two run folders of one pack's source (out/packs/<pack>/<run>,
each made with --snapshot), read offline from their snapshot.sqlite: computers added, removed
and changed, installs that appeared and disappeared, licenses added, removed and changed, every
position whose shortfall or surplus changed with the installs and licenses that moved it, and
money per currency. RUN_A is the earlier run. Runs of different sources, a folder without a
snapshot, or a snapshot changed since its run exit 2. The same as:
deno task report run-diff --param before=RUN_A --param after=RUN_B

Options:
  --format LIST      Formats, comma-separated: html,pdf,xlsx,csv,json (default: all)
  --out DIR          Output folder (default: ./out); never one of the run folders
  --locale TAG, --theme FILE, --pdf-rows N, --csv-formulas, --csv-bom=false, --quiet
                     As for deno task report (see: deno task report --help)
  -h, --help         This help

Exit codes: 0 done, 1 failure, 2 bad usage or bad input (nothing is written).`;

/** The flags passed on to `samkit report` as they are. */
const PASSED: Options = {
  format: { type: "string" },
  out: { type: "string" },
  locale: { type: "string" },
  theme: { type: "string" },
  "pdf-rows": { type: "string" },
  "csv-formulas": { type: "boolean" },
  "csv-bom": { type: "string" },
  quiet: { type: "boolean" },
};

/** Whether `inner` is `outer` or inside it (both resolved against the working folder). */
function within(inner: string, outer: string): boolean {
  const rel = relative(resolve(outer), resolve(inner));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The `samkit report` arguments a diff command line stands for. An output folder inside either
 * run folder is refused: a comparison never writes into the runs it reads.
 *
 * @example
 * ```ts
 * import { diffReportArgs } from "./diff_command.ts";
 * console.log(diffReportArgs(["out/packs/w/a", "out/packs/w/b", "--format", "pdf"]));
 * // ["run-diff", "--param", "before=out/packs/w/a", "--param", "after=out/packs/w/b", "--format", "pdf"]
 * ```
 */
export function diffReportArgs(argv: readonly string[]): string[] {
  const { values, positionals } = parseArgs(argv, PASSED);
  if (positionals.length !== 2) {
    throw new UsageError(
      `expected two run folders (the earlier, then the later), got ${
        positionals.length ? clip(positionals.join(" ")) : "none"
      }`,
    );
  }
  const [before, after] = positionals;
  const out = typeof values.out === "string" ? values.out : "./out";
  for (const run of [before, after]) {
    if (within(out, run)) {
      throw new UsageError(
        `--out ${clip(out)} is inside the run folder ${clip(run)}; ` +
          "a comparison never writes into the runs it reads",
      );
    }
  }
  const args = ["run-diff", "--param", `before=${before}`, "--param", `after=${after}`];
  args.push(...passOn(values, PASSED));
  return args;
}

/**
 * Runs `samkit diff` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { diffCommand } from "./diff_command.ts";
 * Deno.exit(await diffCommand(["out/packs/weekly/2026-11-16T0600Z", "out/packs/weekly/2026-11-23T0600Z"]));
 * ```
 */
export async function diffCommand(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(DIFF_HELP);
    return 0;
  }
  let args: string[];
  try {
    args = diffReportArgs(argv);
  } catch (error) {
    return reportError(error);
  }
  return await reportCommand(args);
}
