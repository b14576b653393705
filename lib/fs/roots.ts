/**
 * The places samkit reads from and writes to, in one module: the roots of the permission sets in
 * `deno.json` (the project folder, its `./out`, `/tmp`) plus the system temp folder (`TMPDIR`).
 * A path a user names is checked against these by where it really leads
 * (see `containment.ts`), since Deno's own check looks at the path as written.
 *
 * @module
 */

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { systemTempDir } from "./owned_temp.ts";

/** What a path is used for: read or written. */
export type Access = "read" | "write";

/**
 * The project folder: the samkit checkout this module belongs to (the `.` of the permission
 * sets), or the working folder when samkit is not run from files.
 *
 * @example
 * ```ts
 * import { projectDir } from "./roots.ts";
 * console.log(projectDir().length > 0); // true
 * ```
 */
export function projectDir(): string {
  const url = new URL("../../", import.meta.url);
  return url.protocol === "file:" ? resolve(fileURLToPath(url)) : Deno.cwd();
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => p).map((p) => resolve(p)))];
}

/**
 * The folders a path used for `access` may really lead into: read — the project folder, `/tmp`
 * and the system temp folder; write — the project's `./out`, `/tmp` and the system temp folder.
 *
 * @example
 * ```ts
 * import { projectDir, rootsFor } from "./roots.ts";
 * console.log(rootsFor("read").includes(projectDir())); // true
 * console.log(rootsFor("write").includes("/tmp")); // true
 * ```
 */
export function rootsFor(access: Access): string[] {
  const temp = ["/tmp", systemTempDir()];
  if (access === "write") return unique([join(projectDir(), "out"), ...temp]);
  return unique([projectDir(), ...temp]);
}
