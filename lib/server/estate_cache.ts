/**
 * Generated estates kept in a folder and reused: an estate is generated once per size, seed,
 * "now" and version of the code that makes it, saved as the bytes of its SQLite database
 * (further reads and indexes included), and each later server with the same key opens an
 * in-memory copy of those bytes instead of generating again. A copy's writes stay in that copy.
 *
 * The version is the SHA-256 of the Deno version and the source of `lib/server/` and `lib/api/`
 * (the generator, the store, the further reads and the catalogue they follow), so an edit to any
 * of them makes new entries rather than reusing old ones. When the source cannot be read (no read permission, or
 * samkit loaded from a URL), nothing is cached. A folder that cannot be written to only means
 * the estate is generated each time.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { EstateStore } from "./store.ts";

/** The estate a cache entry holds. */
export interface EstateKey {
  /** Number of computers. */
  readonly computers: number;
  /** Seed of the generator. */
  readonly seed: number;
  /** The estate's "now". */
  readonly now: Date;
}

/** Options of {@link openCachedEstate}. */
export interface EstateCacheOptions {
  /** The folder the entries are kept in (created when missing). */
  readonly dir: string;
  /** The estate wanted. */
  readonly key: EstateKey;
  /** Makes the estate when the folder does not hold it (a store the caller then owns). */
  readonly build: () => Promise<EstateStore>;
}

/** What {@link openCachedEstate} opened. */
export interface CachedEstate {
  /** The store: an in-memory copy of the entry, or the one `build` made. */
  readonly store: EstateStore;
  /** Whether the entry was there (`false`: built now). */
  readonly reused: boolean;
}

/** Entries of other versions and unfinished writes older than this are removed. */
const STALE_MS = 60 * 60 * 1000;

/** The folders whose source makes an estate, relative to this module. */
const SOURCE_DIRS = ["./", "../api/"];

let version: Promise<string | undefined> | undefined;

/**
 * The version of the code that makes an estate: 16 hex digits of the SHA-256 of every `.ts` file
 * of `lib/server/` and `lib/api/`, or `undefined` when they cannot be read. Computed once per
 * process.
 *
 * @example
 * ```ts
 * import { estateCodeVersion } from "./estate_cache.ts";
 * console.log(/^[0-9a-f]{16}$/.test((await estateCodeVersion()) ?? "")); // true
 * ```
 */
export function estateCodeVersion(): Promise<string | undefined> {
  version ??= hashSources().catch(() => undefined);
  return version;
}

async function hashSources(): Promise<string | undefined> {
  if (new URL(import.meta.url).protocol !== "file:") return undefined;
  const hash = createHash("sha256");
  hash.update(`deno ${Deno.version.deno}\0`);
  for (const dir of SOURCE_DIRS) {
    const url = new URL(dir, import.meta.url);
    const names: string[] = [];
    for await (const entry of Deno.readDir(url)) {
      if (entry.isFile && entry.name.endsWith(".ts")) names.push(entry.name);
    }
    for (const name of names.sort()) {
      hash.update(`${dir}${name}\0`);
      hash.update(await Deno.readFile(new URL(name, url)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The file name of an entry: size, seed, "now" and code version.
 *
 * @example
 * ```ts
 * import { entryName } from "./estate_cache.ts";
 * const key = { computers: 400, seed: 1, now: new Date("2025-06-30T12:00:00Z") };
 * console.log(entryName(key, "0123456789abcdef"));
 * // "estate-400c-s1-20250630T120000000Z-0123456789abcdef.sqlite"
 * ```
 */
export function entryName(key: EstateKey, codeVersion: string): string {
  const now = key.now.toISOString().replace(/[-:.]/g, "");
  return `estate-${key.computers}c-s${key.seed}-${now}-${codeVersion}.sqlite`;
}

/**
 * Open the estate of `key` from the cache folder, or build it with `build` and save it there.
 * Entries of other code versions older than an hour are removed when an entry is saved.
 *
 * @example
 * ```ts
 * import { openCachedEstate } from "./estate_cache.ts";
 * import { EstateStore } from "./store.ts";
 * const dir = await Deno.makeTempDir();
 * const key = { computers: 0, seed: 1, now: new Date("2025-06-30T00:00:00Z") };
 * const build = () => Promise.resolve(new EstateStore());
 * const first = await openCachedEstate({ dir, key, build });
 * const second = await openCachedEstate({ dir, key, build });
 * console.log(first.reused, second.reused); // false true
 * first.store.close();
 * second.store.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openCachedEstate(options: EstateCacheOptions): Promise<CachedEstate> {
  const codeVersion = await estateCodeVersion();
  if (codeVersion === undefined || !usableKey(options.key)) {
    // Nothing to key the entry by: built (or refused by the generator) as if uncached.
    return { store: await options.build(), reused: false };
  }
  const path = `${options.dir}/${entryName(options.key, codeVersion)}`;
  const cached = await readEntry(path, options.key);
  if (cached) return { store: cached, reused: true };
  const store = await options.build();
  await saveEntry(options.dir, path, store, codeVersion);
  return { store, reused: false };
}

/** Whether a key names an estate the generator makes (else `build` reports the problem). */
function usableKey(key: EstateKey): boolean {
  return Number.isSafeInteger(key.computers) && key.computers >= 0 &&
    Number.isFinite(key.seed) && Number.isFinite(key.now.getTime());
}

/** The entry at `path` as an in-memory store, or undefined when it is missing or unusable. */
async function readEntry(path: string, key: EstateKey): Promise<EstateStore | undefined> {
  let image: Uint8Array;
  try {
    image = await Deno.readFile(path);
  } catch {
    return undefined;
  }
  let store: EstateStore | undefined;
  try {
    store = new EstateStore({ image });
    if (store.count("computers") === key.computers) return store;
  } catch {
    // Not a database, or not one of this schema: built again below.
  }
  store?.close();
  return undefined;
}

/** Save `store` at `path` (written aside, then renamed: readers never see part of it). */
async function saveEntry(
  dir: string,
  path: string,
  store: EstateStore,
  codeVersion: string,
): Promise<void> {
  const aside = `${path}.${crypto.randomUUID()}.partial`;
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeFile(aside, store.serialize());
    await Deno.rename(aside, path);
    await removeStale(dir, codeVersion);
  } catch {
    // A folder that cannot be written to: the estate is generated again next time.
    await Deno.remove(aside).catch(() => {});
  }
}

/** Remove entries of other code versions and unfinished writes, once an hour old. */
async function removeStale(dir: string, codeVersion: string): Promise<void> {
  const now = Date.now();
  for await (const entry of Deno.readDir(dir)) {
    const name = entry.name;
    if (!entry.isFile || !name.startsWith("estate-")) continue;
    const partial = name.endsWith(".partial");
    if (!partial && (name.endsWith(`-${codeVersion}.sqlite`) || !name.endsWith(".sqlite"))) {
      continue;
    }
    const info = await Deno.stat(`${dir}/${name}`).catch(() => undefined);
    if (info?.mtime && now - info.mtime.getTime() > STALE_MS) {
      await Deno.remove(`${dir}/${name}`).catch(() => {});
    }
  }
}
