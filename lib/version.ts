/**
 * samkit's version, as in deno.json.
 *
 * @module
 */

/**
 * The version written on covers, JSON outputs and manifests.
 *
 * @example
 * ```ts
 * import { VERSION } from "./version.ts";
 * console.log(VERSION);
 * ```
 */
export const VERSION = "0.1.0";
