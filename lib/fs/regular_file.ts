/**
 * Reading only regular files. Opening a FIFO for reading blocks until something writes to it,
 * and a device (`/dev/zero`, a terminal) never ends: a file samkit is told to read — or finds in
 * a history or temp folder — that is not a regular file would hang the run. So every read goes
 * through here: the path is looked at first (`stat`, which never blocks) and anything but a
 * regular file is refused with {@link NotRegularFileError} naming the file and what it is; the
 * file is then opened non-blocking (`O_NONBLOCK`, through `node:fs`, as `Deno.open` takes no
 * such flag) and the opened file is looked at again, so a file swapped for a FIFO, a device or
 * another file between the look and the open is refused too, never waited on.
 *
 * Errors of the look (`Deno.errors.NotFound`, `NotCapable`, `PermissionDenied`) are thrown as
 * `Deno.readTextFile` throws them, so callers keep their messages.
 *
 * @module
 */

import { closeSync, constants, fstatSync, openSync, promises as fsp, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** What a path that is not a regular file is. */
export type FileKind =
  | "regular file"
  | "folder"
  | "FIFO"
  | "socket"
  | "character device"
  | "block device"
  | "symbolic link"
  | "special file";

/**
 * A file samkit was to read that is not a regular file (a FIFO, a device, a socket, a folder).
 * Nothing was read from it.
 *
 * @example
 * ```ts
 * import { NotRegularFileError } from "./regular_file.ts";
 * const e = new NotRegularFileError("/tmp/pack.json", "FIFO");
 * console.log(e.message); // /tmp/pack.json is a FIFO, not a regular file
 * ```
 */
export class NotRegularFileError extends Error {
  /** The path as given. */
  readonly path: string;
  /** What it is. */
  readonly kind: FileKind;
  /** The message without the path: `is a FIFO, not a regular file`. */
  readonly problem: string;
  /**
   * @param path The path as given.
   * @param kind What it is.
   */
  constructor(path: string, kind: FileKind) {
    const problem = `is a ${kind}, not a regular file`;
    super(`${path} ${problem}`);
    this.name = "NotRegularFileError";
    this.path = path;
    this.kind = kind;
    this.problem = problem;
  }
}

/**
 * What a looked-at path is, from `Deno.stat`/`Deno.lstat`.
 *
 * @example
 * ```ts
 * import { fileKind } from "./regular_file.ts";
 * console.log(fileKind(Deno.statSync("/dev/null"))); // character device
 * ```
 */
export function fileKind(info: Deno.FileInfo): FileKind {
  if (info.isFile) return "regular file";
  if (info.isDirectory) return "folder";
  if (info.isSymlink) return "symbolic link";
  if (info.isFifo) return "FIFO";
  if (info.isSocket) return "socket";
  if (info.isCharDevice) return "character device";
  if (info.isBlockDevice) return "block device";
  return "special file";
}

/** The same fields of `node:fs` `Stats`, as far as the check needs them. */
interface NodeStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  ino: number | bigint;
  dev: number | bigint;
}

function nodeKind(s: NodeStats): FileKind {
  if (s.isFile()) return "regular file";
  if (s.isDirectory()) return "folder";
  if (s.isFIFO()) return "FIFO";
  if (s.isSocket()) return "socket";
  if (s.isCharacterDevice()) return "character device";
  if (s.isBlockDevice()) return "block device";
  return "special file";
}

/**
 * Refuses anything but a regular file at `path` (links followed); returns what `Deno.stat` says
 * of it. Never opens the file, so never blocks. Throws {@link NotRegularFileError}, or the
 * look's own error (`Deno.errors.NotFound`…).
 *
 * @example
 * ```ts
 * import { assertRegularFile } from "./regular_file.ts";
 * const path = await Deno.makeTempFile();
 * console.log((await assertRegularFile(path)).size); // 0
 * ```
 */
export async function assertRegularFile(path: string): Promise<Deno.FileInfo> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new NotRegularFileError(path, fileKind(info));
  return info;
}

/**
 * {@link assertRegularFile}, synchronously (before a synchronous open such as SQLite's).
 *
 * @example
 * ```ts
 * import { assertRegularFileSync } from "./regular_file.ts";
 * try {
 *   assertRegularFileSync("/dev/null");
 * } catch (e) {
 *   console.log((e as Error).message); // /dev/null is a character device, not a regular file
 * }
 * ```
 */
export function assertRegularFileSync(path: string): Deno.FileInfo {
  const info = Deno.statSync(path);
  if (!info.isFile) throw new NotRegularFileError(path, fileKind(info));
  return info;
}

/**
 * {@link assertRegularFileSync} for a file that may not exist yet (one a library creates, such
 * as a SQLite database): nothing there is fine; anything but a regular file is refused.
 *
 * @example
 * ```ts
 * import { assertRegularIfPresentSync } from "./regular_file.ts";
 * console.log(assertRegularIfPresentSync(`${Deno.makeTempDirSync()}/estate.sqlite`)); // undefined
 * ```
 */
export function assertRegularIfPresentSync(path: string): Deno.FileInfo | undefined {
  try {
    return assertRegularFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/**
 * Refuses a path that no longer leads to the file looked at (`looked`, from
 * {@link assertRegularFileSync}): for a file opened by a library that takes a path (SQLite),
 * after it opened it. Throws {@link FileReplacedError}.
 *
 * @example
 * ```ts
 * import { assertRegularFileSync, assertSameFile } from "./regular_file.ts";
 * const path = Deno.makeTempFileSync();
 * const looked = assertRegularFileSync(path);
 * assertSameFile(path, looked); // the same file: no error
 * ```
 */
export function assertSameFile(path: string, looked: Deno.FileInfo): void {
  const now = Deno.statSync(path);
  if (!now.isFile || now.ino !== looked.ino || now.dev !== looked.dev) {
    throw new FileReplacedError(path);
  }
}

/** Opening without waiting: a FIFO opens at once, and a terminal never becomes ours. */
const NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);

/** A `node:fs` error of the open, as the `Deno.errors` class `Deno.readTextFile` would throw. */
function asDenoError(path: string, error: unknown): unknown {
  const code = (error as { code?: string })?.code;
  const message = `${(error as Error)?.message ?? error}`;
  if (code === "ENOENT") return new Deno.errors.NotFound(message);
  if (code === "EACCES" || code === "EPERM") return new Deno.errors.PermissionDenied(message);
  if (code === "EISDIR") return new NotRegularFileError(path, "folder");
  if (code === "ENXIO") return new NotRegularFileError(path, "socket");
  return error;
}

/**
 * A file that was replaced between the look and the open: nothing was read from it.
 *
 * @example
 * ```ts
 * import { FileReplacedError } from "./regular_file.ts";
 * console.log(new FileReplacedError("/tmp/rates.csv").message);
 * // /tmp/rates.csv was replaced while it was opened; nothing was read
 * ```
 */
export class FileReplacedError extends Error {
  /** @param path The path as given. */
  constructor(path: string) {
    super(`${path} was replaced while it was opened; nothing was read`);
    this.name = "FileReplacedError";
  }
}

/** Refuses an opened file that is not regular or not the one looked at. */
function checkOpened(path: string, looked: Deno.FileInfo, opened: NodeStats): void {
  const kind = nodeKind(opened);
  if (kind !== "regular file") throw new NotRegularFileError(path, kind);
  const same = looked.ino === null || looked.dev === null ||
    (Number(opened.ino) === looked.ino && Number(opened.dev) === looked.dev);
  if (!same) throw new FileReplacedError(path);
}

/** Options of the read functions. */
export interface ReadRegularOptions {
  /** Refuse a file larger than this many bytes (looked at before reading). */
  readonly maxBytes?: number;
}

function checkSize(path: string, info: Deno.FileInfo, options: ReadRegularOptions): void {
  if (options.maxBytes !== undefined && info.size > options.maxBytes) {
    throw new RangeError(`${path} is larger than ${options.maxBytes} bytes (${info.size})`);
  }
}

/**
 * Reads a whole regular file; refuses (without blocking) a FIFO, device, socket or folder with
 * {@link NotRegularFileError}.
 *
 * @example
 * ```ts
 * import { readRegularFile } from "./regular_file.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeFile(path, new Uint8Array([1, 2]));
 * console.log((await readRegularFile(path)).length); // 2
 * ```
 */
export async function readRegularFile(
  path: string,
  options: ReadRegularOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const looked = await assertRegularFile(path);
  checkSize(path, looked, options);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, NO_WAIT);
  } catch (error) {
    throw asDenoError(path, error);
  }
  try {
    checkOpened(path, looked, await handle.stat());
    return view(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** The bytes of a `node:fs` buffer, not copied. */
function view(buffer: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/** UTF-8 as `Deno.readTextFile` decodes it (a byte-order mark kept, bad bytes replaced). */
function decode(bytes: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/**
 * Reads a regular file as UTF-8 text (as `Deno.readTextFile`); refuses (without blocking) a FIFO,
 * device, socket or folder with {@link NotRegularFileError}.
 *
 * @example
 * ```ts
 * import { readRegularTextFile } from "./regular_file.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "hello");
 * console.log(await readRegularTextFile(path)); // hello
 * ```
 */
export async function readRegularTextFile(
  path: string,
  options: ReadRegularOptions = {},
): Promise<string> {
  return decode(await readRegularFile(path, options));
}

/**
 * {@link readRegularTextFile}, synchronously.
 *
 * @example
 * ```ts
 * import { readRegularTextFileSync } from "./regular_file.ts";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, "hello");
 * console.log(readRegularTextFileSync(path)); // hello
 * ```
 */
export function readRegularTextFileSync(path: string | URL): string {
  const name = path instanceof URL ? fileURLToPath(path) : path;
  const looked = assertRegularFileSync(name);
  let fd: number;
  try {
    fd = openSync(name, NO_WAIT);
  } catch (error) {
    throw asDenoError(name, error);
  }
  try {
    checkOpened(name, looked, fstatSync(fd));
    return decode(view(readFileSync(fd)));
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a regular file for reading (a stream of it); refuses a FIFO, device, socket or folder
 * with {@link NotRegularFileError} before opening, and a file swapped after the look.
 *
 * @example
 * ```ts
 * import { openRegularFile } from "./regular_file.ts";
 * const path = await Deno.makeTempFile();
 * using file = await openRegularFile(path);
 * console.log(await file.read(new Uint8Array(8))); // null
 * ```
 */
export async function openRegularFile(path: string): Promise<Deno.FsFile> {
  const looked = await assertRegularFile(path);
  const file = await Deno.open(path, { read: true });
  try {
    const opened = await file.stat();
    if (!opened.isFile) throw new NotRegularFileError(path, fileKind(opened));
    if (opened.ino !== looked.ino || opened.dev !== looked.dev) throw new FileReplacedError(path);
    return file;
  } catch (error) {
    file.close();
    throw error;
  }
}

/**
 * What went wrong reading a file, for a message that already names it: a
 * {@link NotRegularFileError}'s problem (`is a FIFO, not a regular file`), else the error's
 * message.
 *
 * @example
 * ```ts
 * import { NotRegularFileError, readProblem } from "./regular_file.ts";
 * console.log(readProblem(new NotRegularFileError("/x", "socket"))); // is a socket, not a regular file
 * ```
 */
export function readProblem(error: unknown): string {
  if (error instanceof NotRegularFileError) return error.problem;
  return (error as Error)?.message ?? String(error);
}
