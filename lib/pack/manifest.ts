/**
 * The run manifest: what a pack run did and a checksum of every file it wrote, so evidence can
 * be verified later. It is written at the start (status `running`), again each time a report's
 * files reach the run folder, and at the end, each time atomically: whenever the run stops, even
 * killed, the manifest lists exactly the finished files in the folder. A run that died while
 * `running` is marked `abandoned` by the next run of its pack ({@link abandonRun}).
 *
 * @module
 */

import { join } from "node:path";
import { isTempName, removeQuietly, writeAtomic, writeAtomicSync } from "../render/atomic.ts";
import { readRegularFile, readRegularTextFile } from "../fs/regular_file.ts";

/** One file of a run. */
export interface ManifestFile {
  /** Path relative to the manifest. */
  readonly path: string;
  /** Size in bytes. */
  readonly bytes: number;
  /** Hex SHA-256 of the content. */
  readonly sha256: string;
}

/** The outcome of one report of a run. */
export interface ManifestReport {
  /** Report id. */
  readonly id: string;
  /** A user's report module (absent for samkit's own reports). */
  readonly module?: ManifestModule;
  /** `ok`, `failed`, or `skipped` (the run was interrupted before it). */
  readonly status: "ok" | "failed" | "skipped";
  /** The parameters used. */
  readonly params: Record<string, unknown>;
  /** Formats asked for. */
  readonly formats: readonly string[];
  /** The filter on its main collection, if any (runs compare only under the same filter). */
  readonly filter?: string;
  /** Files it wrote (relative paths). */
  readonly files: readonly string[];
  /** Why it failed. */
  readonly error?: string;
}

/** A user's report module as a run manifest records it. */
export interface ManifestModule {
  /** The module file's path from the folder the run was made in (the user's project). */
  readonly path: string;
  /** The hex SHA-256 of the module file the run loaded. */
  readonly sha256: string;
}

/** A run manifest. */
export interface Manifest {
  /** The pack's name. */
  readonly pack: string;
  /**
   * `running` while the run goes on; `complete`, `partial` (some reports failed), `interrupted`
   * (stopped by a signal), or `abandoned`: the process died while running (killed, crashed, the
   * machine stopped) and a later run of the pack found it so; `finished` then stays null.
   */
  readonly status: "running" | "complete" | "partial" | "interrupted" | "abandoned";
  /** When the run started (RFC 3339). */
  readonly started: string;
  /** When it finished, if it did. */
  readonly finished: string | null;
  /** Where the data came from. */
  readonly source: string;
  /** samkit's version. */
  readonly samkitVersion: string;
  /** Parameters per report id. */
  readonly parameters: Record<string, Record<string, unknown>>;
  /** Every report's outcome. */
  readonly reports: readonly ManifestReport[];
  /** Every file written, with checksums (the manifest and its signature excluded). */
  readonly files: readonly ManifestFile[];
  /**
   * The key that signs this manifest, for a signed run: its signature is `manifest.sig` beside
   * it, the 64 raw bytes of Ed25519 over this file's exact bytes.
   */
  readonly signedBy?: ManifestKey;
}

/** The key a signed run's manifest names. */
export interface ManifestKey {
  /** The signature algorithm: `Ed25519`. */
  readonly algorithm: "Ed25519";
  /** Hex SHA-256 of the public key's SPKI DER (its fingerprint). */
  readonly publicKeySha256: string;
}

/**
 * Hex SHA-256 of a file, read in a stream.
 *
 * @example
 * ```ts ignore
 * import { sha256File } from "./manifest.ts";
 * console.log(await sha256File("out/report.pdf"));
 * ```
 */
export async function sha256File(path: string): Promise<string> {
  // Web Crypto digests whole buffers; evidence files are read once here, after they are complete.
  const data = await readRegularFile(path);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the manifest never lists: itself and its signature. */
const NOT_LISTED = new Set(["manifest.json", "manifest.sig"]);

/**
 * Lists every file below `dir` (except `manifest.json`, `manifest.sig` and temp files) with size
 * and checksum, sorted by path.
 *
 * @example
 * ```ts ignore
 * import { checksumFolder } from "./manifest.ts";
 * console.log(await checksumFolder("out/packs/weekly/2026-11-22T0600Z"));
 * ```
 */
export async function checksumFolder(dir: string, prefix = ""): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await checksumFolder(dir, rel));
    else if (entry.isFile && !NOT_LISTED.has(rel) && !isTempName(entry.name)) {
      const path = `${dir}/${rel}`;
      out.push({ path: rel, bytes: (await Deno.stat(path)).size, sha256: await sha256File(path) });
    }
  }
  return out.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * The exact text of `manifest.json` for a manifest (what a signature covers).
 *
 * @example
 * ```ts
 * import { manifestText } from "./manifest.ts";
 * console.log(manifestText({
 *   pack: "weekly",
 *   status: "complete",
 *   started: "2026-11-22T06:00:00Z",
 *   finished: "2026-11-22T06:01:00Z",
 *   source: "demo",
 *   samkitVersion: "0.1.0",
 *   parameters: {},
 *   reports: [],
 *   files: [],
 * }).endsWith("}\n")); // true
 * ```
 */
export function manifestText(manifest: Manifest): string {
  return JSON.stringify(manifest, null, 2) + "\n";
}

/**
 * Writes `manifest.json` into `dir` atomically.
 *
 * @example
 * ```ts ignore
 * import { writeManifest } from "./manifest.ts";
 * await writeManifest(dir, manifest);
 * ```
 */
export async function writeManifest(dir: string, manifest: Manifest): Promise<string> {
  return await writeAtomic(`${dir}/manifest.json`, manifestText(manifest));
}

/**
 * {@link writeManifest}, synchronously: the last word of a run stopped as the process exits.
 *
 * @example
 * ```ts ignore
 * import { writeManifestSync } from "./manifest.ts";
 * writeManifestSync(dir, { ...manifest, status: "interrupted" });
 * ```
 */
export function writeManifestSync(dir: string, manifest: Manifest): string {
  return writeAtomicSync(`${dir}/manifest.json`, manifestText(manifest));
}

/**
 * Checks every file of a manifest against its checksum; returns the paths that do not match.
 *
 * @example
 * ```ts
 * import { verifyManifest } from "./manifest.ts";
 * import { checksumFolder, writeManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir(); // a run folder
 * await Deno.writeTextFile(`${dir}/report.csv`, "a,b\n1,2\n");
 * await writeManifest(dir, {
 *   pack: "weekly",
 *   status: "complete",
 *   started: "2026-11-22T06:00:00Z",
 *   finished: "2026-11-22T06:01:00Z",
 *   source: "demo",
 *   samkitVersion: "0.1.0",
 *   parameters: {},
 *   reports: [],
 *   files: await checksumFolder(dir),
 * });
 * console.log(await verifyManifest(dir)); // []
 * await Deno.writeTextFile(`${dir}/report.csv`, "a,b\n1,3\n");
 * console.log(await verifyManifest(dir)); // ["report.csv"]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function verifyManifest(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readRegularTextFile(`${dir}/manifest.json`)) as Manifest;
  const bad: string[] = [];
  for (const file of manifest.files) {
    try {
      if ((await sha256File(`${dir}/${file.path}`)) !== file.sha256) bad.push(file.path);
    } catch {
      bad.push(file.path);
    }
  }
  return bad;
}

/**
 * Reads a run folder's manifest, or null when it has none or it is not JSON.
 *
 * @example
 * ```ts
 * import { readManifest } from "./manifest.ts";
 * import { checksumFolder, writeManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir(); // a run folder
 * await Deno.writeTextFile(`${dir}/report.csv`, "a,b\n1,2\n");
 * await writeManifest(dir, {
 *   pack: "weekly",
 *   status: "complete",
 *   started: "2026-11-22T06:00:00Z",
 *   finished: "2026-11-22T06:01:00Z",
 *   source: "demo",
 *   samkitVersion: "0.1.0",
 *   parameters: {},
 *   reports: [],
 *   files: await checksumFolder(dir),
 * });
 * console.log((await readManifest(dir))?.status); // "complete"
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await readRegularTextFile(join(dir, "manifest.json"))) as Manifest;
  } catch {
    return null;
  }
}

/**
 * Marks the manifest of a run whose process died as `abandoned`: temp files it left in the run
 * folder are removed and `files` is made to list exactly the finished files there (with their
 * checksums). Returns the new manifest.
 *
 * @example
 * ```ts ignore
 * import { abandonRun } from "./manifest.ts";
 * await abandonRun("out/packs/weekly/2026-11-22T0600Z", manifest);
 * ```
 */
export async function abandonRun(dir: string, manifest: Manifest): Promise<Manifest> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && isTempName(entry.name)) await removeQuietly(join(dir, entry.name));
  }
  const abandoned: Manifest = {
    ...manifest,
    status: "abandoned",
    files: await checksumFolder(dir),
  };
  await writeManifest(dir, abandoned);
  return abandoned;
}
