/**
 * One loader for every report: a built-in id (`stale-computers`) and a report module path
 * (`./reports/servers_by_os.ts`) both resolve to a module file, and that file is imported and its
 * definition picked and checked by the same code. The built-in reports are the folder samkit
 * ships (`reports/`, indexed by `reports/mod.ts`); a user's are files of their own project.
 *
 * Bad input is a {@link ReportModuleError} naming the file, the line and what to fix, before any
 * request: a path outside the folders report modules may come from, a module that does not load
 * (syntax error, missing import, a throw), one that exports no definition, a definition that
 * breaks the model's rules.
 *
 * @module
 */

import { extname, isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BUILT_IN_FOLDER, BUILT_IN_IDS, builtInModuleUrl } from "./built_in.ts";
import { RESOURCES } from "../api/catalogue.ts";
import { realTarget } from "../fs/containment.ts";
import { readProblem, readRegularFile, readRegularTextFile } from "../fs/regular_file.ts";
import { isInside } from "../fs/safe_name.ts";
import { UnknownReportError } from "./errors.ts";
import {
  checkDefinition,
  isReportDefinition,
  type ReportDefinition,
  ReportDefinitionError,
} from "./model.ts";
import {
  errorLocation,
  importProblem,
  lineMatching,
  lineOfLiteral,
  ReportModuleError,
  shownPath,
} from "./module_error.ts";
import { isReportPath, MODULE_EXTENSIONS } from "./report_ref.ts";

export { ReportModuleError } from "./module_error.ts";
export { isReportPath } from "./report_ref.ts";

/** Where a loaded definition came from. */
export interface ReportModule {
  /** The module's URL. */
  readonly url: URL;
  /** The file as shown in messages (as the user named it, or relative to the working folder). */
  readonly file: string;
  /** Whether it is one of samkit's own reports. */
  readonly builtIn: boolean;
  /**
   * The hex SHA-256 of a user's module file as it was read when first loaded (absent for
   * built-in reports): a pack run records it, so a re-render can tell whether the code changed.
   */
  readonly sha256?: string;
}

const ORIGINS = new WeakMap<ReportDefinition, ReportModule>();

/**
 * The module a definition was loaded from by {@link loadReport}, if it was.
 *
 * @example
 * ```ts
 * import { loadReport, reportModuleOf } from "./load_report.ts";
 * const definition = await loadReport("stale-computers");
 * console.log(reportModuleOf(definition)?.builtIn); // true
 * ```
 */
export function reportModuleOf(definition: ReportDefinition): ReportModule | undefined {
  return ORIGINS.get(definition);
}

/** Options of {@link loadReport}. */
export interface LoadReportOptions {
  /** The folder a relative module path is resolved from (default: the working folder). */
  readonly base?: string;
  /**
   * The folders a report module may be in, by real path (default {@link reportRoots}: the
   * working folder — the user's project, where its tasks run — and samkit's report folder).
   */
  readonly roots?: readonly string[];
}

/**
 * The folders report modules may come from by default: the working folder (the user's project,
 * where its tasks run) and samkit's report folder. Not the rest of samkit's tree: importing a
 * module runs its top-level code, so a pack (or a queued job) can name only reports.
 *
 * @example
 * ```ts
 * import { reportRoots } from "./load_report.ts";
 * console.log(reportRoots().includes(Deno.cwd())); // true
 * ```
 */
export function reportRoots(): string[] {
  return [...new Set([Deno.cwd(), fileURLToPath(BUILT_IN_FOLDER).replace(/\/$/, "")])];
}

/**
 * Loads a report by built-in id or module path and returns its checked definition. The path is
 * resolved from `base`, must really lead (links followed) inside `roots`, and must be a regular
 * `.ts`/`.js` file; the module's default export, else its one exported definition, is the report.
 *
 * @example
 * ```ts
 * import { loadReport } from "./load_report.ts";
 * const builtIn = await loadReport("stale-computers");
 * const same = await loadReport("./reports/stale_computers.ts"); // run from samkit's folder
 * console.log(builtIn === same); // true: one module, one definition
 * ```
 */
export async function loadReport(
  ref: string,
  options: LoadReportOptions = {},
): Promise<ReportDefinition> {
  const module = isReportPath(ref) ? await resolveModulePath(ref, options) : builtInModule(ref);
  return await loadReportModule(module, isReportPath(ref) ? undefined : ref);
}

/** A built-in id's module in samkit's report folder; an unknown id lists the known ones. */
function builtInModule(id: string): ReportModule {
  const url = builtInModuleUrl(id);
  if (!url) throw new UnknownReportError(id, BUILT_IN_IDS);
  return { url, file: shownPath(url.href), builtIn: true };
}

/** A module path, resolved and checked: inside the roots, a module file, a regular file. */
async function resolveModulePath(ref: string, options: LoadReportOptions): Promise<ReportModule> {
  const bad = (problem: string): never => {
    throw new ReportModuleError({ file: ref, problem });
  };
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref) && !isAbsolute(ref)) {
    bad("is a URL; a report module is a file of your project, named by its path");
  }
  if (!MODULE_EXTENSIONS.includes(extname(ref).toLowerCase())) {
    bad(`is not a module file; a report module ends in ${MODULE_EXTENSIONS.join(", ")}`);
  }
  const path = resolve(options.base ?? Deno.cwd(), ref);
  const roots = options.roots ?? reportRoots();
  const real = realTarget(path);
  const inside = roots.some((root) => isInside(realTarget(root), real));
  if (!inside) {
    bad(
      `is outside the folders report modules may come from (${roots.join(", ")})` +
        (real === path ? "" : `: it leads to ${real}`) +
        "; keep your reports in your project folder",
    );
  }
  try {
    await readRegularTextFile(path); // a FIFO or device is refused, never waited on
  } catch (e) {
    bad(e instanceof Deno.errors.NotFound ? "no such file" : readProblem(e));
  }
  const url = pathToFileURL(real);
  return { url, file: ref, builtIn: isInside(fileURLToPath(BUILT_IN_FOLDER), real) };
}

/** The module's text, for locating a line; undefined when it cannot be read. */
async function sourceOf(module: ReportModule): Promise<string | undefined> {
  try {
    return await readRegularTextFile(fileURLToPath(module.url));
  } catch {
    return undefined;
  }
}

/** Imports the module; a failure names the file and line the runtime points at. */
async function importModule(module: ReportModule): Promise<Record<string, unknown>> {
  try {
    return await import(module.url.href);
  } catch (error) {
    if (error instanceof ReportDefinitionError) {
      throw await explainDefinitionError(module, error);
    }
    const at = errorLocation(error, {
      preferred: module.url.href,
      exclude: new URL("../", import.meta.url).href,
    });
    throw new ReportModuleError({
      file: at && at.url !== module.url.href ? shownPath(at.url) : module.file,
      ...(at ? { line: at.line } : {}),
      problem: `does not load: ${importProblem(error)}` +
        (at && at.url !== module.url.href ? ` (imported by ${module.file})` : ""),
    });
  }
}

/** The definition a module exports: its default export, else its one exported definition. */
async function pickDefinition(
  module: ReportModule,
  exports: Record<string, unknown>,
  id: string | undefined,
): Promise<ReportDefinition> {
  if (isReportDefinition(exports.default)) return exports.default;
  const named = [...new Set(Object.values(exports).filter(isReportDefinition))];
  const wanted = id === undefined ? named : named.filter((d) => d.id === id);
  if (wanted.length === 1) return wanted[0];
  const text = await sourceOf(module);
  const line = text === undefined ? undefined : lineMatching(text, /^\s*export\s+default\b/) ??
    lineMatching(text, /^\s*export\b/) ?? 1;
  const names = Object.keys(exports);
  throw new ReportModuleError({
    file: module.file,
    ...(line === undefined ? {} : { line }),
    problem: wanted.length > 1
      ? `exports ${wanted.length} report definitions (${wanted.map((d) => d.id).join(", ")}); ` +
        "export the one to run as default, or keep one per module"
      : `exports no report definition (${
        names.length ? `its exports: ${names.join(", ")}` : "it exports nothing"
      }); export one made with defineReport from samkit's report entry point: ` +
        "export default defineReport({ id, title, description, params, data })",
  });
}

/**
 * A {@link ReportDefinitionError} about a definition loaded from a module, as a
 * {@link ReportModuleError} naming the module's file and the line holding the wrong value (or
 * the `defineReport` call). Other errors, and definitions not loaded by {@link loadReport}, come
 * back as they are.
 *
 * @example
 * ```ts
 * import { explainReportError, loadReport } from "./load_report.ts";
 * import { ReportDefinitionError } from "./model.ts";
 * const definition = await loadReport("stale-computers");
 * const e = await explainReportError(definition, new ReportDefinitionError("bad", { literal: "days" }));
 * console.log((e as Error).message.startsWith("reports/stale_computers.ts:")); // true, from samkit
 * ```
 */
export async function explainReportError(
  definition: ReportDefinition,
  error: unknown,
): Promise<unknown> {
  const module = ORIGINS.get(definition);
  if (!module || !(error instanceof ReportDefinitionError)) return error;
  return await explainDefinitionError(module, error);
}

async function explainDefinitionError(
  module: ReportModule,
  error: ReportDefinitionError,
): Promise<ReportModuleError> {
  const text = await sourceOf(module);
  const line = text === undefined
    ? undefined
    : (error.literal !== undefined ? lineOfLiteral(text, error.literal) : undefined) ??
      lineMatching(text, /\bdefineReport\s*[<(]/) ??
      errorLocation(error, { preferred: module.url.href })?.line;
  return new ReportModuleError({
    file: module.file,
    ...(line === undefined ? {} : { line }),
    problem: error.message,
  });
}

/** Checks a picked definition: the model's rules, and a `filterResource` samkit knows. */
async function checkPicked(module: ReportModule, definition: ReportDefinition): Promise<void> {
  try {
    checkDefinition(definition);
    const resource = definition.filterResource;
    if (resource !== undefined && !Object.hasOwn(RESOURCES, resource)) {
      throw new ReportDefinitionError(
        `${definition.id}: filterResource ${JSON.stringify(resource)} is not a resource samkit ` +
          `knows (e.g. Computer, License, RegistryApplication)`,
        { literal: String(resource) },
      );
    }
  } catch (error) {
    if (error instanceof ReportDefinitionError) throw await explainDefinitionError(module, error);
    throw error;
  }
}

/** Imports a resolved module and returns its checked definition (`id`: a built-in's id). */
async function loadReportModule(
  module: ReportModule,
  id: string | undefined,
): Promise<ReportDefinition> {
  const hashed = module.builtIn ? module : { ...module, sha256: await moduleSha256(module.url) };
  const exports = await importModule(hashed);
  const definition = await pickDefinition(hashed, exports, id);
  await checkPicked(module, definition);
  if (id !== undefined && definition.id !== id) {
    throw new ReportModuleError({
      file: module.file,
      problem: `defines "${definition.id}", not the built-in report "${id}" its name promises`,
    });
  }
  if (!ORIGINS.has(definition)) ORIGINS.set(definition, hashed);
  return definition;
}

/** The hex SHA-256 of a module file's bytes. */
async function moduleSha256(url: URL): Promise<string> {
  const bytes = await readRegularFile(fileURLToPath(url));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
