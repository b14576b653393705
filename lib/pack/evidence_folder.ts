/**
 * A pack run's evidence folder, `<root>/<pack>/<YYYY-MM-DDTHHMMZ>/`, and its staging folder
 * beside it: reports are rendered into the staging folder and their finished files moved in, so
 * the run folder only ever holds finished files and the manifest.
 *
 * Both folders are held (`../fs/held_dirs.ts`) while the run goes on: every file moved or
 * written into them first re-checks that they are still the folders made, at the same real path.
 * Once the run's final manifest is being written the folder is sealed: no file is moved in after
 * it, so the manifest lists exactly what the folder holds, even when work abandoned at a stop
 * signal is still going on in the background.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { type ManifestFile, sha256File } from "./manifest.ts";
import { markOwned } from "../fs/owned_temp.ts";
import { checkSubfolder } from "../fs/containment.ts";
import { checkWriteTarget, type HeldDir, holdDir } from "../fs/held_dirs.ts";
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
  #held: HeldDir[] = [];
  #sealed = false;
  /** The moves in progress, one after the other (a seal waits for them). */
  #moving: Promise<unknown> = Promise.resolve();

  private constructor(dir: string) {
    this.dir = dir;
    this.staged = join(stagingOf(dir), "files");
  }

  /** Creates the run folder and its owned staging folder, and holds both. */
  static async create(packDir: string, started: Date): Promise<EvidenceFolder> {
    const folder = new EvidenceFolder(await makeRunDir(packDir, started));
    folder.#held.push(holdDir(folder.dir, "run folder"));
    try {
      await Deno.mkdir(stagingOf(folder.dir));
      await markOwned(stagingOf(folder.dir));
      await Deno.mkdir(folder.staged);
      folder.#held.push(holdDir(stagingOf(folder.dir), "staging folder"));
    } catch (error) {
      await folder.close();
      throw error;
    }
    return folder;
  }

  /** Whether the folder is sealed: no file is moved in any more. */
  get sealed(): boolean {
    return this.#sealed;
  }

  /** Seals the folder once the moves in progress have ended: nothing is moved in after it. */
  async seal(): Promise<void> {
    this.#sealed = true;
    await this.#moving.catch(() => {});
  }

  /** Seals the folder at once (the process is about to exit). */
  sealSync(): void {
    this.#sealed = true;
  }

  /** The files in the run folder, sorted by path. */
  get files(): ManifestFile[] {
    return [...this.#files].sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  }

  /** A path in the staging folder. */
  stagedPath(name: string): string {
    return join(stagingOf(this.dir), name);
  }

  /** Runs `move` after the moves before it (so a seal can wait for all of them). */
  #serial<T>(move: () => Promise<T>): Promise<T> {
    const next = this.#moving.then(move, move);
    this.#moving = next.catch(() => {});
    return next;
  }

  /** Moves every finished file of the staging folder into the run folder; their paths. */
  publish(): Promise<string[]> {
    return this.#serial(async () => {
      const moved: string[] = [];
      for (const rel of await finishedFiles(this.staged)) {
        moved.push(await this.#adopt(join(this.staged, rel), rel));
      }
      return moved.sort();
    });
  }

  /** Moves one finished file into the run folder as `rel`, with its checksum. */
  adopt(from: string, rel: string): Promise<string> {
    return this.#serial(() => this.#adopt(from, rel));
  }

  async #adopt(from: string, rel: string): Promise<string> {
    if (this.#sealed) throw new SealedFolderError(this.dir, rel);
    const to = join(this.dir, rel);
    checkWriteTarget(to); // the run folder still the one made, before anything is made in it
    await Deno.mkdir(dirname(to), { recursive: true });
    checkSubfolder(this.dir, dirname(to), "run sub-folder");
    checkWriteTarget(to);
    await Deno.rename(from, to);
    const bytes = (await Deno.stat(to)).size;
    this.#files = this.#files.filter((f) => f.path !== rel);
    this.#files.push({ path: rel, bytes, sha256: await sha256File(to) });
    return rel;
  }

  /** Ends the holds and removes the staging folder (and any unfinished file in it). */
  async close(): Promise<void> {
    for (const h of this.#held) h.release();
    await Deno.remove(stagingOf(this.dir), { recursive: true }).catch(() => {});
  }

  /** {@link EvidenceFolder.close}, synchronously (the process is about to exit). */
  closeSync(): void {
    for (const h of this.#held) h.release();
    try {
      Deno.removeSync(stagingOf(this.dir), { recursive: true });
    } catch {
      // already gone
    }
  }
}

/**
 * A file offered to a run folder after the run's final manifest was begun: it is not moved in
 * (the manifest would not list it).
 *
 * @example
 * ```ts
 * import { SealedFolderError } from "./evidence_folder.ts";
 * console.log(new SealedFolderError("out/packs/weekly/2026-11-22T0605Z", "a.csv").message);
 * ```
 */
export class SealedFolderError extends Error {
  /**
   * @param dir The run folder.
   * @param rel The file not moved in.
   */
  constructor(dir: string, rel: string) {
    super(`run folder ${dir} is finished: ${rel} was not moved in`);
    this.name = "SealedFolderError";
  }
}
