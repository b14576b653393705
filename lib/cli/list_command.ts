/**
 * `samkit list`: every report with its parameters.
 *
 * @module
 */

import { parseArgs } from "./args.ts";
import { reportError } from "./errors.ts";
import { printOut, terminalJson } from "./terminal_text.ts";
import { describeReports } from "./catalogue.ts";
import { REPORTS } from "../../reports/mod.ts";

/**
 * Runs `samkit list` (`--json` for a machine-readable listing) and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { listCommand } from "./list_command.ts";
 * await listCommand([]);
 * ```
 */
export function listCommand(argv: readonly string[]): number {
  try {
    const { values } = parseArgs(argv, {
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      console.log("Usage: deno task reports [--json]\n\nLists every report and its parameters.");
    } else if (values.json) {
      console.log(terminalJson(
        REPORTS.map((r) => ({
          id: r.id,
          title: r.title,
          description: r.description,
          filterResource: r.filterResource ?? null,
          params: r.params,
        })),
      ));
    } else {
      printOut(describeReports());
    }
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
