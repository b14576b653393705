/**
 * `samkit pack <file>`: run every report of a pack into a dated evidence folder with a manifest.
 *
 * @module
 */

import { maxConcurrencyFlag, parseArgs, type Parsed, stringFlag } from "./args.ts";
import { resolve } from "node:path";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { printErr, printOut } from "./terminal_text.ts";
import {
  assertTenantAddress,
  pageSizeFlag,
  retriesFlag,
  type SourceOptions,
  tokenFlag,
  tuningHelp,
} from "./source.ts";
import { builtInReports } from "../report/built_in.ts";
import type { ReportDefinition } from "../report/model.ts";
import { type PackFile, readPackFile } from "../pack/pack_file.ts";
import { ensureWritableDir, type WritableDir } from "../report/output_dir.ts";
import { checkSourceAnswers } from "./source_check.ts";
import { readPriceFile } from "../query/elp/price_file.ts";
import { cleanStaleTemp } from "../fs/owned_temp.ts";
import { interruptLiveRunsSync } from "../pack/run_ledger.ts";
import { stopOnSignals, type StopSignals } from "./stop_signals.ts";
import { themeFlag } from "./theme_flag.ts";
import { readSigningKey } from "../pack/sign.ts";

/** The help text of `samkit pack`. */
export const PACK_HELP = `Usage: deno task pack <pack-file.json> [options]

Runs every report of the pack once (one client, one browser, one cache) into
<output>/<pack>/<YYYY-MM-DDTHHMMZ>/ and writes manifest.json with a SHA-256 of every file.

Options:
  --out DIR        Overrides the pack's output root
  --snapshot       Keep the API data read in snapshot.sqlite (re-render later with
                   deno task report <id> --from-snapshot FILE)
  --send           Send the summary email (else it is written as summary.eml)
  --base-url URL   The SAM API (else SAM_BASE_URL / SAM_REGION; none: the embedded demo server,
                   whose outputs and mail subject say "demo data", for runs without credentials)
  --token TOKEN    A bearer token (else SAM_TOKEN, or SAM_CLIENT_ID + SAM_CLIENT_SECRET)
  --tenant         Never the demo server: no API address is bad usage (the :tenant tasks pass it)
  --registry-prefix P  The registry's path: software-registry (the public service),
                   softwareregistry (the spec) or a whole path; else SAM_REGISTRY_PREFIX;
                   neither: tried in that order on the first registry read, the one that
                   answers kept
  --max-concurrency N  The most API calls in flight (default 64); the limit starts
                   lower and adapts to the service's latency and 429/503 answers
${tuningHelp(19)}
  --theme FILE     Your own look for every report and the summary mail (overrides the pack's
                   "theme"); a bad theme exits 2 naming its file and line, before any request
  --sign KEY       Sign the manifest with this private key (PKCS#8 PEM, Ed25519; make one with
                   deno task keys DIR): manifest.sig beside manifest.json, checked by deno task
                   verify or openssl; overrides the pack's "sign"
  --quiet          No progress on stderr
  -h, --help       This help

SMTP credentials come from SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD, never the pack file.
Exit codes: 0 every report succeeded, 1 a report or the email failed, 2 bad pack file or usage,
130/143 stopped by SIGINT/SIGTERM (the manifest says interrupted; a second signal ends at once).`;

/** Flags shared by `pack` and `schedule`. */
export const PACK_FLAGS = {
  out: { type: "string" },
  snapshot: { type: "boolean" },
  send: { type: "boolean" },
  "base-url": { type: "string" },
  token: { type: "string" },
  tenant: { type: "boolean" },
  "registry-prefix": { type: "string" },
  "max-concurrency": { type: "string" },
  "page-size": { type: "string" },
  retries: { type: "string" },
  theme: { type: "string" },
  sign: { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Checks, before any report runs, that `--send` can reach the pack's SMTP host.
 *
 * @example
 * ```ts ignore
 * import { assertCanSend } from "./pack_command.ts";
 * await assertCanSend(pack);
 * ```
 */
export async function assertCanSend(pack: PackFile): Promise<void> {
  if (!pack.email) throw new UsageError('--send needs an "email" section in the pack file');
  const host = `${pack.email.host}:${pack.email.port}`;
  const status = await Deno.permissions.query({ name: "net", host });
  if (status.state !== "granted") {
    throw new UsageError(
      `this task's permission set does not allow connecting to the SMTP server ${host}; ` +
        `run: SAMKIT_SMTP_HOST=${pack.email.host} SAM_API_HOST=<api host> deno task pack:tenant …`,
    );
  }
}

/**
 * Reads every price file the pack's reports name (a `priceFile` parameter), so that a missing or
 * malformed one fails as bad input before the run folder exists, not as one failed report.
 *
 * @example
 * ```ts ignore
 * import { checkPriceFiles } from "./pack_command.ts";
 * await checkPriceFiles(pack); // throws PriceFileError naming the file and line
 * ```
 */
export async function checkPriceFiles(pack: PackFile): Promise<void> {
  for (const report of pack.reports) {
    const path = report.params.priceFile;
    if (typeof path === "string" && path !== "") await readPriceFile(path);
  }
}

/**
 * The data source the `pack` and `schedule` flags name (the token as given: the caller warns
 * about `--token` once, see {@link tokenFlag}).
 *
 * @example
 * ```ts
 * import { packSourceOptions } from "./pack_command.ts";
 * console.log(packSourceOptions({ tenant: true }).tenant); // true
 * ```
 */
export function packSourceOptions(values: Parsed["values"]): SourceOptions {
  return {
    baseUrl: stringFlag(values, "base-url"),
    token: stringFlag(values, "token"),
    tenant: values.tenant === true,
    registryPrefix: stringFlag(values, "registry-prefix"),
    pageSize: pageSizeFlag(values),
    retries: retriesFlag(values),
  };
}

/**
 * Reads, validates and checks everything a pack run needs before it starts: the pack file, its
 * price files, that a tenant run has an API address, the output root, (with `--send`) that the
 * SMTP host may be reached, and that a tenant answers and accepts the credentials; then removes
 * the temp folders dead runs left behind. The output root is returned as a {@link WritableDir}:
 * dispose of it when the run ends, so a root this check created goes again if nothing was written
 * (a failed check removes it at once).
 *
 * @example
 * ```ts ignore
 * import { preparePack } from "./pack_command.ts";
 * const { pack, reports, outRoot, out } = await preparePack(values, positionals);
 * ```
 */
export async function preparePack(
  values: Parsed["values"],
  positionals: readonly string[],
): Promise<
  { pack: PackFile; reports: readonly ReportDefinition[]; outRoot?: string; out: WritableDir }
> {
  if (positionals.length !== 1) throw new UsageError("expected one pack file");
  const reports = await builtInReports();
  let pack = await readPackFile(positionals[0], reports);
  await checkPriceFiles(pack);
  // The theme (--theme, else the pack's) is checked now; each run loads it again.
  const themePath = stringFlag(values, "theme");
  if (themePath !== undefined) pack = { ...pack, theme: resolve(themePath) };
  await themeFlag(pack.theme);
  // So is the signing key (--sign, else the pack's): a missing or bad one writes nothing.
  const signPath = stringFlag(values, "sign");
  if (signPath !== undefined) pack = { ...pack, sign: { key: { file: resolve(signPath) } } };
  if (pack.sign) await readSigningKey(pack.sign.key);
  // A tenant run without an address stops before its output root exists.
  assertTenantAddress(packSourceOptions(values));
  const outRoot = stringFlag(values, "out");
  const out = await ensureWritableDir(outRoot ?? pack.output);
  try {
    if (values.send) await assertCanSend(pack);
    // A host that does not answer, or a token it refuses, fails before the run folder exists.
    await checkSourceAnswers(packSourceOptions(values)); // packRunOptions warns about --token
    // Temp folders of dead runs go now: only those whose process is gone (see lib/fs/owned_temp.ts).
    await cleanStaleTemp();
  } catch (e) {
    await out.removeIfEmpty();
    throw e;
  }
  return { pack, reports, ...(outRoot ? { outRoot } : {}), out };
}

/**
 * The `runPack` options the `pack` and `schedule` flags ask for.
 *
 * @example
 * ```ts ignore
 * import { packRunOptions } from "./pack_command.ts";
 * await runPack({ pack, ...packRunOptions(values, reports, outRoot) });
 * ```
 */
export function packRunOptions(
  values: Parsed["values"],
  reports: readonly ReportDefinition[],
  outRoot: string | undefined,
  log?: (line: string) => void,
) {
  return {
    reports,
    outRoot,
    snapshot: values.snapshot === true,
    send: values.send === true,
    maxConcurrency: maxConcurrencyFlag(values),
    source: { ...packSourceOptions(values), token: tokenFlag(stringFlag(values, "token")) },
    log: values.quiet ? undefined : log,
  };
}

/**
 * Runs `samkit pack` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { packCommand } from "./pack_command.ts";
 * Deno.exit(await packCommand(["packs/weekly_audit.json", "--snapshot"]));
 * ```
 */
export async function packCommand(argv: readonly string[]): Promise<number> {
  // From the start: a stop while a file, the tenant or the browser is awaited ends the command.
  using stop = packStopSignals();
  try {
    const { values, positionals } = parseArgs(argv, PACK_FLAGS);
    if (values.help) {
      console.log(PACK_HELP);
      return 0;
    }
    const { pack, reports, outRoot, out } = await stop.until(preparePack(values, positionals));
    await using _out = out;
    // The run's modules (renderers, mail, signing) load once the pack is known to be good.
    const { runPack } = await import("../pack/run_pack.ts");
    const result = await runPack({
      pack,
      ...packRunOptions(values, reports, outRoot, printErr),
      signal: stop.signal,
    });
    printOut(`${result.dir}/manifest.json`);
    for (const r of result.manifest.reports) {
      if (r.status !== "ok") {
        printErr(`samkit: ${r.id}: ${r.status}${r.error ? `: ${r.error}` : ""}`);
      }
    }
    if (result.emailError) printErr(`samkit: ${result.emailError}`);
    return stop.exitCode ?? (result.ok ? 0 : 1);
  } catch (error) {
    return stop.exitCode ?? reportError(error);
  }
}

/**
 * The stop signals of a pack or schedule run: the first SIGINT/SIGTERM interrupts the run (its
 * manifest says `interrupted`, exit 130/143); a second one, or the grace after the first, settles
 * every run still in progress synchronously and exits.
 *
 * @example
 * ```ts ignore
 * import { packStopSignals } from "./pack_command.ts";
 * using stop = packStopSignals();
 * await runPack({ pack, reports, signal: stop.signal });
 * ```
 */
export function packStopSignals(): StopSignals {
  return stopOnSignals({
    log: (line) => printErr(`samkit: ${line}`),
    lastResort: () => {
      for (const dir of interruptLiveRunsSync()) printErr(`samkit: ${dir}: interrupted`);
    },
  });
}
