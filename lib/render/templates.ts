/**
 * The Handlebars templates of the HTML (and PDF) output: loaded from `templates/` and compiled
 * once per process into an isolated Handlebars environment, with formatting helpers registered.
 *
 * Templates: `layout.hbs` (document shell; the body goes where `<!--samkit:body-->` stands),
 * `section.hbs` (one section; its rows go where `<!--samkit:rows-->` stands), `rows.hbs` (a chunk
 * of table rows). Partials: `cover`, `summary`, `table`, `totals`, `chart` and `css`
 * (`report.css`, inlined into `<style>`).
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

/** The folder of the template files. */
export const TEMPLATE_DIR: URL = new URL("../../templates/", import.meta.url);

const PARTIALS = ["cover", "summary", "table", "totals", "chart"] as const;

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

let cached: Templates | undefined;

/**
 * The compiled templates, loaded and compiled on first use and reused for the process.
 *
 * @example
 * ```ts
 * import { loadTemplates } from "./templates.ts";
 * const { rows } = loadTemplates();
 * console.log(rows({ span: 1, items: [] })); // ""
 * ```
 */
export function loadTemplates(): Templates {
  if (cached) return cached;
  const env = Handlebars.create();
  registerHelpers(env);
  env.registerPartial("css", read("report.css"));
  for (const name of PARTIALS) {
    env.registerPartial(name, compile(env, `${name}.hbs`, read(`${name}.hbs`)));
  }
  cached = {
    layout: compile(env, "layout.hbs", read("layout.hbs")),
    section: compile(env, "section.hbs", read("section.hbs")),
    rows: compile(env, "rows.hbs", read("rows.hbs")),
  };
  return cached;
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
