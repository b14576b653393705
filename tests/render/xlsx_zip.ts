/**
 * A small ZIP reader for tests: the entries of an `.xlsx` file as text, read from its central
 * directory and inflated with the platform's `DecompressionStream` — independent of exceljs and
 * of any unzip program.
 *
 * @module
 */

/** Thrown for a file that is not a ZIP archive this reader understands. */
export class ZipReadError extends Error {
  /** @param message What is wrong. */
  constructor(message: string) {
    super(message);
    this.name = "ZipReadError";
  }
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

/** Where an entry's data is and how it is stored. */
interface Entry {
  readonly method: number;
  readonly compressedSize: number;
  readonly localOffset: number;
}

/** The offset of the end-of-central-directory record (searched backwards past any comment). */
function endRecord(view: DataView): number {
  for (let i = view.byteLength - 22; i >= Math.max(0, view.byteLength - 65_557); i--) {
    if (view.getUint32(i, true) === END_OF_CENTRAL_DIRECTORY) return i;
  }
  throw new ZipReadError("no end of central directory record");
}

/** The entries of the central directory, by name. */
function directory(bytes: Uint8Array): Map<string, Entry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecord(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, Entry>();
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL_FILE_HEADER) throw new ZipReadError("bad directory");
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(name, {
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** An entry's stored bytes (behind its local header). */
function storedBytes(bytes: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (view.getUint32(at, true) !== LOCAL_FILE_HEADER) throw new ZipReadError("bad local header");
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return bytes.subarray(start, start + entry.compressedSize);
}

/** Inflates raw DEFLATE data. */
async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Every entry of a ZIP file as UTF-8 text, by name (stored and deflated entries).
 *
 * @example
 * ```ts ignore
 * import { readZipText } from "./xlsx_zip.ts";
 * const parts = await readZipText("/tmp/report.xlsx");
 * console.log(parts.get("xl/workbook.xml")?.includes("<sheets>"));
 * ```
 */
export async function readZipText(path: string): Promise<Map<string, string>> {
  const bytes = await Deno.readFile(path);
  const out = new Map<string, string>();
  const decoder = new TextDecoder();
  for (const [name, entry] of directory(bytes)) {
    const stored = storedBytes(bytes, entry);
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ZipReadError(`${name}: compression method ${entry.method}`);
    }
    out.set(name, decoder.decode(entry.method === 0 ? stored : await inflate(stored)));
  }
  return out;
}
