/**
 * Atomic file output: every file is written to `<name>.tmp-<random>` in its final folder and
 * renamed when complete, so a reader never sees a half-written report and a failed render leaves
 * no final file (and, after {@link AtomicFile.abort}, no temp file either). A target inside a
 * held output folder (`../fs/held_dirs.ts`) is re-checked before the temp file is made and again
 * before the rename: a folder swapped for a symbolic link mid-run gets nothing written through
 * it (`FolderChangedError`).
 *
 * @module
 */

import { basename, dirname, join, resolve } from "node:path";
import { checkWriteTarget } from "../fs/held_dirs.ts";

/** A file being written under a temp name. */
export interface AtomicFile {
  /** The temp path to write to (same folder as the target, so the rename is atomic). */
  readonly path: string;
  /** The absolute final path. */
  readonly target: string;
  /** Renames the temp file to the target; returns the target. */
  commit(): Promise<string>;
  /** Removes the temp file (no error when it was never created or is already gone). */
  abort(): Promise<void>;
}

/** A streaming text writer on an {@link AtomicFile}. */
export interface AtomicTextWriter {
  /** The temp path being written. */
  readonly path: string;
  /** The absolute final path. */
  readonly target: string;
  /** Appends text (buffered; flushed in large writes). */
  write(text: string): Promise<void>;
  /**
   * Flushes and closes the temp file without renaming it, so a multi-file renderer can finish
   * every file before committing any. Writing afterwards fails.
   */
  close(): Promise<void>;
  /** Flushes, closes (unless closed) and renames the file; returns the target. */
  commit(): Promise<string>;
  /** Closes and removes the temp file. Safe to call after a failed write or twice. */
  abort(): Promise<void>;
}

/** The temp name of a target: `<name>.tmp-<random>` in the same folder. */
function tempName(target: string): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  const hex = Array.from(random, (b) => b.toString(16).padStart(2, "0")).join("");
  return join(dirname(target), `${basename(target)}.tmp-${hex}`);
}

/** Whether a file name is a temp name made by this module. */
export function isTempName(name: string): boolean {
  return /\.tmp-[0-9a-f]{12}$/.test(name);
}

/**
 * Reserves a temp path for `path`. Nothing is created until the caller writes to
 * {@link AtomicFile.path}; call `commit()` when the file is complete or `abort()` on error.
 *
 * @example
 * ```ts
 * import { atomicFile } from "./atomic.ts";
 * const file = atomicFile(`${await Deno.makeTempDir()}/report.txt`);
 * try {
 *   await Deno.writeTextFile(file.path, "…");
 *   await file.commit();
 * } catch (error) {
 *   await file.abort();
 *   throw error;
 * }
 * ```
 */
export function atomicFile(path: string): AtomicFile {
  const target = resolve(path);
  checkWriteTarget(target);
  const tmp = tempName(target);
  let done = false;
  return {
    path: tmp,
    target,
    async commit() {
      if (done) throw new Error(`atomic file ${target} already finished`);
      done = true;
      try {
        checkWriteTarget(target);
      } catch (error) {
        await removeQuietly(tmp).catch(() => {});
        throw error;
      }
      await Deno.rename(tmp, target);
      return target;
    },
    async abort() {
      done = true;
      await removeQuietly(tmp);
    },
  };
}

/** Removes a file, ignoring "not found". */
export async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Writes a whole file atomically; returns its absolute path.
 *
 * @example
 * ```ts
 * import { writeAtomic } from "./atomic.ts";
 * const path = await writeAtomic(`${await Deno.makeTempDir()}/hello.txt`, "hello\n");
 * console.log(path.endsWith("hello.txt")); // true
 * ```
 */
export async function writeAtomic(path: string, data: string | Uint8Array): Promise<string> {
  const file = atomicFile(path);
  try {
    if (typeof data === "string") await Deno.writeTextFile(file.path, data);
    else await Deno.writeFile(file.path, data);
    return await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/**
 * {@link writeAtomic}, synchronously: for a last write when the process is about to exit (a
 * stopped run's manifest). Returns the absolute path.
 *
 * @example
 * ```ts
 * import { writeAtomicSync } from "./atomic.ts";
 * const path = writeAtomicSync(`${Deno.makeTempDirSync()}/manifest.json`, "{}\n");
 * console.log(Deno.readTextFileSync(path)); // {}
 * ```
 */
export function writeAtomicSync(path: string, data: string): string {
  const target = resolve(path);
  checkWriteTarget(target);
  const tmp = tempName(target);
  try {
    Deno.writeTextFileSync(tmp, data);
    checkWriteTarget(target);
    Deno.renameSync(tmp, target);
    return target;
  } catch (error) {
    try {
      Deno.removeSync(tmp);
    } catch {
      // never made, or gone
    }
    throw error;
  }
}

/**
 * Runs `write` with a temp path and commits on success; on any error (or a rejected promise) the
 * temp file is removed and the error rethrown, so no final file appears.
 *
 * @example
 * ```ts
 * import { withAtomicFile } from "./atomic.ts";
 * const path = await withAtomicFile(`${await Deno.makeTempDir()}/data.bin`, async (tmp) => {
 *   await Deno.writeFile(tmp, new Uint8Array([1, 2, 3]));
 * });
 * console.log(path);
 * ```
 */
export async function withAtomicFile(
  path: string,
  write: (tmpPath: string) => Promise<void>,
): Promise<string> {
  const file = atomicFile(path);
  try {
    await write(file.path);
    return await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/** Bytes buffered before a write reaches the file. */
const FLUSH_AT = 64 * 1024;

/**
 * A buffered UTF-8 text writer on a plain file (many small writes become few large ones). The
 * building block of {@link openAtomicText}; also used for spool files, which are never renamed.
 *
 * @example
 * ```ts
 * import { TextFileWriter } from "./atomic.ts";
 * const path = `${await Deno.makeTempDir()}/lines.jsonl`;
 * const out = await TextFileWriter.open(path);
 * await out.write('{"n":1}\n');
 * await out.close();
 * ```
 */
export class TextFileWriter {
  #file: Deno.FsFile;
  #path: string;
  #parts: string[] = [];
  #size = 0;
  #encoder = new TextEncoder();
  #closed = false;

  private constructor(file: Deno.FsFile, path: string) {
    this.#file = file;
    this.#path = path;
  }

  /**
   * Opens `path` for writing: truncated, or with `createNew` failing if it exists.
   * @param path The file.
   * @param options `createNew`: refuse an existing file.
   */
  static async open(path: string, options: { createNew?: boolean } = {}): Promise<TextFileWriter> {
    const file = await Deno.open(
      path,
      options.createNew
        ? { write: true, createNew: true }
        : { write: true, create: true, truncate: true },
    );
    return new TextFileWriter(file, path);
  }

  /** Whether {@link TextFileWriter.close} or {@link TextFileWriter.discard} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Appends text. */
  async write(text: string): Promise<void> {
    if (this.#closed) throw new Error(`file ${this.#path} is closed`);
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= FLUSH_AT) await this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const bytes = this.#encoder.encode(this.#parts.join(""));
    this.#parts = [];
    this.#size = 0;
    let offset = 0;
    while (offset < bytes.length) offset += await this.#file.write(bytes.subarray(offset));
  }

  /** Flushes and closes (no-op when closed). */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#flush();
    } finally {
      this.discard();
    }
  }

  /** Closes without flushing (after an error); safe to call twice. */
  discard(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#parts = [];
    try {
      this.#file.close();
    } catch {
      // already closed
    }
  }
}

/**
 * Opens a streaming text writer on a temp file for `path`. Text is UTF-8 encoded and buffered so
 * many small writes become few large ones.
 *
 * @example
 * ```ts
 * import { openAtomicText } from "./atomic.ts";
 * const out = await openAtomicText(`${await Deno.makeTempDir()}/rows.txt`);
 * try {
 *   for (let i = 0; i < 3; i++) await out.write(`row ${i}\n`);
 *   await out.commit();
 * } catch (error) {
 *   await out.abort();
 *   throw error;
 * }
 * ```
 */
export async function openAtomicText(path: string): Promise<AtomicTextWriter> {
  const file = atomicFile(path);
  const writer = await TextFileWriter.open(file.path, { createNew: true });
  return {
    path: file.path,
    target: file.target,
    write: (text) => writer.write(text),
    close: () => writer.close(),
    async commit() {
      await writer.close();
      return await file.commit();
    },
    async abort() {
      writer.discard();
      await file.abort();
    },
  };
}
