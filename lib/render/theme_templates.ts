/**
 * A theme's template folder: files named like samkit's templates replace them (`cover.hbs`,
 * `layout.hbs`, `table.hbs`, `totals.hbs`…, `pack_summary.hbs` for the pack's mail,
 * `report.css` for the whole stylesheet), and `extra.css` is added after the stylesheet. Every
 * file is read like any file a user names (real path inside the task's roots, a regular file,
 * size-capped) and checked when the theme loads, so a broken one stops the run before any
 * request, naming its file and line:
 *
 * - it must parse as Handlebars;
 * - every value is written escaped: `{{{…}}}` and `{{&…}}` are refused (data from the service
 *   never becomes markup);
 * - partials and helpers must be ones samkit has (`{{> cover}}`, `{{number x}}`…);
 * - a stylesheet may not hold `</style` (it would end the style element).
 *
 * @module
 */

import Handlebars from "handlebars";
import { join } from "node:path";
import { checkContained } from "../fs/containment.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";
import { BUILTIN_HELPERS, HELPERS, PARTIALS } from "./template_names.ts";

/** The largest template or stylesheet file accepted, in bytes (256 KiB). */
export const MAX_TEMPLATE_BYTES = 256 * 1024;

/** Template files a theme folder may hold, by file name (without `.hbs`). */
export const TEMPLATE_NAMES: readonly string[] = [
  "layout",
  "section",
  "rows",
  ...PARTIALS,
  "pack_summary",
];

/** Stylesheets a theme folder may hold: `report.css` replaces samkit's, `extra.css` adds to it. */
export const CSS_NAMES: readonly string[] = ["report.css", "extra.css"];

/** One file of a theme's template folder. */
export interface ThemeTemplateFile {
  /** Its path (folder joined with its name). */
  readonly file: string;
  /** Its text. */
  readonly text: string;
}

/**
 * A theme's template folder: its files by name (`cover.hbs`, `extra.css`…).
 *
 * @example
 * ```ts
 * import type { ThemeTemplates } from "./theme_templates.ts";
 * const templates: ThemeTemplates = {
 *   dir: "theme/templates",
 *   files: { "extra.css": { file: "theme/templates/extra.css", text: "h1 { color: red }" } },
 * };
 * console.log(Object.keys(templates.files)); // ["extra.css"]
 * ```
 */
export interface ThemeTemplates {
  /** The folder. */
  readonly dir: string;
  /** The files found, by file name. */
  readonly files: Readonly<Record<string, ThemeTemplateFile>>;
}

/**
 * A template file that cannot be used: its file, line (when known) and what to fix.
 *
 * @example
 * ```ts
 * import { TemplateFileError } from "./theme_templates.ts";
 * const e = new TemplateFileError("t/cover.hbs", "unknown partial \"logo\"", 4);
 * console.log(e.message); // t/cover.hbs:4: unknown partial "logo"
 * ```
 */
export class TemplateFileError extends Error {
  /** The file. */
  readonly file: string;
  /** The line, if known. */
  readonly line?: number;
  /**
   * Builds the error from the file, the problem and its line.
   *
   * @param file The file.
   * @param problem What is wrong and what to do.
   * @param line The line, if known.
   */
  constructor(file: string, problem: string, line?: number) {
    super(`${file}${line ? `:${line}` : ""}: ${problem}`);
    this.name = "TemplateFileError";
    this.file = file;
    this.line = line;
  }
}

/** A Handlebars parse error in words, with its line. */
function parseProblem(error: Error & { lineNumber?: number }): { line?: number; what: string } {
  const message = error.message;
  const line = error.lineNumber ?? Number(/on line (\d+)/.exec(message)?.[1] ?? NaN);
  const got = /got '([A-Z_]+)'/.exec(message)?.[1];
  const what = got === "EOF"
    ? "the file ends inside a block: a {{#…}} has no {{/…}}"
    : got === "INVALID"
    ? "a tag is not written right (a }} missing, or a stray character in it)"
    : got
    ? `unexpected ${got.toLowerCase().replaceAll("_", " ")} in a tag`
    : message.split("\n")[0];
  return { line: Number.isFinite(line) ? line : undefined, what };
}

// deno-lint-ignore no-explicit-any
type Node = any;

/** What a template may use: partial and helper names. */
interface Allowed {
  readonly partials: ReadonlySet<string>;
  readonly helpers: ReadonlySet<string>;
}

/** The first problem found walking a parsed template, with its line. */
function astProblem(node: Node, allowed: Allowed): { line?: number; what: string } | undefined {
  if (node === null || typeof node !== "object") return undefined;
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = astProblem(child, allowed);
      if (found) return found;
    }
    return undefined;
  }
  const own = nodeProblem(node, allowed);
  if (own) return { line: node.loc?.start?.line, what: own };
  for (const key of ["body", "program", "inverse", "params", "path", "hash", "pairs", "value"]) {
    const found = astProblem(node[key], allowed);
    if (found) return found;
  }
  return undefined;
}

/** What is wrong with one node itself, if anything. */
function nodeProblem(node: Node, allowed: Allowed): string | undefined {
  if (node.type === "MustacheStatement" && node.escaped === false) {
    return "{{{…}}} and {{&…}} write a value unescaped: use {{…}}";
  }
  if (node.type === "PartialStatement" || node.type === "PartialBlockStatement") {
    const name = node.name?.type === "PathExpression" ? node.name.original : undefined;
    if (!name || !allowed.partials.has(name)) {
      const known = [...allowed.partials].join(", ") || "none";
      return `unknown partial ${JSON.stringify(name ?? "(computed)")}; partials are: ${known}`;
    }
  }
  const calls = node.type === "MustacheStatement" || node.type === "BlockStatement" ||
    node.type === "SubExpression";
  const hasArgs = (node.params?.length ?? 0) > 0 || (node.hash?.pairs?.length ?? 0) > 0;
  if (calls && hasArgs && node.path?.type === "PathExpression") {
    const name = node.path.original;
    if (!allowed.helpers.has(name)) {
      return `unknown helper ${JSON.stringify(name)}; helpers are: ${
        [...allowed.helpers].join(", ")
      }`;
    }
  }
  return undefined;
}

/**
 * Checks a template's text: it parses, writes every value escaped, and names only partials and
 * helpers samkit has (the mail template: Handlebars' own helpers and no partials). Throws
 * {@link TemplateFileError} with the file and line.
 *
 * @example
 * ```ts
 * import { checkTemplateText } from "./theme_templates.ts";
 * checkTemplateText("cover", "t/cover.hbs", "<h1>{{report.title}}</h1>"); // fine
 * try {
 *   checkTemplateText("cover", "t/cover.hbs", "<h1>\n{{{report.title}}}</h1>");
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // t/cover.hbs:2: {{{…}}} and {{&…}} write a value unescaped: use {{…}}
 * }
 * ```
 */
export function checkTemplateText(name: string, file: string, text: string): void {
  let ast: Node;
  try {
    ast = Handlebars.parse(text);
  } catch (error) {
    const { line, what } = parseProblem(error as Error);
    throw new TemplateFileError(file, `Handlebars syntax error: ${what}`, line);
  }
  const mail = name === "pack_summary";
  const found = astProblem(ast.body, {
    partials: new Set(mail ? [] : [...PARTIALS, "css"]),
    helpers: new Set(mail ? BUILTIN_HELPERS : [...BUILTIN_HELPERS, ...HELPERS]),
  });
  if (found) throw new TemplateFileError(file, found.what, found.line);
}

/**
 * Checks a stylesheet's text: it may not hold `</style` (which would end the style element and
 * let the rest be read as markup). Throws {@link TemplateFileError} with the line.
 *
 * @example
 * ```ts
 * import { checkCssText } from "./theme_templates.ts";
 * checkCssText("t/extra.css", "h1 { color: #123 }"); // fine
 * ```
 */
export function checkCssText(file: string, text: string): void {
  const at = text.search(/<\/\s*style/i);
  if (at < 0) return;
  const line = text.slice(0, at).split("\n").length;
  throw new TemplateFileError(file, "a stylesheet may not hold </style: remove it", line);
}

/** The folder's file names samkit takes, sorted; an unknown .hbs or .css name is refused. */
async function templateNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const known = CSS_NAMES.includes(entry.name) ||
        (entry.name.endsWith(".hbs") && TEMPLATE_NAMES.includes(entry.name.slice(0, -4)));
      if (known) names.push(entry.name);
      else if (/\.(hbs|css)$/i.test(entry.name)) throw unknownName(dir, entry.name);
    }
  } catch (e) {
    if (e instanceof TemplateFileError) throw e;
    const problem = e instanceof Deno.errors.NotFound ? "no such folder" : readProblem(e);
    throw new TemplateFileError(dir, problem);
  }
  return names.sort();
}

function unknownName(dir: string, name: string): TemplateFileError {
  const known = [...TEMPLATE_NAMES.map((n) => `${n}.hbs`), ...CSS_NAMES].join(", ");
  return new TemplateFileError(
    join(dir, name),
    `samkit has no template of this name; a theme's templates are: ${known}`,
  );
}

/** Reads one file of the folder under the containment and regular-file rules. */
async function readTemplateFile(file: string): Promise<string> {
  checkContained(file, { what: "theme template" });
  try {
    return await readRegularTextFile(file, { maxBytes: MAX_TEMPLATE_BYTES });
  } catch (e) {
    const problem = e instanceof RangeError
      ? `is larger than ${MAX_TEMPLATE_BYTES / 1024} KiB`
      : readProblem(e);
    throw new TemplateFileError(file, problem);
  }
}

/**
 * Reads and checks a theme's template folder (see the module documentation). Throws
 * {@link TemplateFileError} naming the file (and line), or `ContainmentError`.
 *
 * @example
 * ```ts
 * import { readTemplateFolder } from "./theme_templates.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/extra.css`, ".cover h1 { letter-spacing: 0 }");
 * const templates = await readTemplateFolder(dir);
 * console.log(Object.keys(templates.files)); // ["extra.css"]
 * ```
 */
export async function readTemplateFolder(dir: string): Promise<ThemeTemplates> {
  checkContained(dir, { what: "theme templates folder" });
  const files: Record<string, ThemeTemplateFile> = {};
  for (const name of await templateNames(dir)) {
    const file = join(dir, name);
    const text = await readTemplateFile(file);
    if (name.endsWith(".css")) checkCssText(file, text);
    else checkTemplateText(name.slice(0, -4), file, text);
    files[name] = { file, text };
  }
  return { dir, files };
}
