/**
 * How a theme shows in HTML: the `theme` object templates read (company, logo, footer, colours,
 * font) and the CSS that sets samkit's stylesheet variables from the theme's colours and font.
 * Nothing here runs without a theme, so unthemed output is samkit's own, byte for byte.
 *
 * @module
 */

import type { Theme } from "./theme.ts";

/**
 * What templates see as `theme` (absent without a theme).
 *
 * @example
 * ```ts
 * import type { ThemeView } from "./theme_view.ts";
 * const view: ThemeView = { company: "Example Ltd", colors: {} };
 * console.log(view.company);
 * ```
 */
export interface ThemeView {
  /** The company name. */
  readonly company?: string;
  /** The logo: `src` is its `data:` URI (or, in mail, a `cid:` reference). */
  readonly logo?: { readonly src: string; readonly type: string };
  /** The footer text. */
  readonly footer?: string;
  /** The colours given (`#rrggbb`). */
  readonly colors: Theme["colors"];
  /** The font-family list given. */
  readonly font?: string;
}

/**
 * The `theme` view of a theme; `logoSrc` replaces the logo's `data:` URI (mail uses a `cid:`).
 *
 * @example
 * ```ts
 * import { themeView } from "./theme_view.ts";
 * const view = themeView({ file: "t.json", company: "Example Ltd", colors: {} });
 * console.log(view.company, view.logo); // Example Ltd undefined
 * ```
 */
export function themeView(theme: Theme, options: { logoSrc?: string } = {}): ThemeView {
  return {
    ...(theme.company ? { company: theme.company } : {}),
    ...(theme.logo
      ? { logo: { src: options.logoSrc ?? theme.logo.dataUri, type: theme.logo.type } }
      : {}),
    ...(theme.footer ? { footer: theme.footer } : {}),
    colors: theme.colors,
    ...(theme.font ? { font: theme.font } : {}),
  };
}

/**
 * The CSS a theme adds after samkit's stylesheet: its colours as the stylesheet's variables, its
 * font for the text (not data tables and charts, measured for samkit's font), and the rules for
 * the brand line on the cover. Colours and font were checked when
 * the theme loaded (`#rrggbb`, a safe font list), so nothing here can end a rule early.
 *
 * @example
 * ```ts
 * import { themeCss } from "./theme_view.ts";
 * const css = themeCss({ file: "t.json", colors: { accent: "#0b6e4f" } });
 * console.log(css.includes("--accent: #0b6e4f;")); // true
 * ```
 */
export function themeCss(theme: Theme): string {
  const { accent, header, headerText } = theme.colors;
  const vars = [
    accent && `  --accent: ${accent};`,
    accent && `  --accent-soft: color-mix(in srgb, ${accent} 10%, #fff);`,
    header && `  --head-bg: ${header};`,
    theme.font && `  --brand-font: ${theme.font};`,
  ].filter(Boolean);
  return [
    "/* theme */",
    ...(vars.length ? [":root {", ...vars, "}"] : []),
    ...(theme.font ? [FONT_CSS] : []),
    ...(headerText ? [`table.data thead th {\n  color: ${headerText};\n}`] : []),
    BRAND_CSS,
  ].join("\n");
}

/**
 * A theme's font is the text's, but data tables and charts keep samkit's (`--font`): their column
 * widths are computed for it, and a wider font would break header words.
 */
const FONT_CSS = `body {
  font-family: var(--brand-font);
}
table.data,
.bars,
.chart-svg {
  font-family: var(--font);
}`;

/** The cover's brand line: the logo and the company name above the report's eyebrow. */
const BRAND_CSS = `.brand {
  display: flex;
  align-items: center;
  gap: 12px;
  margin: 0 0 14px;
}
.brand-logo {
  display: block;
  max-height: 48px;
  max-width: 220px;
  width: auto;
  height: auto;
}
.brand-name {
  font-size: 13pt;
  font-weight: 650;
  color: var(--ink);
}
.theme-footer {
  color: var(--muted);
}`;
