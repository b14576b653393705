/**
 * Reading one pack run for a comparison with another: its manifest, and from its
 * `snapshot.sqlite` (offline, read-only, checked against the manifest's SHA-256) the effective
 * license position as the run's license-position computed it — with that report's recorded
 * parameters and filter, by the same code (`reportElp`) — and the lines it was summed from
 * (licenses, transfers, metric-tracking rows, installs) and the computers. Nothing is written:
 * the run folder is only read.
 *
 * @module
 */

import { basename, join } from "node:path";
import type { Resource } from "../api/catalogue.ts";
import { openSnapshotSource } from "../cli/source.ts";
import { checkContained } from "../fs/containment.ts";
import type { ElpResult } from "../query/elp/elp.ts";
import { createQueryContext } from "../query/context.ts";
import { computersById } from "../query/lookups.ts";
import { organizationNames } from "../query/names.ts";
import {
  type ElpNames,
  type LicensePositionClient,
  type PositionRow,
  positionRows,
  reportElp,
} from "../sam/elp_rows.ts";
import { type Manifest, type ManifestReport, readManifest, sha256File } from "./manifest.ts";
import { SnapshotMissError } from "./snapshot.ts";
import { sourceIdentity } from "./source_identity.ts";
import { RunFolderError } from "./verify_run.ts";

/**
 * The report whose data a comparison reads from each run's snapshot.
 *
 * @example
 * ```ts
 * import { COMPARED_REPORT } from "./diff_read.ts";
 * console.log(COMPARED_REPORT); // "license-position"
 * ```
 */
export const COMPARED_REPORT = "license-position";

/** What {@link readRunState} returns: one run, as the comparison needs it. */
export interface RunState {
  /** The run folder as given. */
  readonly dir: string;
  /** The run folder's name (its start time). */
  readonly run: string;
  /** The run's manifest. */
  readonly manifest: Manifest;
  /** Where its data came from (the snapshot's source text). */
  readonly source: string;
  /** The comparable identity of that source (`sourceIdentity`). */
  readonly identity: string;
  /** The run's clock. */
  readonly generatedAt: Date;
  /** License-position's parameters in that run. */
  readonly params: Readonly<Record<string, unknown>>;
  /** License-position's filter in that run, if any. */
  readonly filter?: string;
  /** The effective license position, with the lines it was summed from (`basis`). */
  readonly elp: ElpResult;
  /** How the run names applications. */
  readonly names: ElpNames;
  /** Its license-position rows. */
  readonly positions: readonly PositionRow[];
  /** Its computers by id. */
  readonly computers: ReadonlyMap<string | null, Resource<"Computer">>;
  /** Its organisations' names by id. */
  readonly organizations: ReadonlyMap<string, string>;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.lstat(path)).isFile;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** The manifest of a run folder; a {@link RunFolderError} when it is not one. */
async function manifestOf(dir: string): Promise<Manifest> {
  checkContained(dir, { what: "run folder" });
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new RunFolderError(dir, "does not exist");
    throw e;
  }
  if (!info.isDirectory) throw new RunFolderError(dir, "is not a folder");
  const manifest = await readManifest(dir);
  if (!manifest) throw new RunFolderError(dir, "has no readable manifest.json: not a pack run");
  return manifest;
}

/** The snapshot's path, there and as the manifest lists it; a {@link RunFolderError} if not. */
async function snapshotOf(dir: string, manifest: Manifest): Promise<string> {
  const path = join(dir, "snapshot.sqlite");
  if (!await exists(path)) {
    throw new RunFolderError(
      dir,
      "has no snapshot.sqlite: a comparison reads the data a run kept (run the pack with " +
        "--snapshot)",
    );
  }
  const listed = manifest.files.find((f) => f.path === "snapshot.sqlite");
  if (!listed) throw new RunFolderError(dir, "has a snapshot.sqlite its manifest does not list");
  if (await sha256File(path) !== listed.sha256) {
    throw new RunFolderError(
      dir,
      "has a snapshot.sqlite whose SHA-256 is not the manifest's: it was changed after the run",
    );
  }
  return path;
}

/** A run folder checked for a comparison, before any snapshot is opened. */
export interface CheckedRun {
  /** The run folder as given. */
  readonly dir: string;
  /** Its manifest. */
  readonly manifest: Manifest;
  /** License-position's outcome in it. */
  readonly report: ManifestReport;
  /** The path of its snapshot, checked against the manifest. */
  readonly snapshot: string;
}

/**
 * Checks that a folder is a pack run whose license-position succeeded and whose snapshot is
 * there as its manifest lists it (SHA-256). Throws {@link RunFolderError} (exit 2). Check every
 * run before reading any, so a bad second run stops the diff before the first is read.
 *
 * @example
 * ```ts ignore
 * import { checkRunFolder } from "./diff_read.ts";
 * const run = await checkRunFolder("out/packs/weekly-audit/2026-11-23T0600Z");
 * ```
 */
export async function checkRunFolder(dir: string): Promise<CheckedRun> {
  const manifest = await manifestOf(dir);
  const report = manifest.reports.find((r) => r.id === COMPARED_REPORT && r.status === "ok");
  if (!report) {
    throw new RunFolderError(
      dir,
      `has no ${COMPARED_REPORT} that succeeded: a comparison reads its data (add it to the pack)`,
    );
  }
  return { dir, manifest, report, snapshot: await snapshotOf(dir, manifest) };
}

/**
 * Reads one checked pack run (see the module doc) from its snapshot, offline.
 *
 * @example
 * ```ts ignore
 * import { checkRunFolder, readRunState } from "./diff_read.ts";
 * const run = await readRunState(await checkRunFolder("out/packs/weekly-audit/2026-11-23T0600Z"));
 * console.log(run.positions.filter((p) => p.shortfall > 0).length);
 * ```
 */
export async function readRunState(checked: CheckedRun): Promise<RunState> {
  const { dir, manifest, report, snapshot } = checked;
  const api = openSnapshotSource(snapshot);
  try {
    const ctx = {
      client: api.client as unknown as LicensePositionClient,
      query: createQueryContext(),
      params: report.params,
      ...(report.filter === undefined ? {} : { filter: report.filter }),
      signal: new AbortController().signal,
      now: api.generatedAt,
    };
    const { elp, names } = await reportElp(ctx);
    const computers = await computersById(ctx);
    const organizations = await organizationNames(ctx);
    return {
      dir,
      run: basename(dir.replace(/\/+$/, "")),
      manifest,
      source: api.source,
      identity: sourceIdentity(api.source),
      generatedAt: api.generatedAt,
      params: report.params,
      ...(report.filter === undefined ? {} : { filter: report.filter }),
      elp,
      names,
      positions: positionRows(elp, names),
      computers,
      organizations,
    };
  } catch (e) {
    if (e instanceof SnapshotMissError) {
      throw new RunFolderError(dir, `keeps less data than ${COMPARED_REPORT} read in that run`);
    }
    throw e;
  } finally {
    await api.close();
  }
}
