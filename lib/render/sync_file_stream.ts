/**
 * A Node `Writable` that writes each chunk to a file at once, synchronously. The XLSX renderer
 * gives it to exceljs' `WorkbookWriter` instead of `fs.createWriteStream`: with one asynchronous
 * write in flight at a time, the zip's output queued in archiver's 1 MB buffer and in the file
 * stream while rows were produced, those buffers outlived young-generation collections, and RSS
 * grew with the row count. Written at once, nothing queues after the deflater.
 *
 * @module
 */

import { Writable } from "node:stream";

/**
 * Writes chunks to `path` (created or truncated) as they come; closes the file on `end()` or
 * `destroy()`. The first write error is kept in {@link SyncFileStream.failure} as well as emitted.
 *
 * @example
 * ```ts
 * import { SyncFileStream } from "./sync_file_stream.ts";
 * const path = `${await Deno.makeTempDir()}/out.txt`;
 * const stream = new SyncFileStream(path);
 * stream.write(new TextEncoder().encode("hello"));
 * await new Promise((resolve) => stream.end(resolve));
 * console.log(await Deno.readTextFile(path)); // hello
 * ```
 */
export class SyncFileStream extends Writable {
  #file: Deno.FsFile | undefined;
  /** The first error writing or closing the file, if any. */
  failure: Error | undefined;

  /** @param path The file to write (created, or truncated if it exists). */
  constructor(path: string) {
    super();
    this.#file = Deno.openSync(path, { write: true, create: true, truncate: true });
  }

  override _write(
    chunk: Uint8Array,
    _encoding: string,
    callback: (error?: Error | null) => void,
  ): void {
    try {
      for (let at = 0; at < chunk.length;) at += this.#file!.writeSync(chunk.subarray(at));
      callback();
    } catch (error) {
      callback(this.#fail(error));
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    try {
      this.#close();
      callback();
    } catch (error) {
      callback(this.#fail(error));
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    try {
      this.#close();
    } catch {
      // closing after a failure: the first error is the one to report
    }
    callback(error);
  }

  #fail(error: unknown): Error {
    const failure = error instanceof Error ? error : new Error(String(error));
    this.failure ??= failure;
    return failure;
  }

  #close(): void {
    const file = this.#file;
    this.#file = undefined;
    file?.close();
  }
}
