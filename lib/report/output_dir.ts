/**
 * The output folder check made before any data is fetched, so that an unwritable folder fails
 * fast with a clear message and nothing is half-written. A folder the check creates is removed
 * again, while empty, when the run ends without writing into it (see {@link WritableDir}), so
 * rejected input or a run that fails before its first file leaves no empty folder.
 *
 * Deno checks write permission on the path as written, not on where it leads: `out/esc` with
 * `esc` a symbolic link to `/etc` passes a `./out` allowance. So the folder is first resolved
 * through symbolic links (the real path of its nearest existing ancestor, plus the rest), and a
 * folder whose real path the permission set does not allow writing is refused. The folder is
 * then held (`held_dirs.ts`): until the run ends, every file written into it first re-checks
 * that the folder is still the one checked, at the same real path, so a folder swapped for a
 * symbolic link mid-run is refused rather than written through.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import { OutputError } from "./errors.ts";
import { type HeldDir, holdDir } from "../fs/held_dirs.ts";

/**
 * Where a folder really is: the real path of its nearest existing ancestor (symbolic links
 * followed, a dangling one too) joined with the part that does not exist yet. An ancestor that
 * cannot be read is taken as written.
 *
 * @example
 * ```ts
 * import { realOutputPath } from "./output_dir.ts";
 * const dir = await Deno.makeTempDir();
 * console.log(await realOutputPath(`${dir}/not/yet`) === `${await Deno.realPath(dir)}/not/yet`);
 * // true
 * ```
 */
export async function realOutputPath(dir: string, hops = 0): Promise<string> {
  let path = resolve(dir);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(await Deno.realPath(path), ...rest);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return join(path, ...rest);
      const link = await danglingLink(path);
      if (link !== undefined) {
        // A link to a place that does not exist yet: follow it (mkdir would create there).
        if (hops >= 40) return join(path, ...rest);
        return await realOutputPath(join(resolve(dirname(path), link), ...rest), hops + 1);
      }
    }
    const parent = dirname(path);
    if (parent === path) return join(path, ...rest);
    rest.unshift(basename(path));
    path = parent;
  }
}

/** The target of `path` when it is a symbolic link (whose target is missing), else undefined. */
async function danglingLink(path: string): Promise<string | undefined> {
  try {
    return (await Deno.lstat(path)).isSymlink ? await Deno.readLink(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a folder that leads, through symbolic links, somewhere this run may not write.
 *
 * @example
 * ```ts
 * import { checkOutputPlace } from "./output_dir.ts";
 * await checkOutputPlace(await Deno.makeTempDir());
 * ```
 */
export async function checkOutputPlace(dir: string): Promise<void> {
  const written = resolve(dir);
  const real = await realOutputPath(dir);
  if (real === written) return; // no link on the way: Deno's own check is the truth
  const { state } = await Deno.permissions.query({ name: "write", path: real });
  if (state === "granted") return;
  throw new OutputError(
    dir,
    `it resolves through a symbolic link to ${real}, outside the folders this task may write ` +
      "to (./out and /tmp); choose a folder under ./out, or add --allow-write for the real place",
  );
}

/**
 * An output folder proved writable, holding what proving it created. Disposing of it (`await
 * using`) removes those folders again while they are empty, so a run that fails before writing
 * leaves no empty folder behind, and one that wrote something keeps it.
 */
export interface WritableDir extends AsyncDisposable {
  /** The folder, as given. */
  readonly dir: string;
  /** Absolute paths of the folders the check created, outermost first (none: it was there). */
  readonly created: readonly string[];
  /**
   * Ends the hold on the folder and removes the created folders, innermost first, each only
   * while it is empty (a file written into one, by this run or another, keeps it and the folders
   * above it). Never throws.
   */
  removeIfEmpty(): Promise<void>;
}

/** The folders `mkdir -p dir` would create: the missing tail of its path, outermost first. */
async function missingFolders(dir: string): Promise<string[]> {
  const missing: string[] = [];
  let path = resolve(dir);
  for (;;) {
    try {
      await Deno.lstat(path);
      return missing;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return missing;
    }
    missing.unshift(path);
    const parent = dirname(path);
    if (parent === path) return missing;
    path = parent;
  }
}

/** A {@link WritableDir} for `dir` whose check created `created`, holding `held` till the end. */
function writableDir(
  dir: string,
  created: readonly string[],
  held: { hold?: HeldDir } = {},
): WritableDir {
  const removeIfEmpty = async () => {
    held.hold?.release();
    for (const path of [...created].reverse()) {
      try {
        await Deno.remove(path); // not recursive: a folder with anything in it stays
      } catch {
        return; // not empty (or gone, or not ours to remove): the folders above stay too
      }
    }
  };
  return { dir, created, removeIfEmpty, [Symbol.asyncDispose]: removeIfEmpty };
}

/**
 * Refuses a folder that leads outside the allowed write places ({@link checkOutputPlace}),
 * creates it if needed and proves it writable with a probe file that is removed at once. The
 * result remembers which folders it created: dispose of it (or call `removeIfEmpty`) when the run
 * ends, so a run that wrote nothing leaves no folder. A check that fails leaves none either.
 * Until then the folder is held: a write into it after it was swapped for a link (or another
 * folder) throws `FolderChangedError`.
 *
 * @example
 * ```ts
 * import { ensureWritableDir } from "./output_dir.ts";
 * const root = await Deno.makeTempDir();
 * {
 *   await using out = await ensureWritableDir(`${root}/reports/today`);
 *   console.log(out.created.length); // 2
 * } // nothing was written: both folders are gone again
 * console.log([...Deno.readDirSync(root)].length); // 0
 * ```
 */
export async function ensureWritableDir(dir: string): Promise<WritableDir> {
  await checkOutputPlace(dir);
  const missing = await missingFolders(dir);
  const held: { hold?: HeldDir } = {};
  const out = writableDir(dir, missing, held);
  try {
    await Deno.mkdir(dir, { recursive: true });
    const probe = `${dir}/.samkit-probe-${crypto.randomUUID()}`;
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
    // From now on every file written into it re-checks that it is still this folder.
    held.hold = holdDir(dir, "output folder");
    return out;
  } catch (e) {
    await out.removeIfEmpty();
    if (e instanceof Deno.errors.NotCapable) {
      throw new OutputError(
        dir,
        "this task's permission set does not allow writing there (it allows ./out and /tmp); " +
          `run with --allow-write=${dir} added, or choose a folder under ./out`,
      );
    }
    const problem = e instanceof Deno.errors.PermissionDenied
      ? "permission denied"
      : e instanceof Deno.errors.AlreadyExists || e instanceof Deno.errors.NotADirectory
      ? "a file with that name is in the way"
      : (e as Error).message;
    throw new OutputError(dir, problem);
  }
}
