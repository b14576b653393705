/**
 * The manifest of a pack run in progress: each report's status and files, the files moved into
 * the run folder so far, written to the run folder at every step so that a run that dies leaves
 * a manifest saying how far it got. Writes go one after the other; the first final status
 * (`complete`, `partial`, `interrupted`…) seals the run folder and is the last word: later
 * writes (of work abandoned at a stop signal) change nothing. A run whose process must exit at
 * once (a second stop signal, or the grace after the first, see `lib/cli/stop_signals.ts`) is
 * settled synchronously by {@link interruptLiveRunsSync}.
 *
 * @module
 */

import {
  type Manifest,
  type ManifestModule,
  type ManifestReport,
  manifestText,
  writeManifest,
  writeManifestSync,
} from "./manifest.ts";
import { type ManifestSigner, SIGNATURE_ALGORITHM, writeSignature } from "./sign.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import type { PackFile } from "./pack_file.ts";
import type { ParamValues } from "../report/model.ts";
import { reportModuleOf } from "../report/load_report.ts";
import { VERSION } from "../version.ts";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The runs of this process whose manifest says `running`. */
const live = new Set<RunLedger>();

/**
 * Settles, synchronously, every run of this process still `running`: its manifest says
 * `interrupted` (finished now, the files moved in so far listed), its run folder is sealed and
 * its staging folder removed. For the moment before the process exits; returns the run folders.
 *
 * @example
 * ```ts
 * import { interruptLiveRunsSync } from "./run_ledger.ts";
 * console.log(interruptLiveRunsSync()); // [] (no run in progress)
 * ```
 */
export function interruptLiveRunsSync(at: Date = new Date()): string[] {
  const dirs: string[] = [];
  for (const ledger of [...live]) {
    dirs.push(ledger.interruptSync(at));
  }
  return dirs;
}

/**
 * A pack run's manifest while the run goes on; every report starts `skipped`.
 *
 * @example
 * ```ts ignore
 * import { RunLedger } from "./run_ledger.ts";
 * const ledger = new RunLedger({ pack, folder, started: new Date() });
 * await ledger.write("running");
 * await ledger.settle(0, { status: "ok" }); // moves the report's files in, lists them
 * ```
 */
export class RunLedger {
  /** The reports' entries, in pack order. */
  readonly reports: ManifestReport[];
  /** Each report's parameters, by id. */
  readonly parameters: Readonly<Record<string, ParamValues>>;
  /** Where the data came from (set once the source is open). */
  source = "";
  #pack: PackFile;
  #folder: EvidenceFolder;
  #started: Date;
  #signer: ManifestSigner | undefined;
  /** The final manifest, once written (or being written): the last word. */
  #final: Manifest | undefined;
  #finishing = false;
  /** The writes in progress, one after the other. */
  #writing: Promise<unknown> = Promise.resolve();

  /**
   * Starts the ledger of a run of `pack` into `folder`; with a `signer`, every manifest names its
   * key and the final one is signed (`manifest.sig`, written after it).
   */
  constructor(
    options: { pack: PackFile; folder: EvidenceFolder; started: Date; signer?: ManifestSigner },
  ) {
    const { pack } = options;
    this.#pack = pack;
    this.#folder = options.folder;
    this.#started = options.started;
    this.#signer = options.signer;
    this.parameters = Object.fromEntries(pack.reports.map((r) => [r.id, r.params]));
    this.reports = pack.reports.map((r) => ({
      id: r.id,
      ...moduleEntry(pack, r.id),
      status: "skipped",
      params: r.params,
      formats: r.formats,
      ...(r.filter ? { filter: r.filter } : {}),
      files: [],
    }));
  }

  /** The manifest as it stands, with this status (and finishing time). */
  manifest(status: Manifest["status"], finished: Date | null = null): Manifest {
    return {
      pack: this.#pack.name,
      status,
      started: this.#started.toISOString(),
      finished: finished?.toISOString() ?? null,
      source: this.source,
      samkitVersion: VERSION,
      parameters: this.parameters,
      reports: this.reports,
      files: this.#folder.files,
      ...(this.#signer
        ? {
          signedBy: { algorithm: SIGNATURE_ALGORITHM, publicKeySha256: this.#signer.fingerprint },
        }
        : {}),
    };
  }

  /** Whether the final manifest is written or being written. */
  get finished(): boolean {
    return this.#finishing;
  }

  /**
   * Writes the manifest as it stands into the run folder; the manifest written. A final status
   * first seals the run folder (the moves in progress end, no other begins); after it, every
   * write returns the final manifest and writes nothing.
   */
  write(status: Manifest["status"], finished: Date | null = null): Promise<Manifest> {
    const final = status !== "running";
    if (final) this.#finishing = true;
    else if (!this.#finishing) live.add(this);
    const write = async (): Promise<Manifest> => {
      if (this.#final) return this.#final;
      if (final) await this.#folder.seal();
      else if (this.#finishing) return this.manifest(status, finished);
      const manifest = this.manifest(status, finished);
      if (final) this.#final = manifest;
      await writeManifest(this.#folder.dir, manifest);
      // The signature comes last, over the final manifest's exact bytes.
      if (final && this.#signer) {
        await writeSignature(this.#folder.dir, manifestText(manifest), this.#signer);
      }
      if (final) live.delete(this);
      return manifest;
    };
    const next = this.#writing.then(write, write);
    this.#writing = next.catch(() => {});
    return next;
  }

  /**
   * Writes `interrupted` at once, synchronously (or the final manifest already begun, as it was
   * to be); seals the run folder and removes its staging folder. Returns the run folder.
   */
  interruptSync(at: Date): string {
    live.delete(this);
    this.#folder.sealSync();
    this.#folder.closeSync();
    if (this.#final) {
      // A final manifest begun but perhaps not yet on disk: written now, as it was to be.
      writeManifestSync(this.#folder.dir, this.#final);
      return this.#folder.dir;
    }
    this.#finishing = true;
    this.#final = this.manifest("interrupted", at);
    writeManifestSync(this.#folder.dir, this.#final);
    return this.#folder.dir;
  }

  /**
   * Stops counting this run as in progress (its process goes on without it: a run that failed
   * unexpectedly keeps the manifest it had, and a later run of the pack finds it abandoned).
   */
  detach(): void {
    live.delete(this);
  }

  /** Moves finished files into the run folder, then lists them in the manifest. */
  async checkpoint(): Promise<string[]> {
    const moved = await this.#folder.publish();
    await this.write("running");
    return moved;
  }

  /**
   * Ends report `i` (its files finished so far moved in and listed under it, failed or not) and
   * writes the manifest; the report's files.
   */
  async settle(
    i: number,
    outcome: { status: "ok" } | { status: "failed"; error: string },
  ): Promise<string[]> {
    if (this.#finishing) return []; // the run ended without it (work left behind at a stop)
    const files = await this.#folder.publish();
    this.reports[i] = { ...this.reports[i], ...outcome, files };
    await this.write("running");
    return files;
  }
}

/**
 * A user's report module as its manifest entry names it: the path from the working folder (the
 * project, where its tasks run) and the SHA-256 of the code the run loaded; nothing for a
 * built-in report. `verify --rerender` loads it from there and refuses changed code.
 */
function moduleEntry(pack: PackFile, id: string): { module?: ManifestModule } {
  const definition = pack.definitions?.find((d) => d.id === id);
  const module = definition && reportModuleOf(definition);
  if (!module || module.builtIn || !module.sha256) return {};
  return {
    module: { path: relative(Deno.cwd(), fileURLToPath(module.url)), sha256: module.sha256 },
  };
}
