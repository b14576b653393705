/**
 * Output folders held for the length of a run, and re-checked by their real path before every
 * file is written or moved into them. A folder is checked once when the run starts
 * (`containment.ts`, `output_dir.ts`); without the re-check, a folder renamed away and replaced
 * by a symbolic link while the run goes on would take the run's later files wherever the link
 * points. Deno cannot open a folder and write relative to it (no `openat`), so the folder is
 * held by what it was: its real path and its identity (device and inode). Before each write into
 * a held folder, or into a folder below it, the folder's path must still lead to the same real
 * path and the same folder, and the file's own folder must really be inside it; otherwise
 * {@link FolderChangedError} and nothing is written.
 *
 * What remains: a swap in the instant between the re-check and the write itself; and a folder
 * the task may write but not read (granted with `--allow-write` alone), whose real path cannot
 * be looked up, is not held.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { isInside } from "./safe_name.ts";
import { realTarget } from "./containment.ts";

/**
 * A held output folder that no longer is what it was when the run checked it (replaced by a
 * symbolic link or by another folder, or removed): the file named was not written.
 *
 * @example
 * ```ts
 * import { FolderChangedError } from "./held_dirs.ts";
 * const e = new FolderChangedError({ what: "output folder", dir: "out/x", target: "out/x/a.csv",
 *   problem: "it is now a symbolic link to /tmp/elsewhere" });
 * console.log(e.message);
 * // output folder out/x changed while the run wrote into it (it is now a symbolic link to
 * // /tmp/elsewhere): out/x/a.csv was not written
 * ```
 */
export class FolderChangedError extends Error {
  /** The held folder, as given. */
  readonly dir: string;
  /** The file that was not written. */
  readonly target: string;
  /** @param options What the folder is, the folder, the file, and what changed. */
  constructor(
    options: { what: string; dir: string; target: string; problem: string },
  ) {
    super(
      `${options.what} ${options.dir} changed while the run wrote into it (${options.problem}): ` +
        `${options.target} was not written`,
    );
    this.name = "FolderChangedError";
    this.dir = options.dir;
    this.target = options.target;
  }
}

/** A folder held: what it was when it was checked. */
interface Held {
  readonly what: string;
  /** The folder as given, absolute. */
  readonly path: string;
  /** Its real path then. */
  readonly real: string;
  readonly dev: number | null;
  readonly ino: number | null;
}

const held: Held[] = [];

/** A hold on a folder; releasing it (or `using`) stops the re-checks. */
export interface HeldDir extends Disposable {
  /** The folder as given, absolute. */
  readonly path: string;
  /** Its real path when it was held. */
  readonly real: string;
  /** Stops re-checking this folder (once). */
  release(): void;
}

/**
 * Holds an existing folder: every write into it (or below it) through `atomic.ts`, and every file
 * a pack moves into its run folder, first checks that it is still the same folder at the same
 * real path ({@link checkWriteTarget}). Release it when the run ends. A folder this task may not
 * read is not held (the hold does nothing).
 *
 * @example
 * ```ts
 * import { checkWriteTarget, holdDir } from "./held_dirs.ts";
 * const dir = await Deno.makeTempDir();
 * using _held = holdDir(dir, "output folder");
 * checkWriteTarget(`${dir}/report.csv`); // the same folder: no error
 * ```
 */
export function holdDir(dir: string, what: string): HeldDir {
  const path = resolve(dir);
  let real: string;
  let info: Deno.FileInfo;
  try {
    real = Deno.realPathSync(path);
    info = Deno.statSync(real);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) throw error;
    // Not ours to look at: left to Deno's own check of each write, as before.
    const none = () => {};
    return { path, real: path, release: none, [Symbol.dispose]: none };
  }
  const entry: Held = { what, path, real, dev: info.dev, ino: info.ino };
  held.push(entry);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const i = held.indexOf(entry);
    if (i >= 0) held.splice(i, 1);
  };
  return { path, real, release, [Symbol.dispose]: release };
}

/** What changed about a held folder, or undefined when it is as it was. */
function changeOf(h: Held): string | undefined {
  let real: string;
  try {
    real = Deno.realPathSync(h.path);
  } catch {
    return "it is gone";
  }
  if (real !== h.real) {
    let link = false;
    try {
      link = Deno.lstatSync(h.path).isSymlink;
    } catch {
      // looked at above
    }
    return link ? `it is now a symbolic link to ${real}` : `it now leads to ${real}, not ${h.real}`;
  }
  const info = Deno.statSync(real);
  if (info.dev !== h.dev || info.ino !== h.ino) return "it was replaced by another folder";
  return undefined;
}

/**
 * Checks, right before a file is written or moved to `target`, every held folder `target` is
 * in: each must still be the folder it was at its real path, and the file's own folder must
 * really lie inside it. A target in no held folder passes. Throws {@link FolderChangedError}.
 *
 * @example
 * ```ts
 * import { checkWriteTarget } from "./held_dirs.ts";
 * checkWriteTarget("/tmp/not-held/x.csv"); // in no held folder: no error
 * ```
 */
export function checkWriteTarget(target: string): void {
  const path = resolve(target);
  // The innermost folder first: its change is the one to name.
  for (const h of [...held].sort((a, b) => b.path.length - a.path.length)) {
    if (!isInside(h.path, path) || h.path === path) continue;
    const problem = changeOf(h);
    if (problem) throw new FolderChangedError({ what: h.what, dir: h.path, target: path, problem });
    const realDir = realTarget(dirname(path));
    if (!isInside(h.real, realDir)) {
      throw new FolderChangedError({
        what: h.what,
        dir: h.path,
        target: path,
        problem: `the file's folder now leads to ${realDir}, outside it`,
      });
    }
  }
}
