/**
 * A worker's name, as its log lines and the run history show it.
 *
 * @module
 */

/**
 * This process's worker name: `host:pid`.
 *
 * @example
 * ```ts
 * import { workerName } from "./worker_name.ts";
 * console.log(workerName().endsWith(`:${Deno.pid}`)); // true
 * ```
 */
export function workerName(): string {
  let host = "localhost";
  try {
    host = Deno.hostname();
  } catch {
    // no sys permission: the pid alone still tells workers on one machine apart
  }
  return `${host}:${Deno.pid}`;
}
