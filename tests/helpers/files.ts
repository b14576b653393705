/**
 * Test helper: the folders tests write into and what a test reads back from them.
 *
 * @module
 */

import { ROOT } from "./cli.ts";

/**
 * A fresh folder under the project's `out/test` (where the CLI's permission sets may write),
 * named with `prefix`; the caller removes it.
 *
 * @example Usage
 * ```ts ignore
 * import { outTestDir } from "./files.ts";
 *
 * const dir = await outTestDir("pack-");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function outTestDir(prefix: string): Promise<string> {
  await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
  return await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix });
}

/**
 * Whether anything (a file, a folder, a link, even a dangling one) stands at `path`.
 *
 * @example Usage
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { exists } from "./files.ts";
 *
 * assert.equal(await exists("/no/such/path"), false);
 * ```
 */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
