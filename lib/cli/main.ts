/**
 * The samkit command line: dispatches to one command per verb.
 *
 * @module
 */

import { VERSION } from "../version.ts";

/** The top-level help. */
export const MAIN_HELP = `samkit ${VERSION} — audit-grade reports from a SAM REST API

Usage: deno task <command> [options]      (or: deno run -P=<set> main.ts <command>)

Commands:
  demo        Flagship reports from the embedded reference server (no account needed)
  report ID   Run one report (HTML, PDF, XLSX, CSV, JSON); ID or a report module's path
  reports     List reports and their parameters            (main.ts list)
  explain APP Why a position is what it is: its licenses, transfers, installs and rules
  diff A B    What changed between two pack runs (offline, from their snapshots)
  pack FILE   Run an audit pack into a dated folder with a checksum manifest
  keys DIR    Write an Ed25519 key pair for signing packs (pack --sign DIR/signing-key.pem)
  verify RUN  Check a pack's run folder: checksums, nothing unlisted, signature, --rerender
  schedule F  Stay running and run a pack on its cron schedule
  enqueue F   Queue a pack for many tenants on PostgreSQL (now or on its cron)
  worker      Run queued packs (any number of workers, on any machine)
  connectors  Cloud cost connectors: list, retrievals, validate, test, add, update-credentials
  doctor      Check a tenant before the first audit: token, scopes, paths, clock (exit 0: ready)
  serve       Start the reference SAM API server
  init DIR    Write a project folder of your own (reports, packs, theme) that uses samkit
  help        This help

Run any command with --help for its options.`;

type Command = (argv: readonly string[]) => Promise<number>;

/**
 * Each command is loaded when it runs, so `list` does not load the renderers and a command needs
 * only the permissions of the modules it uses.
 */
const COMMANDS: Record<string, Command> = {
  report: async (argv) => (await import("./report_command.ts")).reportCommand(argv),
  list: async (argv) => (await import("./list_command.ts")).listCommand(argv),
  explain: async (argv) => (await import("./explain_command.ts")).explainCommand(argv),
  diff: async (argv) => (await import("./diff_command.ts")).diffCommand(argv),
  reports: async (argv) => (await import("./list_command.ts")).listCommand(argv),
  demo: async (argv) => (await import("./demo_command.ts")).demoCommand(argv),
  serve: async (argv) => (await import("../server/serve_command.ts")).serveCommand([...argv]),
  pack: async (argv) => (await import("./pack_command.ts")).packCommand(argv),
  schedule: async (argv) => (await import("./schedule_command.ts")).scheduleCommand(argv),
  enqueue: async (argv) => (await import("./enqueue_command.ts")).enqueueCommand(argv),
  worker: async (argv) => (await import("./worker_command.ts")).workerCommand(argv),
  connectors: async (argv) => (await import("./connectors_command.ts")).connectorsCommand(argv),
  doctor: async (argv) => (await import("./doctor_command.ts")).doctorCommand(argv),
  init: async (argv) => (await import("./init_command.ts")).initCommand(argv),
  keys: async (argv) => (await import("./keys_command.ts")).keysCommand(argv),
  verify: async (argv) => (await import("./verify_command.ts")).verifyCommand(argv),
};

/**
 * Runs the CLI with `argv` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { main } from "./main.ts";
 * Deno.exit(await main(["list"]));
 * ```
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (!verb || verb === "help" || verb === "--help" || verb === "-h") {
    console.log(MAIN_HELP);
    return verb ? 0 : 2;
  }
  if (verb === "--version") {
    console.log(VERSION);
    return 0;
  }
  const command = COMMANDS[verb];
  if (!command) {
    console.error(
      `samkit: unknown command "${verb}"; commands: ${Object.keys(COMMANDS).join(", ")}`,
    );
    return 2;
  }
  return await command(rest);
}
