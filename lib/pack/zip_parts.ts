/**
 * Comparing two zip files (XLSX workbooks) part by part: the same part names, each part's bytes
 * the same once inflated. The zip's own file times — the time each part was written — are left
 * out: they are the only bytes in which two renderings of the same workbook differ. Reads only
 * what the central directory declares, and inflates no part past its declared size.
 *
 * @module
 */

/** One part of a zip, as its central directory lists it. */
interface ZipPart {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localOffset: number;
}

/**
 * A file that is not a zip samkit can read (no end of central directory, zip64, a part past the
 * end, a compression method other than stored or deflate).
 *
 * @example
 * ```ts
 * import { ZipFormatError } from "./zip_parts.ts";
 * console.log(new ZipFormatError("no end of central directory").message);
 * ```
 */
export class ZipFormatError extends Error {
  /** @param problem What is wrong. */
  constructor(problem: string) {
    super(`not a zip samkit can compare: ${problem}`);
    this.name = "ZipFormatError";
  }
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function endOfCentralDirectory(view: DataView): number {
  const last = Math.max(0, view.byteLength - 65_557);
  for (let at = view.byteLength - 22; at >= last; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw new ZipFormatError("no end of central directory");
}

function partsOf(bytes: Uint8Array): ZipPart[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22) throw new ZipFormatError("shorter than a zip");
  const end = endOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw new ZipFormatError("zip64");
  const names = new TextDecoder();
  const parts: ZipPart[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) {
      throw new ZipFormatError(`central directory entry ${i} is cut`);
    }
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    parts.push({
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + skip;
  }
  return parts;
}

/** A part's bytes, inflated, never more than its declared size. */
async function partBytes(bytes: Uint8Array, part: ZipPart): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = part.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
    throw new ZipFormatError(`${part.name}: no local header`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + part.compressedSize;
  if (end > bytes.length) throw new ZipFormatError(`${part.name}: past the end of the file`);
  const data = bytes.slice(start, end);
  if (part.method === 0) return data;
  if (part.method !== 8) throw new ZipFormatError(`${part.name}: compression ${part.method}`);
  const out = new Uint8Array(part.size);
  let length = 0;
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  for await (const chunk of stream) {
    if (length + chunk.length > part.size) {
      throw new ZipFormatError(`${part.name}: inflates past its declared ${part.size} bytes`);
    }
    out.set(chunk, length);
    length += chunk.length;
  }
  return out.subarray(0, length);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The first difference between two zips' parts (a part only one has, or whose bytes differ), or
 * null when every part is the same; their file times are not compared.
 *
 * @example
 * ```ts ignore
 * import { zipPartsDiffer } from "./zip_parts.ts";
 * console.log(await zipPartsDiffer(original, rerendered)); // null, or "xl/worksheets/sheet2.xml differs"
 * ```
 */
export async function zipPartsDiffer(a: Uint8Array, b: Uint8Array): Promise<string | null> {
  const partsA = partsOf(a);
  const partsB = new Map(partsOf(b).map((p) => [p.name, p]));
  if (new Set(partsA.map((p) => p.name)).size !== partsA.length) return "a part name twice";
  if (partsA.length !== partsB.size) {
    return `${partsA.length} parts, the re-render has ${partsB.size}`;
  }
  for (const part of partsA) {
    const other = partsB.get(part.name);
    if (!other) return `part ${part.name} is not in the re-render`;
    // Sizes first: a part is only inflated when the re-render's is the same size.
    if (part.size !== other.size) return `part ${part.name} differs in size`;
    if (!equalBytes(await partBytes(a, part), await partBytes(b, other))) {
      return `part ${part.name} differs`;
    }
  }
  return null;
}
