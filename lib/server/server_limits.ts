/**
 * The request sizes the reference server answers itself, below Deno's own limits (see
 * `server.ts`): a request target over {@link REQUEST_LIMITS}`.targetBytes` gets 414, header
 * fields over `headerBytes` or more than `headerFields` of them get 431.
 *
 * @module
 */

import { HttpError } from "./serialize.ts";

/**
 * The request sizes the server answers, below Deno's own limits: the request target (path and
 * query, 8 KiB as common front ends allow), the header fields (`name: value` lines, 16 KiB as
 * Node.js allows) and their number.
 *
 * @example
 * ```ts
 * import { REQUEST_LIMITS } from "./server_limits.ts";
 * console.log(REQUEST_LIMITS.targetBytes); // 8192
 * ```
 */
export const REQUEST_LIMITS = {
  targetBytes: 8192,
  headerBytes: 16384,
  headerFields: 100,
} as const;

/** The request target as sent (path and query): what follows the authority in `req.url`. */
function requestTarget(req: Request): string {
  const afterScheme = req.url.indexOf("//") + 2;
  const slash = req.url.indexOf("/", afterScheme);
  return slash < 0 ? "/" : req.url.slice(slash);
}

/**
 * A 414 or 431 for a request over {@link REQUEST_LIMITS}, or undefined.
 *
 * @example
 * ```ts
 * import { sizeError } from "./server_limits.ts";
 * const req = new Request(`http://127.0.0.1/${"x".repeat(9000)}`);
 * console.log(sizeError(req)?.status); // 414
 * ```
 */
export function sizeError(req: Request): HttpError | undefined {
  const target = new TextEncoder().encode(requestTarget(req)).length;
  if (target > REQUEST_LIMITS.targetBytes) {
    return new HttpError(
      414,
      `The request target is ${target} bytes; the limit is ${REQUEST_LIMITS.targetBytes}.`,
    );
  }
  let fields = 0;
  let bytes = 0;
  for (const [name, value] of req.headers) {
    fields++;
    bytes += name.length + value.length + 4; // ": " and CRLF
  }
  if (fields > REQUEST_LIMITS.headerFields) {
    return new HttpError(
      431,
      `The request has ${fields} header fields; the limit is ${REQUEST_LIMITS.headerFields}.`,
    );
  }
  if (bytes > REQUEST_LIMITS.headerBytes) {
    return new HttpError(
      431,
      `The request header fields are ${bytes} bytes; the limit is ${REQUEST_LIMITS.headerBytes}.`,
    );
  }
  return undefined;
}
