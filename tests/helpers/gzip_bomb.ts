/**
 * Test helper: a gzip body of zeros that a server can send without compressing anything — a
 * hand-built deflate stream of fixed-Huffman "copy 258 bytes from 1 back" codes, 13 bytes for
 * every 2,064 bytes it expands to — so a test can send gigabytes' worth cheaply, or never end.
 *
 * @module
 */

/** Bytes of zeros one {@link PATTERN} expands to (8 copies of 258 bytes). */
export const PATTERN_EXPANDS_TO = 8 * 258;

/** Writes bits least significant first, as deflate packs them. */
class BitWriter {
  readonly bytes: number[] = [];
  #bit = 0;

  /** `n` bits of `value`, least significant first (header fields, extra bits). */
  bits(value: number, n: number): void {
    for (let i = 0; i < n; i++) this.#push((value >> i) & 1);
  }

  /** A Huffman code of `n` bits, most significant first. */
  code(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.#push((value >> i) & 1);
  }

  #push(bit: number): void {
    if (this.#bit === 0) this.bytes.push(0);
    this.bytes[this.bytes.length - 1]! |= bit << this.#bit;
    this.#bit = (this.#bit + 1) % 8;
  }
}

/** Fixed-Huffman length code 285 (copy 258 bytes), then distance code 0 (1 back). */
function copy258(w: BitWriter): void {
  w.code(0b11000101, 8);
  w.code(0, 5);
}

/**
 * The gzip header and the start of the deflate block: one literal zero and one copy, 3 bytes
 * that end on a byte and a code boundary, so {@link PATTERN} repeats after them.
 */
function head(): Uint8Array<ArrayBuffer> {
  const w = new BitWriter();
  w.bits(1, 1); // BFINAL: the only block
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  w.code(0b00110000, 8); // literal 0
  copy258(w);
  const gzip = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
  return new Uint8Array([...gzip, ...w.bytes]);
}

/** Eight copy codes: 104 bits, 13 whole bytes, expanding to {@link PATTERN_EXPANDS_TO} zeros. */
export const PATTERN: Uint8Array = (() => {
  const w = new BitWriter();
  for (let i = 0; i < 8; i++) copy258(w);
  return new Uint8Array(w.bytes);
})();

/** What a bomb stream has sent, for a test to assert how much the client made it produce. */
export interface BombCounter {
  /** Compressed bytes handed to the server's response so far. */
  sent: number;
  /** Zeros those bytes expand to. */
  expandsTo: number;
}

/**
 * A gzip stream of zeros that never ends (the deflate block is never closed), produced lazily as
 * the server's response is read: `counter` says how far the client read.
 *
 * @example
 * ```ts
 * import { gzipBomb } from "./gzip_bomb.ts";
 * const counter = { sent: 0, expandsTo: 0 };
 * const reader = gzipBomb(counter).pipeThrough(new DecompressionStream("gzip")).getReader();
 * let zeros = 0;
 * while (zeros < 1_000_000) zeros += (await reader.read()).value!.byteLength;
 * await reader.cancel();
 * console.log(zeros >= 1_000_000, counter.sent < 20_000); // true true
 * ```
 */
export function gzipBomb(counter: BombCounter): ReadableStream<Uint8Array<ArrayBuffer>> {
  const chunkPatterns = 4096; // ~53 kB sent, ~8.5 MB of zeros per chunk
  const chunk = new Uint8Array(PATTERN.byteLength * chunkPatterns);
  for (let i = 0; i < chunkPatterns; i++) chunk.set(PATTERN, i * PATTERN.byteLength);
  let started = false;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (!started) {
        started = true;
        const first = head();
        counter.sent += first.byteLength;
        counter.expandsTo += 1 + 258;
        controller.enqueue(first);
        return;
      }
      counter.sent += chunk.byteLength;
      counter.expandsTo += chunkPatterns * PATTERN_EXPANDS_TO;
      controller.enqueue(chunk.slice());
    },
  }, { highWaterMark: 0 });
}
