/**
 * The `--theme FILE` flag of `report`, `pack`, `schedule` and `demo`: the theme loaded and
 * checked (`lib/render/theme.ts`) before any request, its module imported only when the flag is
 * given, so a run without a theme loads none of it.
 *
 * @module
 */

import type { Theme } from "../render/theme.ts";

/**
 * The theme a `--theme` flag names, loaded and checked, or undefined without the flag. A bad
 * theme throws `ThemeError` (bad input: exit 2) naming its file, line and what to fix.
 *
 * @example
 * ```ts
 * import { themeFlag } from "./theme_flag.ts";
 * console.log(await themeFlag(undefined)); // undefined
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/theme.json`, '{"company": "Example Ltd"}');
 * console.log((await themeFlag(`${dir}/theme.json`))?.company); // Example Ltd
 * ```
 */
export async function themeFlag(path: string | undefined): Promise<Theme | undefined> {
  if (path === undefined) return undefined;
  const { loadTheme } = await import("../render/theme.ts");
  return await loadTheme(path);
}
