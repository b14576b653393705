/**
 * The V8 flags `deno task report` runs with, read from `deno.json`, so the benches' child
 * processes measure what users run.
 *
 * @module
 */

/**
 * The `--v8-flags=…` arguments of the `report` task in `deno.json`.
 *
 * @example
 * ```ts ignore
 * import { reportV8Flags } from "./v8_flags.ts";
 * console.log(await reportV8Flags()); // ["--v8-flags=--max-semi-space-size=8,--heap-growing-percent=30"]
 * ```
 */
export async function reportV8Flags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  return String(config.tasks?.report ?? "").split(/\s+/).filter((a) => a.startsWith("--v8-flags="));
}
