/**
 * The output folder check made before any data is fetched, so that an unwritable folder fails
 * fast with a clear message and nothing is half-written.
 *
 * Deno checks write permission on the path as written, not on where it leads: `out/esc` with
 * `esc` a symbolic link to `/etc` passes a `./out` allowance. So the folder is first resolved
 * through symbolic links (the real path of its nearest existing ancestor, plus the rest), and a
 * folder whose real path the permission set does not allow writing is refused.
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import { OutputError } from "./errors.ts";

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
 * Refuses a folder that leads outside the allowed write places ({@link checkOutputPlace}),
 * creates it if needed and proves it writable with a probe file that is removed at once.
 *
 * @example
 * ```ts
 * import { ensureWritableDir } from "./output_dir.ts";
 * await ensureWritableDir(await Deno.makeTempDir());
 * ```
 */
export async function ensureWritableDir(dir: string): Promise<void> {
  await checkOutputPlace(dir);
  try {
    await Deno.mkdir(dir, { recursive: true });
    const probe = `${dir}/.samkit-probe-${crypto.randomUUID()}`;
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (e) {
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
