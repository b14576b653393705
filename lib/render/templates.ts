/**
 * The Handlebars templates of the HTML (and PDF) output: loaded from `templates/` and compiled
 * once per process into an isolated Handlebars environment, with formatting helpers registered.
 *
 * Templates: `layout.hbs` (document shell; the body goes where `<!--samkit:body-->` stands),
 * `section.hbs` (one section; its rows go where `<!--samkit:rows-->` stands), `rows.hbs` (a chunk
 * of table rows). Partials: `cover`, `summary`, `table`, `totals`, `chart` and `css`
 * (`report.css`, inlined into `<style>`).
 *
 * With a theme (`./theme.ts`), its template folder's files replace these by name, its `report.css`
 * the stylesheet, and its colours, font and `extra.css` are added after the stylesheet; the
 * themed set is compiled once per theme.
 *
 * Helpers (each takes an optional `locale=` hash argument, default the root context's `locale`):
 * `number value decimals=0`, `integer value`, `currency value code decimals=2`,
 * `percent value decimals=1`, `date value`, `datetime value`, `boolean value`, `fact fact`.
 * Every helper returns plain text, which Handlebars escapes like any other value.
 *
 * @module
 */

import Handlebars from "handlebars";
import type { CellValue, Fact } from "../report/model.ts";
import {
  formatBoolean,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatFact,
  formatInteger,
  formatNumber,
  formatPercent,
} from "./format.ts";
import { DEFAULT_LOCALE } from "./renderer.ts";
import { readRegularTextFileSync } from "../fs/regular_file.ts";
import { PARTIALS } from "./template_names.ts";
import type { Theme } from "./theme.ts";
import { TemplateFileError } from "./theme_templates.ts";
import { themeCss, themeView } from "./theme_view.ts";

/** A compiled template: view → HTML text. */
export type Template = (view: unknown) => string;

/** The compiled templates. */
export interface Templates {
  /** The document shell (split at {@link BODY_MARKER}). */
  readonly layout: Template;
  /** One section (split at {@link ROWS_MARKER}). */
  readonly section: Template;
  /** A chunk of table rows. */
  readonly rows: Template;
}

/** Where the layout takes the sections. */
export const BODY_MARKER = "<!--samkit:body-->";

/** Where a section's table takes its rows. */
export const ROWS_MARKER = "<!--samkit:rows-->";

/**
 * Where the chart template takes a drawn SVG (put in after the template ran, as the rows are at
 * {@link ROWS_MARKER}).
 */
export const CHART_MARKER = "<!--samkit:chart-->";

/** The folder of the template files. */
export const TEMPLATE_DIR: URL = new URL("../../templates/", import.meta.url);

/** Thrown when a template file is missing or does not compile. */
export class TemplateError extends Error {
  /** @param message What failed, naming the template. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "TemplateError";
  }
}

interface HelperOptions {
  readonly hash: Record<string, unknown>;
  readonly data?: { readonly root?: { readonly locale?: unknown } };
}

function localeOf(options: HelperOptions): string {
  const hashed = options.hash.locale;
  if (typeof hashed === "string" && hashed) return hashed;
  const root = options.data?.root?.locale;
  return typeof root === "string" && root ? root : DEFAULT_LOCALE;
}

function decimalsOf(options: HelperOptions): number | undefined {
  const d = options.hash.decimals;
  return typeof d === "number" ? d : undefined;
}

function asNumber(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function asDate(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

/** Registers the formatting helpers on a Handlebars environment. */
function registerHelpers(env: typeof Handlebars): void {
  // Handlebars passes the options object last; helpers with an optional argument look for it.
  const last = (args: unknown[]) => args[args.length - 1] as HelperOptions;
  env.registerHelper("number", (value: unknown, options: HelperOptions) => {
    const n = asNumber(value);
    return n === undefined
      ? ""
      : formatNumber(n, { locale: localeOf(options), decimals: decimalsOf(options) });
  });
  env.registerHelper("integer", (value: unknown, options: HelperOptions) => {
    const n = asNumber(value);
    return n === undefined ? "" : formatInteger(n, { locale: localeOf(options) });
  });
  env.registerHelper("currency", (value: unknown, ...rest: unknown[]) => {
    const options = last(rest);
    const code = rest.length > 1 && typeof rest[0] === "string" ? rest[0] : undefined;
    const n = asNumber(value);
    return n === undefined
      ? ""
      : formatCurrency(n, code, { locale: localeOf(options), decimals: decimalsOf(options) });
  });
  env.registerHelper("percent", (value: unknown, options: HelperOptions) => {
    const n = asNumber(value);
    return n === undefined
      ? ""
      : formatPercent(n, { locale: localeOf(options), decimals: decimalsOf(options) });
  });
  env.registerHelper("date", (value: unknown, options: HelperOptions) => {
    const d = asDate(value);
    return d ? formatDate(d, { locale: localeOf(options) }) : "";
  });
  env.registerHelper("datetime", (value: unknown, options: HelperOptions) => {
    const d = asDate(value);
    return d ? formatDateTime(d, { locale: localeOf(options) }) : "";
  });
  env.registerHelper("boolean", (value: unknown) => {
    return typeof value === "boolean" ? formatBoolean(value) : "";
  });
  env.registerHelper("fact", (fact: unknown, options: HelperOptions) => {
    if (fact === null || typeof fact !== "object") return "";
    const f = fact as Fact;
    return formatFact({ ...f, value: f.value as CellValue }, { locale: localeOf(options) });
  });
}

function read(name: string): string {
  const url = new URL(name, TEMPLATE_DIR);
  try {
    return readRegularTextFileSync(url);
  } catch (error) {
    throw new TemplateError(`cannot read template ${name}`, { cause: error });
  }
}

function compile(env: typeof Handlebars, name: string, source: string): Template {
  try {
    // Compile now (Handlebars compiles lazily) so a broken template fails at load, not mid-run.
    const template = env.compile(source, { preventIndent: true }) as Template;
    template({});
    return template;
  } catch (error) {
    throw new TemplateError(`template ${name} does not compile: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Compiles a theme's template, failing with its file and line. */
function compileOwn(env: typeof Handlebars, file: string, source: string): Template {
  try {
    const template = env.compile(source, { preventIndent: true }) as Template;
    template({});
    return template;
  } catch (error) {
    const e = error as Error & { lineNumber?: number };
    throw new TemplateFileError(
      file,
      `does not compile: ${e.message.split("\n")[0]}`,
      e.lineNumber,
    );
  }
}

/** A template by name: the theme's own, else samkit's. */
function compileNamed(env: typeof Handlebars, name: string, theme: Theme | undefined): Template {
  const own = theme?.templates?.files[`${name}.hbs`];
  return own
    ? compileOwn(env, own.file, own.text)
    : compile(env, `${name}.hbs`, read(`${name}.hbs`));
}

/** The stylesheet with a theme: its `report.css` or samkit's, then its colours, then `extra.css`. */
function themedCss(theme: Theme): string {
  const files = theme.templates?.files ?? {};
  const base = files["report.css"]?.text ?? read("report.css");
  const extra = files["extra.css"]?.text;
  return [base.replace(/\n$/, ""), themeCss(theme), ...(extra ? [extra] : [])].join("\n") + "\n";
}

/** Compiles the templates, with a theme's replacing samkit's. */
function build(theme: Theme | undefined): Templates {
  const env = Handlebars.create();
  registerHelpers(env);
  if (theme) {
    const css = themedCss(theme);
    env.registerPartial("css", (() => css) as unknown as Handlebars.Template);
  } else {
    env.registerPartial("css", read("report.css"));
  }
  for (const name of PARTIALS) env.registerPartial(name, compileNamed(env, name, theme));
  return {
    layout: compileNamed(env, "layout", theme),
    section: compileNamed(env, "section", theme),
    rows: compileNamed(env, "rows", theme),
  };
}

let cached: Templates | undefined;
const themed = new WeakMap<Theme, Templates>();

/**
 * The compiled templates — samkit's, or with a theme's replacing them — compiled on first use and
 * reused for the process (per theme).
 *
 * @example
 * ```ts
 * import { loadTemplates } from "./templates.ts";
 * const { rows } = loadTemplates();
 * console.log(rows({ span: 1, items: [] })); // ""
 * ```
 */
export function loadTemplates(theme?: Theme): Templates {
  if (!theme) return cached ??= build(undefined);
  let templates = themed.get(theme);
  if (!templates) themed.set(theme, templates = build(theme));
  return templates;
}

/** The content security policy every report's head must state (with `img-src` for a logo). */
const CSP =
  /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'(?:; img-src data:)?">/;

/** A layout view with every field a layout reads, for checking a theme's layout. */
function sampleLayoutView(theme: Theme) {
  return {
    includeCover: true,
    includeSummary: true,
    includeColophon: true,
    locale: "en-US",
    lang: "en",
    report: { id: "sample", title: "Sample", description: "A sample." },
    generatedAt: new Date(0),
    source: "sample",
    version: "0",
    coverFacts: [],
    toc: [],
    theme: themeView(theme),
  };
}

/** The sections' view with a table and a drawn chart, for checking a theme's section. */
const SAMPLE_SECTION = {
  anchor: "section-1",
  title: "Sample",
  rowsText: "1 row",
  chart: { title: "Chart", svg: "<svg></svg>" },
  table: { sum: 1, fit: "1cqi", columns: [{ label: "A", class: "text", w: 1, share: 1 }] },
};

/** Fails unless `html` holds `marker` exactly once. */
function expectOnce(html: string, marker: string, file: string, what: string): void {
  if (html.split(marker).length === 2) return;
  throw new TemplateFileError(
    file,
    `must produce ${marker} exactly once (${what}); keep it outside any {{#if}}`,
  );
}

/** Which file makes a template: the theme's, or samkit's own. */
function fileOf(theme: Theme, names: readonly string[]): string {
  for (const name of names) {
    const own = theme.templates?.files[`${name}.hbs`];
    if (own) return own.file;
  }
  return `${names[0]}.hbs`;
}

/**
 * Compiles a theme's templates and checks what samkit relies on: the layout keeps samkit's
 * content security policy in its head and the place of the sections; a section keeps the place
 * of its rows and of a drawn chart. Throws `TemplateFileError` naming the file (and line).
 *
 * @example
 * ```ts
 * import { checkThemeTemplates } from "./templates.ts";
 * checkThemeTemplates({ file: "theme.json", colors: { accent: "#0b6e4f" } }); // fine
 * ```
 */
export function checkThemeTemplates(theme: Theme): void {
  const templates = loadTemplates(theme);
  const layout = templates.layout(sampleLayoutView(theme));
  const layoutFile = fileOf(theme, ["layout"]);
  expectOnce(layout, BODY_MARKER, layoutFile, "where the sections go");
  const head = layout.slice(0, layout.indexOf(BODY_MARKER));
  const csp = CSP.exec(head);
  if (!csp || !head.slice(csp.index).includes("</head>")) {
    throw new TemplateFileError(
      layoutFile,
      "must keep samkit's Content-Security-Policy <meta> in its <head> (copy it from " +
        "samkit's templates/layout.hbs): it keeps a report from loading or running anything",
    );
  }
  const section = templates.section(SAMPLE_SECTION);
  expectOnce(section, ROWS_MARKER, fileOf(theme, ["table", "section"]), "where the rows go");
  expectOnce(section, CHART_MARKER, fileOf(theme, ["chart", "section"]), "where a chart goes");
}

/**
 * Renders a template and splits its output at a marker: the text before and after it. A template
 * without the marker gives its whole output and "".
 *
 * @example
 * ```ts
 * import { BODY_MARKER, loadTemplates, splitAt } from "./templates.ts";
 * const [head, tail] = splitAt(loadTemplates().layout({ report: { title: "T" } }), BODY_MARKER);
 * console.log(head.startsWith("<!doctype html>"), tail.includes("</html>")); // true true
 * ```
 */
export function splitAt(html: string, marker: string): [string, string] {
  const at = html.indexOf(marker);
  if (at === -1) return [html, ""];
  return [html.slice(0, at), html.slice(at + marker.length)];
}
