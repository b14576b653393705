/**
 * The responses of the reference server's injected faults: a status (429, 503 or any other
 * with its error body and `retry-after`), a reset (headers sent, then the body breaks off) and
 * a truncation (half a body sent with 200).
 *
 * @module
 */

import type { FiredFault } from "./faults.ts";
import { errorBody, jsonResponse } from "./serialize.ts";

/**
 * A response whose headers are sent and whose body then breaks off (a dropped connection).
 *
 * @example
 * ```ts
 * import { resetResponse } from "./server_faults.ts";
 * const res = resetResponse();
 * console.log(res.status); // 200 (reading the body then fails)
 * ```
 */
export function resetResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"items":['));
    },
    pull(controller) {
      controller.error(new Error("connection reset by fault plan"));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

/**
 * The first half of a body, sent with 200 and a matching content length.
 *
 * @example
 * ```ts
 * import { truncated } from "./server_faults.ts";
 * const res = await truncated(new Response('{"items":[]}'));
 * console.log(await res.text()); // '{"item'
 * ```
 */
export async function truncated(res: Response): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const cut = bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2)));
  return new Response(cut, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/**
 * The error response of a fired status fault (500 unless the fault names a status).
 *
 * @example
 * ```ts
 * import { faultResponse } from "./server_faults.ts";
 * const res = faultResponse({ spec: { status: 503, retryAfter: 2 } });
 * console.log(res.status, res.headers.get("retry-after")); // 503 "2"
 * ```
 */
export function faultResponse(fault: Pick<FiredFault, "spec">): Response {
  const status = fault.spec.status ?? 500;
  const headers: Record<string, string> = {};
  if (fault.spec.retryAfter !== undefined) headers["retry-after"] = String(fault.spec.retryAfter);
  const message = status === 429
    ? "Too many requests."
    : status === 503
    ? "The service is unavailable; try again later."
    : `Fault injected (${status}).`;
  return jsonResponse(errorBody(status, message), status, headers);
}
