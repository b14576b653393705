/**
 * The output folder check made before any data is fetched, so that an unwritable folder fails
 * fast with a clear message and nothing is half-written.
 *
 * @module
 */

import { OutputError } from "./errors.ts";

/**
 * Creates `dir` if needed and proves it writable with a probe file that is removed at once.
 *
 * @example
 * ```ts
 * import { ensureWritableDir } from "./output_dir.ts";
 * await ensureWritableDir(await Deno.makeTempDir());
 * ```
 */
export async function ensureWritableDir(dir: string): Promise<void> {
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
