/**
 * Test helper: the folders tests write into and what a test reads back from them.
 *
 * @module
 */

import { after } from "node:test";
import { ROOT } from "./cli.ts";

/**
 * A maker of temporary folders for one test file: each call makes a fresh folder named with
 * `prefix`, and an `after` hook removes them all once the file's tests are done (a link in one
 * goes, never what it points to). Call it once at a test file's top.
 *
 * @example Usage
 * ```ts ignore
 * import { tempDirs } from "./files.ts";
 *
 * const tempDir = tempDirs("samkit-example-");
 * const dir = await tempDir();
 * ```
 */
export function tempDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  after(async () => {
    for (const dir of made) await Deno.remove(dir, { recursive: true }).catch(() => {});
  });
  return async () => {
    const dir = await Deno.makeTempDir({ prefix });
    made.push(dir);
    return dir;
  };
}

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
