/**
 * A pack's `theme`: the path of a theme file (`lib/render/theme.ts`) for every report of the pack
 * and its summary mail, written relative to the pack file.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";

/**
 * Checks a pack's `theme` field: absent, or a non-empty path; returns it as given.
 *
 * @example
 * ```ts
 * import { checkPackTheme } from "./pack_theme.ts";
 * const fail = (problem: string): never => {
 *   throw new Error(problem);
 * };
 * console.log(checkPackTheme("./theme/theme.json", { fail })); // ./theme/theme.json
 * ```
 */
export function checkPackTheme(
  value: unknown,
  { fail }: { fail: (problem: string) => never },
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !value.trim()) {
    return fail("expected the path of a theme file, relative to the pack file");
  }
  return value;
}

/**
 * Where a pack's theme file is: its path resolved from the pack file's folder, absolute, so that a
 * worker running the pack elsewhere finds the same file.
 *
 * @example
 * ```ts
 * import { packThemePath } from "./pack_theme.ts";
 * console.log(packThemePath("/srv/packs", "../theme/theme.json")); // /srv/theme/theme.json
 * ```
 */
export function packThemePath(packDir: string, theme: string): string {
  return isAbsolute(theme) ? theme : resolve(packDir, theme);
}
