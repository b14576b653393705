/**
 * Temp folders that say who owns them, so the ones a killed run left behind can be removed by
 * the next run without ever touching a live run's folder.
 *
 * Every `samkit-*` temp folder (row spools, browser profiles, a pack's staging folder) holds an
 * owner marker, `.samkit-owner`, naming its process's lock file. Each process holds an exclusive
 * advisory lock on its own lock file (in a `samkit-owner-*` temp folder) for as long as it runs;
 * the operating system drops the lock when the process ends, however it ends (SIGKILL too). A
 * folder is stale when its owner's lock can be taken or its lock file is gone. This needs no
 * permission beyond the temp folder: no `/proc`, no signals. A folder without a marker (being
 * created, or made by an older samkit) is left alone.
 *
 * The temp folder is shared: anyone may put a `samkit-*` folder there. So only what samkit itself
 * makes is looked into — a folder, a marker and a lock file that are not symbolic links, belong to
 * this user, and are regular files (never opened otherwise: opening a FIFO blocks) — and anything
 * else is `unknown` and left alone. When the process ends through `Deno.exit` (a stop signal's
 * last resort included), the folders it marked are removed with its lock folder.
 *
 * @module
 */

import { join } from "node:path";
import { readRegularTextFile } from "./regular_file.ts";

/**
 * The name of the owner marker file inside an owned folder.
 *
 * @example
 * ```ts
 * import { OWNER_MARKER } from "./owned_temp.ts";
 * console.log(OWNER_MARKER); // .samkit-owner
 * ```
 */
export const OWNER_MARKER = ".samkit-owner";

/** What a marker holds: the owner's process id (for people) and its lock file. */
interface Owner {
  readonly pid: number;
  readonly lock: string;
}

let processLock: Promise<string> | undefined;

/** The folders this process marked as its own (removed, if still there, when it exits). */
const marked = new Set<string>();

/** Removes the folders this process marked that are still there; never throws. */
function removeMarkedSync(): void {
  for (const dir of marked) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // already gone
    }
  }
  marked.clear();
}

/** Remembers `dir` as this process's; forgets ones already removed, so the set stays small. */
function remember(dir: string): void {
  if (marked.size >= 64) {
    for (const old of marked) {
      try {
        Deno.lstatSync(old);
      } catch {
        marked.delete(old);
      }
    }
  }
  marked.add(dir);
}

/**
 * This process's lock file, created and locked on first use and kept locked (its file open) for
 * the life of the process. The lock file is the marker of its own folder, so a dead process's
 * lock folder is itself stale.
 */
function ownLock(): Promise<string> {
  processLock ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-owner-" });
    const path = join(dir, OWNER_MARKER);
    const file = await Deno.open(path, { read: true, write: true, createNew: true });
    await file.lock(true);
    const owner: Owner = { pid: Deno.pid, lock: path };
    await file.write(new TextEncoder().encode(JSON.stringify(owner) + "\n"));
    // An exit takes the lock folder and the folders still marked along; after a kill the next
    // run finds them stale.
    globalThis.addEventListener("unload", () => {
      removeMarkedSync();
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // already gone
      }
    });
    return path;
  })().catch((error) => {
    processLock = undefined;
    throw error;
  });
  return processLock;
}

/** This user's id, or undefined where it cannot be known (Windows, no `sys` permission). */
function userId(): number | undefined {
  try {
    return Deno.uid() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * What `path` is, not following a link: `ours` (this user's file or folder, as wanted),
 * `missing`, or `other` — a link, a FIFO, a
 * device, a folder, or a file of another user — which is never opened.
 */
async function ownKind(
  path: string,
  want: "file" | "folder",
): Promise<"ours" | "missing" | "other"> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "missing";
    throw error;
  }
  const kindOk = want === "file" ? info.isFile : info.isDirectory;
  const uid = userId();
  const mine = uid === undefined || info.uid === null || info.uid === uid;
  return kindOk && mine ? "ours" : "other";
}

/**
 * Whether the process holding `lock` is alive: its lock file exists and cannot be locked. A lock
 * path that is not this user's regular file throws (the owner is then unknown).
 */
async function lockHeld(lock: string): Promise<boolean> {
  const kind = await ownKind(lock, "file");
  if (kind === "missing") return false;
  if (kind === "other") throw new Error(`${lock} is not a lock file samkit made`);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(lock, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  try {
    return !(await file.tryLock(true));
  } finally {
    file.close(); // closing releases a lock taken here
  }
}

/**
 * Whether the owner of a folder is alive: `alive`, `dead`, or `unknown` (no marker, or one that
 * cannot be read or checked).
 *
 * @example
 * ```ts
 * import { makeOwnedTempDir, ownerState } from "./owned_temp.ts";
 * const dir = await makeOwnedTempDir({ prefix: "samkit-example-" });
 * console.log(await ownerState(dir)); // alive
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function ownerState(dir: string): Promise<"alive" | "dead" | "unknown"> {
  try {
    if ((await ownKind(dir, "folder")) !== "ours") return "unknown";
    const marker = join(dir, OWNER_MARKER);
    if ((await ownKind(marker, "file")) !== "ours") return "unknown";
    const owner = JSON.parse(await readRegularTextFile(marker, { maxBytes: 4096 })) as Owner;
    if (typeof owner?.lock !== "string") return "unknown";
    return (await lockHeld(owner.lock)) ? "alive" : "dead";
  } catch {
    return "unknown";
  }
}

/**
 * Writes this process's owner marker into an existing folder.
 *
 * @example
 * ```ts
 * import { markOwned, ownerState } from "./owned_temp.ts";
 * const dir = await Deno.makeTempDir();
 * await markOwned(dir);
 * console.log(await ownerState(dir)); // alive
 * ```
 */
export async function markOwned(dir: string): Promise<void> {
  const owner: Owner = { pid: Deno.pid, lock: await ownLock() };
  await Deno.writeTextFile(join(dir, OWNER_MARKER), JSON.stringify(owner) + "\n");
  remember(dir);
}

/**
 * Creates a temp folder (as `Deno.makeTempDir`) with this process's owner marker in it.
 *
 * @example
 * ```ts
 * import { makeOwnedTempDir } from "./owned_temp.ts";
 * const dir = await makeOwnedTempDir({ prefix: "samkit-spool-" });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function makeOwnedTempDir(options: Deno.MakeTempOptions = {}): Promise<string> {
  const dir = await Deno.makeTempDir(options);
  try {
    await markOwned(dir);
  } catch (error) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  }
  return dir;
}

/**
 * The system temp folder `Deno.makeTempDir` uses: `TMPDIR` (or `TMP`/`TEMP`), else `/tmp`.
 *
 * @example
 * ```ts
 * import { systemTempDir } from "./owned_temp.ts";
 * console.log(systemTempDir()); // e.g. /tmp
 * ```
 */
export function systemTempDir(): string {
  for (const name of ["TMPDIR", "TMP", "TEMP"]) {
    try {
      const value = Deno.env.get(name);
      if (value) return value;
    } catch {
      // no env permission: the default
    }
  }
  return Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp";
}

/** Options of {@link removeStaleDirs}. */
export interface RemoveStaleOptions {
  /** The folder to look in (default {@link systemTempDir}). */
  readonly dir?: string;
  /** Only folders whose name starts with this (default `samkit-`). */
  readonly prefix?: string;
}

/**
 * Removes the folders in `dir` whose name starts with `prefix` and whose owner process is gone;
 * returns their paths. A live owner's folder, an unmarked folder and one that cannot be removed
 * are left alone; a missing `dir` is no error.
 *
 * @example
 * ```ts
 * import { removeStaleDirs } from "./owned_temp.ts";
 * const removed = await removeStaleDirs({ prefix: "samkit-" });
 * console.log(removed.length >= 0); // true
 * ```
 */
export async function removeStaleDirs(options: RemoveStaleOptions = {}): Promise<string[]> {
  const dir = options.dir ?? systemTempDir();
  const prefix = options.prefix ?? "samkit-";
  const removed: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isDirectory || !entry.name.startsWith(prefix)) continue;
      const path = join(dir, entry.name);
      if ((await ownerState(path)) !== "dead") continue;
      try {
        await Deno.remove(path, { recursive: true });
        removed.push(path);
      } catch {
        // not ours to remove, or already gone: left alone
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return removed;
}

/**
 * Removes the `samkit-*` temp folders of dead runs from the system temp folder, as every report
 * and pack command does first; never fails (a folder it cannot check or remove is left). Returns
 * how many it removed.
 *
 * @example
 * ```ts
 * import { cleanStaleTemp } from "./owned_temp.ts";
 * console.log(await cleanStaleTemp() >= 0); // true
 * ```
 */
export async function cleanStaleTemp(): Promise<number> {
  try {
    return (await removeStaleDirs()).length;
  } catch {
    return 0;
  }
}
