/**
 * `samkit schedule <file>`: stay running and run the pack at each time of its schedule.
 *
 * @module
 */

import { parseArgs } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { printErr } from "./terminal_text.ts";
import { PACK_FLAGS, packRunOptions, packStopSignals, preparePack } from "./pack_command.ts";
import { runSchedule } from "../pack/schedule.ts";

/** The help text of `samkit schedule`. */
export const SCHEDULE_HELP = `Usage: deno task schedule <pack-file.json> [options]

Stays running and runs the pack at each time of its "schedule" (cron, time zone). A run that
would overlap the previous one is skipped with a log line. Stop with Ctrl-C or SIGTERM: a run
in progress is interrupted (its manifest says so) and the exit code is 130 or 143.
Takes the same options as deno task pack.`;

/**
 * Runs `samkit schedule` until interrupted and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { scheduleCommand } from "./schedule_command.ts";
 * Deno.exit(await scheduleCommand(["packs/weekly_audit.json", "--send"]));
 * ```
 */
export async function scheduleCommand(argv: readonly string[]): Promise<number> {
  using stop = packStopSignals();
  try {
    const { values, positionals } = parseArgs(argv, PACK_FLAGS);
    if (values.help) {
      console.log(SCHEDULE_HELP);
      return 0;
    }
    const { pack, reports, outRoot } = await stop.until(preparePack(values, positionals));
    if (!pack.schedule) throw new UsageError(`${positionals[0]} has no "schedule" section`);
    const log = (line: string) => printErr(`${new Date().toISOString()} ${pack.name}: ${line}`);
    // The run's modules (renderers, mail, signing) load once the pack is known to be good.
    const { runPack } = await import("../pack/run_pack.ts");
    await runSchedule({
      cron: pack.schedule.cron,
      timezone: pack.schedule.timezone,
      signal: stop.signal,
      log,
      job: async () => {
        // A stop interrupts the run in progress too: its manifest says so.
        const result = await runPack({
          pack,
          ...packRunOptions(values, reports, outRoot, log),
          signal: stop.signal,
        });
        log(`${result.ok ? "complete" : "finished with failures"}: ${result.dir}/manifest.json`);
      },
    });
    return stop.exitCode ?? 0;
  } catch (error) {
    return stop.exitCode ?? reportError(error);
  }
}
