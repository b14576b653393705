/**
 * A theme: your own look for reports and the pack's mail — company name, logo, colours, font,
 * footer text and a folder of templates that replace samkit's by name. A theme is a JSON file:
 *
 * ```json
 * {
 *   "company": "Example Ltd",
 *   "logo": "./logo.svg",
 *   "colors": { "accent": "#0b6e4f", "header": "#0b6e4f", "headerText": "#ffffff" },
 *   "font": "\"Source Sans 3\", \"Liberation Sans\", Arial, sans-serif",
 *   "footer": "Confidential: Example Ltd internal use",
 *   "templates": "./templates"
 * }
 * ```
 *
 * Every field is optional; what is left out keeps samkit's look. Paths are relative to the theme
 * file, and read like every file a user names (real path inside the task's roots, regular
 * files, size-capped). {@link loadTheme} checks everything — fields, colours, the font list, the
 * logo (`./theme_logo.ts`), every template (`./theme_templates.ts`) compiled — before it returns,
 * so a bad theme stops a run before any request with a {@link ThemeError} naming the file, the
 * line and what to fix.
 *
 * @module
 */

import { dirname, resolve } from "node:path";
import { checkContained } from "../fs/containment.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";
import { JsonTextError, parseJsonText } from "../fs/json_text.ts";
import { safeExcerpt } from "../fs/excerpt.ts";
import { checkFields, type FieldRule, type FieldScope } from "../pack/field_rules.ts";
import { LogoError, readLogo, type ThemeLogo } from "./theme_logo.ts";
import type { ThemeTemplates } from "./theme_templates.ts";

export type { LogoType, ThemeLogo } from "./theme_logo.ts";
export type { ThemeTemplateFile, ThemeTemplates } from "./theme_templates.ts";

/** The largest theme file accepted, in bytes (64 KiB). */
export const MAX_THEME_BYTES = 64 * 1024;

/**
 * A theme's colours, each `#rrggbb` (lower case); absent ones keep samkit's.
 *
 * @example
 * ```ts
 * import type { ThemeColors } from "./theme.ts";
 * const colors: ThemeColors = { accent: "#0b6e4f" };
 * console.log(colors.accent);
 * ```
 */
export interface ThemeColors {
  /** Headings, rules, the cover band, chart bars, the mail's rule (samkit: `#1f4e79`). */
  readonly accent?: string;
  /** Table header background in HTML, PDF and XLSX (samkit: light grey; XLSX dark blue). */
  readonly header?: string;
  /** Table header text (samkit: dark ink; XLSX white). */
  readonly headerText?: string;
}

/**
 * A loaded, checked theme.
 *
 * @example
 * ```ts
 * import type { Theme } from "./theme.ts";
 * const theme: Theme = { file: "theme.json", company: "Example Ltd", colors: {} };
 * console.log(theme.company);
 * ```
 */
export interface Theme {
  /** The theme file, as named. */
  readonly file: string;
  /** The company name: cover, page headers, XLSX creator and company, mail. */
  readonly company?: string;
  /** The logo, embedded as a `data:` URI (cover, mail). */
  readonly logo?: ThemeLogo;
  /** The colours. */
  readonly colors: ThemeColors;
  /** A CSS font-family list for the text (tables and charts keep samkit's, measured for it). */
  readonly font?: string;
  /** A line on every page's footer, the HTML colophon and the mail. */
  readonly footer?: string;
  /** Templates that replace samkit's by name, and added CSS. */
  readonly templates?: ThemeTemplates;
}

/**
 * A theme that cannot be used: the file (the theme's, its logo's or a template's), the line when
 * known, and what to fix. Bad input: the CLI exits 2, nothing requested or written.
 *
 * @example
 * ```ts
 * import { ThemeError } from "./theme.ts";
 * const e = new ThemeError("theme.json", "colors.accent: expected a colour #rgb or #rrggbb", 4);
 * console.log(e.message); // theme.json:4: colors.accent: expected a colour #rgb or #rrggbb
 * ```
 */
export class ThemeError extends Error {
  /** The file at fault. */
  readonly file: string;
  /** The line, if known. */
  readonly line?: number;
  /**
   * Builds the error from the file, its line and the problem.
   *
   * @param file The file at fault.
   * @param problem What is wrong and what to do.
   * @param line The line, if known.
   * @param options The cause.
   */
  constructor(file: string, problem: string, line?: number, options?: ErrorOptions) {
    super(`${file}${line ? `:${line}` : ""}: ${problem}`, options);
    this.name = "ThemeError";
    this.file = file;
    this.line = line;
  }
}

const COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** One family: quoted, or words of letters, digits, spaces, `_` and `-`. */
const FAMILY = String.raw`(?:"[^"\\;{}<>()@]{1,80}"|'[^'\\;{}<>()@]{1,80}'|[A-Za-z][\w -]{0,80})`;
const FONT_LIST = new RegExp(String.raw`^\s*${FAMILY}(?:\s*,\s*${FAMILY}){0,15}\s*$`);

/** Controls, format characters (bidi), line and paragraph separators. */
const UNSAFE_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * A colour as `#rrggbb` in lower case, or undefined when it is not `#rgb`/`#rrggbb`.
 *
 * @example
 * ```ts
 * import { normalColor } from "./theme.ts";
 * console.log(normalColor("#0A7"), normalColor("blue")); // #00aa77 undefined
 * ```
 */
export function normalColor(value: unknown): string | undefined {
  if (typeof value !== "string" || !COLOR.test(value)) return undefined;
  const hex = value.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}

/**
 * Whether a value is a safe CSS font-family list: family names, quoted or not, separated by
 * commas — no `;`, braces, parentheses (so no `url(`), `@`, `<` or backslash.
 *
 * @example
 * ```ts
 * import { isFontList } from "./theme.ts";
 * console.log(isFontList('"Source Sans 3", Arial, sans-serif')); // true
 * console.log(isFontList("Arial; } body { background: url(x)")); // false
 * ```
 */
export function isFontList(value: unknown): value is string {
  return typeof value === "string" && value.length <= 400 && FONT_LIST.test(value);
}

type Scope = FieldScope<null>;

/** A rule for a one-line text of at most `max` characters. */
function textRule(max: number) {
  return (value: unknown, { fail }: Scope): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || !value.trim()) return fail("expected a non-empty text");
    if (value.length > max) return fail(`expected at most ${max} characters`);
    if (UNSAFE_TEXT.test(value)) {
      return fail("expected one line of text, without control or bidi characters");
    }
    return value.trim();
  };
}

function pathRule(what: string) {
  return (value: unknown, { fail }: Scope): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || !value.trim()) {
      return fail(`expected the path of ${what}, relative to the theme file`);
    }
    return value;
  };
}

function colorRule(value: unknown, { fail }: Scope): string | undefined {
  if (value === undefined) return undefined;
  const shown = typeof value === "string" ? value : JSON.stringify(value);
  return normalColor(value) ?? fail(`expected a colour #rgb or #rrggbb, got ${safeExcerpt(shown)}`);
}

const COLOR_RULES: readonly FieldRule<null>[] = [
  { field: "accent", check: colorRule },
  { field: "header", check: colorRule },
  { field: "headerText", check: colorRule },
];

function colorsRule(value: unknown, { path, failAt }: Scope): ThemeColors {
  if (value === undefined) return {};
  return checkFields(value, COLOR_RULES, {
    at: path,
    context: null,
    fail: failAt,
    notObject: `expected an object with ${COLOR_RULES.map((r) => r.field).join(", ")}`,
    onUnknown: (key, fail) => unknownField(`${path}.${key}`, COLOR_RULES, fail),
  }) as ThemeColors;
}

function fontRule(value: unknown, { fail }: Scope): string | undefined {
  if (value === undefined) return undefined;
  if (isFontList(value)) return value.trim();
  return fail(
    'expected a CSS font-family list such as "\\"Source Sans 3\\", Arial, sans-serif" ' +
      "(names, quoted or not, separated by commas; no ; { } ( ) @ < or \\)",
  );
}

/** The fields of a theme file, in the order they are checked. */
const THEME_RULES: readonly FieldRule<null>[] = [
  { field: "company", check: textRule(120) },
  { field: "logo", check: pathRule("a PNG, JPEG or SVG file") },
  { field: "colors", check: colorsRule },
  { field: "font", check: fontRule },
  { field: "footer", check: textRule(300) },
  { field: "templates", check: pathRule("a folder of templates") },
];

function unknownField(
  path: string,
  rules: readonly FieldRule<null>[],
  fail: (field: string, problem: string) => never,
): never {
  const known = rules.map((r) => r.field).join(", ");
  return fail(path, `unknown field; the fields are ${known}`);
}

/**
 * The line of a field's key in a JSON text (`colors.accent`: the `"accent"` after `"colors"`),
 * or undefined when not found.
 *
 * @example
 * ```ts
 * import { fieldLine } from "./theme.ts";
 * console.log(fieldLine('{\n "colors": {\n  "accent": 1\n }\n}', "colors.accent")); // 3
 * ```
 */
export function fieldLine(text: string, field: string): number | undefined {
  let at = 0;
  for (const key of field.split(".").filter(Boolean)) {
    const found = text.slice(at).search(new RegExp(`${JSON.stringify(key)}\\s*:`));
    if (found < 0) return undefined;
    at += found + 1;
  }
  return at === 0 ? undefined : text.slice(0, at).split("\n").length;
}

/** The theme file's text, read under the containment and regular-file rules. */
async function readThemeText(path: string): Promise<string> {
  checkContained(path, { what: "theme file" });
  try {
    return await readRegularTextFile(path, { maxBytes: MAX_THEME_BYTES });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new ThemeError(path, "no such file");
    if (e instanceof RangeError) {
      throw new ThemeError(path, `is larger than ${MAX_THEME_BYTES / 1024} KiB`);
    }
    throw new ThemeError(path, readProblem(e));
  }
}

/** The theme file's fields, checked (no file of it read yet). */
function checkThemeFields(path: string, text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseJsonText(text);
  } catch (e) {
    const line = e instanceof JsonTextError ? e.line : undefined;
    throw new ThemeError(path, (e as Error).message, line);
  }
  const fail = (field: string, problem: string): never => {
    throw new ThemeError(path, field ? `${field}: ${problem}` : problem, fieldLine(text, field));
  };
  return checkFields(doc, THEME_RULES, {
    at: "",
    context: null,
    fail,
    notObject: "expected a JSON object",
    alsoKnown: ["$schema", "description"],
    onUnknown: (key) => unknownField(key, THEME_RULES, fail),
  });
}

/** The files a theme names (logo, templates), read and checked; errors name the file. */
async function readThemeFiles(path: string, text: string, fields: Record<string, unknown>) {
  const base = dirname(path);
  const named = (field: string, error: Error): ThemeError =>
    new ThemeError(path, `${field}: ${error.message}`, fieldLine(text, field), { cause: error });
  let logo: ThemeLogo | undefined;
  if (fields.logo) {
    try {
      logo = await readLogo(resolve(base, fields.logo as string));
    } catch (e) {
      if (e instanceof LogoError && e.line) throw new ThemeError(e.file, problemOf(e), e.line);
      throw named("logo", e as Error);
    }
  }
  let templates: ThemeTemplates | undefined;
  if (fields.templates) {
    const { readTemplateFolder, TemplateFileError } = await import("./theme_templates.ts");
    try {
      templates = await readTemplateFolder(resolve(base, fields.templates as string));
    } catch (e) {
      if (e instanceof TemplateFileError) throw new ThemeError(e.file, problemOf(e), e.line);
      throw named("templates", e as Error);
    }
  }
  return { logo, templates };
}

/** An error's problem without its `file:line: ` prefix. */
function problemOf(error: { file: string; line?: number; message: string }): string {
  const prefix = `${error.file}${error.line ? `:${error.line}` : ""}: `;
  return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}

/**
 * Reads and checks a theme file, its logo and its templates, and compiles the report templates
 * with the theme's, so that nothing about the theme can fail later. Throws {@link ThemeError}
 * naming the file (the theme's, the logo's or a template's), the line and what to fix.
 *
 * @example
 * ```ts
 * import { loadTheme } from "./theme.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/theme.json`, JSON.stringify({
 *   company: "Example Ltd",
 *   colors: { accent: "#0B6E4F" },
 *   footer: "Confidential",
 * }));
 * const theme = await loadTheme(`${dir}/theme.json`);
 * console.log(theme.company, theme.colors.accent); // Example Ltd #0b6e4f
 * ```
 */
export async function loadTheme(path: string): Promise<Theme> {
  const text = await readThemeText(path);
  const fields = checkThemeFields(path, text);
  const { logo, templates } = await readThemeFiles(path, text, fields);
  const theme: Theme = {
    file: path,
    colors: fields.colors as ThemeColors,
    ...(fields.company ? { company: fields.company as string } : {}),
    ...(logo ? { logo } : {}),
    ...(fields.font ? { font: fields.font as string } : {}),
    ...(fields.footer ? { footer: fields.footer as string } : {}),
    ...(templates ? { templates } : {}),
  };
  // Handlebars is loaded here, when a theme is used, not when this module is imported.
  const { checkThemeTemplates } = await import("./templates.ts");
  const { TemplateFileError } = await import("./theme_templates.ts");
  try {
    checkThemeTemplates(theme);
  } catch (e) {
    if (e instanceof TemplateFileError) throw new ThemeError(e.file, problemOf(e), e.line);
    throw e;
  }
  return theme;
}
