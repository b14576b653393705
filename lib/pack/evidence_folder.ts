/**
 * A pack run's evidence folder, `<root>/<pack>/<YYYY-MM-DDTHHMMZ>/`, and its staging folder
 * beside it: reports are rendered into the staging folder and their finished files moved in, so
 * the run folder only ever holds finished files and the manifest.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { type ManifestFile, sha256File } from "./manifest.ts";
import { markOwned } from "../fs/owned_temp.ts";
import { checkSubfolder } from "../fs/containment.ts";
import { isTempName } from "../render/atomic.ts";

/**
 * The run folder name of an instant: `YYYY-MM-DDTHHMMZ` (UTC).
 *
 * @example
 * ```ts
 * import { runFolderName } from "./evidence_folder.ts";
 * console.log(runFolderName(new Date("2026-11-22T06:05:09Z"))); // 2026-11-22T0605Z
 * ```
 */
export function runFolderName(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`;
}

/**
 * The staging folder of a run folder: `.<run>.staging` beside it, owned by the run's process.
 *
 * @example
 * ```ts
 * import { stagingOf } from "./evidence_folder.ts";
 * console.log(stagingOf("out/packs/weekly/2026-11-22T0605Z"));
 * // out/packs/weekly/.2026-11-22T0605Z.staging
 * ```
 */
export function stagingOf(dir: string): string {
  return join(dirname(dir), `.${basename(dir)}.staging`);
}

async function makeRunDir(packDir: string, started: Date): Promise<string> {
  await Deno.mkdir(packDir, { recursive: true });
  const base = join(packDir, runFolderName(started));
  for (let n = 1;; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    try {
      await Deno.mkdir(dir);
      checkSubfolder(packDir, dir, "run folder");
      return dir;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
    }
  }
}

/** Finished files below `dir` (temp names and probes left out), relative to it. */
async function finishedFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await finishedFiles(dir, rel));
    else if (e.isFile && !isTempName(e.name) && !e.name.startsWith(".samkit-")) out.push(rel);
  }
  return out;
}

/**
 * A run folder and its staging folder, with the checksums of the files moved in so far.
 *
 * @example
 * ```ts ignore
 * import { EvidenceFolder } from "./evidence_folder.ts";
 * const folder = await EvidenceFolder.create("out/packs/weekly", new Date());
 * await Deno.writeTextFile(`${folder.staged}/a.csv`, "a\n");
 * console.log(await folder.publish(), folder.files); // ["a.csv"] [{ path: "a.csv", … }]
 * await folder.close();
 * ```
 */
export class EvidenceFolder {
  /** The run folder (absolute). */
  readonly dir: string;
  /** Where reports are rendered before their files are moved into the run folder. */
  readonly staged: string;
  #files: ManifestFile[] = [];

  private constructor(dir: string) {
    this.dir = dir;
    this.staged = join(stagingOf(dir), "files");
  }

  /** Creates the run folder and its owned staging folder. */
  static async create(packDir: string, started: Date): Promise<EvidenceFolder> {
    const folder = new EvidenceFolder(await makeRunDir(packDir, started));
    await Deno.mkdir(stagingOf(folder.dir));
    await markOwned(stagingOf(folder.dir));
    await Deno.mkdir(folder.staged);
    return folder;
  }

  /** The files in the run folder, sorted by path. */
  get files(): ManifestFile[] {
    return [...this.#files].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  }

  /** A path in the staging folder. */
  stagedPath(name: string): string {
    return join(stagingOf(this.dir), name);
  }

  /** Moves every finished file of the staging folder into the run folder; their paths. */
  async publish(): Promise<string[]> {
    const moved: string[] = [];
    for (const rel of await finishedFiles(this.staged)) {
      moved.push(await this.adopt(join(this.staged, rel), rel));
    }
    return moved.sort();
  }

  /** Moves one finished file into the run folder as `rel`, with its checksum. */
  async adopt(from: string, rel: string): Promise<string> {
    const to = join(this.dir, rel);
    await Deno.mkdir(dirname(to), { recursive: true });
    checkSubfolder(this.dir, dirname(to), "run sub-folder");
    await Deno.rename(from, to);
    const bytes = (await Deno.stat(to)).size;
    this.#files = this.#files.filter((f) => f.path !== rel);
    this.#files.push({ path: rel, bytes, sha256: await sha256File(to) });
    return rel;
  }

  /** Removes the staging folder (and any unfinished file in it). */
  async close(): Promise<void> {
    await Deno.remove(stagingOf(this.dir), { recursive: true }).catch(() => {});
  }
}
