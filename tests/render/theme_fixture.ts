/**
 * Test helper: theme folders written to disk — a theme file, a PNG logo and template files —
 * for the theme tests of the renderers, the mail and the CLI.
 *
 * @module
 */

import { join } from "node:path";

/** A 24 × 8 green PNG (a valid image: pdfimages lists it). */
export const LOGO_PNG: Uint8Array = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAABgAAAAICAIAAABsw6g0AAAAFElEQVR42mPgzvOnCmIYNWgkGwQA8T6WAewS1EQAAAAASUVORK5CYII=",
  ),
  (c) => c.charCodeAt(0),
);

/** The company of {@link GOOD_THEME}. */
export const COMPANY = "Example Holdings Ltd";

/** The footer text of {@link GOOD_THEME}. */
export const FOOTER = "Confidential: Example Holdings internal use only";

/** The accent and header colour of {@link GOOD_THEME}. */
export const ACCENT = "#0b6e4f";

/** A theme with every field, its logo `logo.png` and templates in `templates/`. */
export const GOOD_THEME = {
  company: COMPANY,
  logo: "./logo.png",
  colors: { accent: ACCENT, header: ACCENT, headerText: "#fff" },
  font: '"DejaVu Serif", serif',
  footer: FOOTER,
  templates: "./templates",
};

/** A totals partial of the user's own: samkit's, with a class of its own. */
export const OWN_TOTALS = `<tfoot class="own-totals">
  {{#each totals}}
  <tr class="total">{{#each cells}}<td class="{{class}}">{{text}}</td>{{/each}}</tr>
  {{/each}}
</tfoot>
`;

/** CSS the theme adds, with a rule a test can find. */
export const EXTRA_CSS = ".cover h1 { outline: 3px dotted #123456; }\n";

/** What a theme folder holds besides `theme.json`: file path → text or bytes. */
export type ThemeFiles = Record<string, string | Uint8Array>;

/**
 * Writes a theme folder into `dir` (`theme.json` with `theme`, and `files`); returns the theme
 * file's path. By default: {@link GOOD_THEME} with its logo, totals partial and extra CSS.
 *
 * @example Usage
 * ```ts ignore
 * import { writeTheme } from "./theme_fixture.ts";
 * const path = await writeTheme(await Deno.makeTempDir());
 * ```
 */
export async function writeTheme(
  dir: string,
  theme: unknown = GOOD_THEME,
  files: ThemeFiles = defaultFiles(),
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  const path = join(dir, "theme.json");
  await Deno.writeTextFile(
    path,
    typeof theme === "string" ? theme : JSON.stringify(theme, null, 2) + "\n",
  );
  return path;
}

/** The files of {@link GOOD_THEME}. */
export function defaultFiles(): ThemeFiles {
  return {
    "logo.png": LOGO_PNG,
    "templates/totals.hbs": OWN_TOTALS,
    "templates/extra.css": EXTRA_CSS,
  };
}
