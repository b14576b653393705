/**
 * The stage phase of a pack run: the run's manifest written as `running`, the data source opened
 * (recording into `snapshot.sqlite` when asked) and the run's query context, shared by every
 * report of the run.
 *
 * @module
 */

import type { PackFile } from "./pack_file.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import type { RunLedger } from "./run_ledger.ts";
import { SnapshotRecorder } from "./snapshot.ts";
import { type ApiSource, openSource, type SourceOptions } from "../cli/source.ts";
import { backOffOnPressure, createQueryContext, type QueryContext } from "../query/context.ts";

/** The file name of a run's snapshot, in the staging folder and then the run folder. */
const SNAPSHOT = "snapshot.sqlite";

/** Options of {@link stageRun}. */
export interface StageRunOptions {
  /** The validated pack. */
  readonly pack: PackFile;
  /** The run's evidence folder. */
  readonly folder: EvidenceFolder;
  /** The run's manifest in progress (made by the caller, so that it can settle it at a stop). */
  readonly ledger: RunLedger;
  /** When the run started. */
  readonly started: Date;
  /** Keep the API data read in `snapshot.sqlite`. */
  readonly snapshot?: boolean;
  /** Where the data comes from. */
  readonly source?: SourceOptions;
  /** Cancels the run. */
  readonly signal?: AbortSignal;
  /** The cap on API calls in flight. */
  readonly maxConcurrency?: number;
  /** Log lines. */
  readonly log: (line: string) => void;
}

/**
 * A staged run: its ledger, the open source and the query context. Close it when the reports
 * are rendered (the source, and the snapshot with the run's metadata), then keep the snapshot.
 */
export interface StagedRun {
  /** The run's manifest in progress. */
  readonly ledger: RunLedger;
  /** The open data source. */
  readonly api: ApiSource;
  /** The run's query context. */
  readonly query: QueryContext;
  /** Closes the source, and the snapshot with the run's metadata. */
  close(): Promise<void>;
  /** Moves the closed snapshot, if any, into the run folder. */
  keepSnapshot(): Promise<void>;
}

/**
 * `inner` with the run's `signal` added to every request (the token's too): a stop aborts what
 * is on the wire at once, whatever signal the caller of the client passed or did not.
 */
function abortingWith(signal: AbortSignal | undefined, inner: typeof fetch): typeof fetch {
  if (!signal) return inner;
  return (input, init) => {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return inner(input, { ...init, signal: own ? AbortSignal.any([own, signal]) : signal });
  };
}

/**
 * Opens the source with the snapshot recorder and the run's signal wrapped in, logging each
 * filter warning once.
 */
function openRunSource(
  options: StageRunOptions,
  query: QueryContext,
  recorder: SnapshotRecorder | undefined,
): Promise<ApiSource> {
  const { pack, log, signal } = options;
  const filterWarnings = new Set<string>();
  return openSource({
    ...options.source,
    wrapFetch: (inner) => abortingWith(signal, recorder ? recorder.wrap(inner) : inner),
    onEvent: backOffOnPressure(query.limiter, (e) => {
      if (e.type === "filterWarning" && !filterWarnings.has(e.message)) {
        filterWarnings.add(e.message);
        log(`${pack.name}: warning: ${e.op}: ${e.message}`);
      }
    }),
  });
}

/**
 * Stages a run in its folder: snapshot file, `running` manifest, query context, open source.
 *
 * @example
 * ```ts ignore
 * import { stageRun } from "./run_stage.ts";
 * const ledger = new RunLedger({ pack, folder, started });
 * const staged = await stageRun({ pack, folder, ledger, started, log: console.log });
 * try {
 *   // … render the reports with staged.api.client and staged.query …
 * } finally {
 *   await staged.close();
 * }
 * await staged.keepSnapshot();
 * ```
 */
export async function stageRun(options: StageRunOptions): Promise<StagedRun> {
  const { pack, folder, started, signal, ledger } = options;
  const snapshotPath = folder.stagedPath(SNAPSHOT);
  const recorder = options.snapshot ? new SnapshotRecorder(snapshotPath) : undefined;
  await ledger.write("running");
  options.log(`${pack.name}: run folder ${folder.dir}`);
  const query = createQueryContext({
    signal,
    ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
  });
  const api = await openRunSource(options, query, recorder);
  ledger.source = api.source;
  const filters = pack.reports.filter((r) => r.filter).map((r) => [r.id, r.filter!]);
  return {
    ledger,
    api,
    query,
    async close() {
      await api.close();
      recorder?.close({
        generatedAt: started.toISOString(),
        source: ledger.source,
        pack: pack.name,
        params: ledger.parameters,
        filters: Object.fromEntries(filters),
        ...(options.source?.pageSize ? { pageSize: options.source.pageSize } : {}),
      });
    },
    async keepSnapshot() {
      if (recorder) await folder.adopt(snapshotPath, SNAPSHOT);
    },
  };
}
