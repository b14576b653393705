/**
 * The manifest of a pack run in progress: each report's status and files, the files moved into
 * the run folder so far, written to the run folder at every step so that a run that dies leaves
 * a manifest saying how far it got.
 *
 * @module
 */

import { type Manifest, type ManifestReport, writeManifest } from "./manifest.ts";
import type { EvidenceFolder } from "./evidence_folder.ts";
import type { PackFile } from "./pack_file.ts";
import type { ParamValues } from "../report/model.ts";
import { VERSION } from "../version.ts";

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

  /** Starts the ledger of a run of `pack` into `folder`. */
  constructor(options: { pack: PackFile; folder: EvidenceFolder; started: Date }) {
    const { pack } = options;
    this.#pack = pack;
    this.#folder = options.folder;
    this.#started = options.started;
    this.parameters = Object.fromEntries(pack.reports.map((r) => [r.id, r.params]));
    this.reports = pack.reports.map((r) => ({
      id: r.id,
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
    };
  }

  /** Writes the manifest as it stands into the run folder; the manifest written. */
  async write(status: Manifest["status"], finished: Date | null = null): Promise<Manifest> {
    const manifest = this.manifest(status, finished);
    await writeManifest(this.#folder.dir, manifest);
    return manifest;
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
    const files = await this.#folder.publish();
    this.reports[i] = { ...this.reports[i], ...outcome, files };
    await this.write("running");
    return files;
  }
}
