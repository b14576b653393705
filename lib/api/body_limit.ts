/**
 * The most bytes one response body may take: counted on the decompressed bytes as the stream is
 * read (a gzip body that expands without end stops at the limit, with at most one chunk beyond
 * it read; what is kept is the bytes themselves, not the larger buffers they arrive in), and
 * checked against `Content-Length` before reading when the body is not
 * encoded. The default is far above any real page (a 1,000-item page of the widest resource is
 * a few MB).
 *
 * @module
 */

/**
 * The default `maxResponseBytes`: 64 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_RESPONSE_BYTES } from "./body_limit.ts";
 * console.log(DEFAULT_MAX_RESPONSE_BYTES); // 67108864
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** The option that sets the limit (client and request function). */
export interface BodyLimitOptions {
  /**
   * The most bytes one response body may take once decompressed (default
   * {@link DEFAULT_MAX_RESPONSE_BYTES}, 64 MiB). A larger body is refused as it is read, naming
   * this option, and never retried.
   */
  readonly maxResponseBytes?: number;
}

/**
 * The limit of the options: `maxResponseBytes`, or the default. Throws a `TypeError` naming the
 * option for a value that is not a positive whole number.
 *
 * @example
 * ```ts
 * import { maxResponseBytesOf } from "./body_limit.ts";
 * console.log(maxResponseBytesOf({}), maxResponseBytesOf({ maxResponseBytes: 1024 }));
 * // 67108864 1024
 * ```
 */
export function maxResponseBytesOf(options: BodyLimitOptions): number {
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(`maxResponseBytes must be a positive whole number of bytes, not ${limit}`);
  }
  return limit;
}

/**
 * A body over the limit: what {@link readBodyLimited} throws (the request layer turns it into a
 * `RefusedResponseError` naming the call).
 *
 * @example
 * ```ts
 * import { BodyTooLarge } from "./body_limit.ts";
 * const e = new BodyTooLarge(1024, 2048);
 * console.log(e.message); // "the response body is larger than maxResponseBytes (1,024 bytes)"
 * ```
 */
export class BodyTooLarge extends Error {
  /** The limit, in bytes. */
  readonly limit: number;
  /** Bytes read before stopping (0 when `Content-Length` alone showed it). */
  readonly read: number;

  constructor(limit: number, read: number) {
    super(`the response body is larger than maxResponseBytes (${bytes(limit)})`);
    this.name = "BodyTooLarge";
    this.limit = limit;
    this.read = read;
  }
}

/**
 * `n` bytes in words, with thousands separators.
 *
 * @example
 * ```ts
 * import { bytes } from "./body_limit.ts";
 * console.log(bytes(67108864)); // "67,108,864 bytes"
 * ```
 */
export function bytes(n: number): string {
  return `${n.toLocaleString("en-US")} bytes`;
}

/**
 * Reads a response body whole, decompressed, stopping as soon as it passes `limit` bytes: the
 * stream is cancelled (the connection let go) and {@link BodyTooLarge} thrown. `onBytes` hears
 * of every chunk as it arrives (for traffic counters).
 *
 * @example
 * ```ts
 * import { BodyTooLarge, readBodyLimited } from "./body_limit.ts";
 * const small = await readBodyLimited(new Response("{}"), 1024);
 * console.log(small.byteLength); // 2
 * await readBodyLimited(new Response("x".repeat(2000)), 1024).catch((e) =>
 *   console.log(e instanceof BodyTooLarge) // true
 * );
 * ```
 */
export async function readBodyLimited(
  response: Response,
  limit: number,
  onBytes: (n: number) => void = () => {},
): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  if (!encoded && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(limit, 0);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    onBytes(value.byteLength);
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(limit, total);
    }
    // A chunk may be a small view of a larger buffer (4 kB of 64 kB, as decompressed): kept as
    // it is, the limit would hold many times its size in memory.
    chunks.push(value.byteLength === value.buffer.byteLength ? value : value.slice());
  }
  return join(chunks, total);
}

/** The chunks as one array (the only chunk as it is). */
function join(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
