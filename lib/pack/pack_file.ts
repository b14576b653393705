/**
 * The pack file: a JSON document listing reports with their parameters and formats, the output
 * root, an optional schedule and an optional email section. Credentials never live in it: the
 * API's come from SAM_* variables and SMTP's from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD.
 *
 * A report entry names a built-in report (`"id": "stale-computers"`) or a report module of the
 * user's project (`"report": "../reports/servers_by_os.ts"`, a path from the pack file's folder):
 * {@link loadPack} loads such modules with the same loader as built-in reports, before anything
 * runs, and the pack carries their definitions ({@link PackFile.definitions}).
 *
 * @module
 */

import type { Format } from "../render/renderer.ts";
import { dirname } from "node:path";
import type { ParamValues, ReportDefinition } from "../report/model.ts";
import { explainReportError, loadReport, reportModuleOf } from "../report/load_report.ts";
import { isReportPath } from "../report/report_ref.ts";
import { checkDeclaredSections } from "../report/declared_sections.ts";
import { checkContained } from "../fs/containment.ts";
import { parseJsonText } from "../fs/json_text.ts";
import { checkFields, type Fail, type FieldRule, type FieldScope } from "./field_rules.ts";
import { checkPackReport } from "./report_rules.ts";
import { checkSchedule } from "./schedule_rules.ts";
import { checkEmail } from "./email_rules.ts";
import { checkPackTheme, packThemePath } from "./pack_theme.ts";
import { checkSign, type PackSign } from "./pack_sign.ts";
import { checkDiff, diffAsReport, type PackDiff } from "./pack_diff.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";

export { DEFAULT_MAX_ATTACHMENT_BYTES } from "./email_rules.ts";

/** One report of a pack. */
export interface PackReport {
  /** The report id. */
  readonly id: string;
  /** The report module's path as the entry gives it (`"report"`), for a user's report. */
  readonly module?: string;
  /** Parameter values (JSON values, parsed like `--param`). */
  readonly params: ParamValues;
  /** Formats to write. */
  readonly formats: readonly Format[];
  /** A filter on the report's main collection. */
  readonly filter?: string;
}

/** When the pack runs. */
export interface PackSchedule {
  /** A five- or six-field cron expression. */
  readonly cron: string;
  /** An IANA time zone (default UTC). */
  readonly timezone: string;
}

/** The email section. */
export interface PackEmail {
  /** SMTP host. */
  readonly host: string;
  /** SMTP port (default 587, or 465 with `tls: "tls"`). */
  readonly port: number;
  /** `starttls` (upgrade), `tls` (implicit TLS) or `none`. */
  readonly tls: "starttls" | "tls" | "none";
  /** Sender address. */
  readonly from: string;
  /** Recipients. */
  readonly to: readonly string[];
  /** Copy recipients. */
  readonly cc: readonly string[];
  /** Subject; `{company}` (the theme's, else samkit), `{pack}` and `{date}` are filled in. */
  readonly subject: string;
  /**
   * What is attached besides `summary.pdf` (always first): report ids (their PDF) or
   * `<report>.<format>` (that report's files of the format). Default: nothing more.
   */
  readonly attach: readonly string[];
  /**
   * The largest total attachment size in bytes (default 5 MB); files that would pass it are not
   * attached: the body names them and links to the evidence folder.
   */
  readonly maxAttachmentBytes: number;
  /** Where the output root is published (an `https://` share), for the evidence folder link. */
  readonly evidenceUrl?: string;
}

/** A validated pack file. */
export interface PackFile {
  /** The pack's name (folder name under the output root). */
  readonly name: string;
  /** The pack's title for people (the summary's heading), if given. */
  readonly title?: string;
  /** The output root (default ./out/packs). */
  readonly output: string;
  /** The reports, in run order. */
  readonly reports: readonly PackReport[];
  /**
   * The definitions of the report modules the pack names (absent or empty when it names built-in
   * reports only): a run looks a report up among these and the built-in catalogue.
   */
  readonly definitions?: readonly ReportDefinition[];
  /** The schedule, if any. */
  readonly schedule?: PackSchedule;
  /** The email, if any. */
  readonly email?: PackEmail;
  /**
   * A reporting currency for every report and the summary (`"reportingCurrency": "EUR"` with
   * `"fxRates": "rates.csv"`, a CSV `date,currency,rate`), if given.
   */
  readonly reportingCurrency?: { readonly code: string; readonly fxRates: string };
  /** The theme file for every report and the mail, resolved from the pack file's folder. */
  readonly theme?: string;
  /** The key every run signs its manifest with (`manifest.sig`), if given. */
  readonly sign?: PackSign;
  /**
   * Each run also renders what changed since the previous run of the same source (run-diff) and
   * its mail lists the positions that moved, if given; every run then keeps a snapshot.
   */
  readonly diff?: PackDiff;
}

/**
 * A pack file that cannot be used: the message names the file and the field.
 *
 * @example
 * ```ts
 * import { PackFileError } from "./pack_file.ts";
 * console.log(new PackFileError("weekly.json", "reports[0].id", "unknown report \"x\"").message);
 * ```
 */
export class PackFileError extends Error {
  /** The JSON path of the bad field (`reports[1].params.days`). */
  readonly field: string;
  /**
   * Builds the error from the file, the field and what is wrong.
   *
   * @param file The pack file's path.
   * @param field The JSON path of the bad field.
   * @param problem What is wrong.
   */
  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field ? `${field}: ` : ""}${problem}`);
    this.name = "PackFileError";
    this.field = field;
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What a pack is checked against: the built-in reports and the modules it names, loaded. */
interface Catalogue {
  readonly reports: readonly ReportDefinition[];
  readonly modules: ReadonlyMap<string, ReportDefinition>;
}

type Scope = FieldScope<Catalogue>;

function reportsOf(value: unknown, { context, fail, failAt }: Scope): PackReport[] {
  if (!Array.isArray(value) || value.length === 0) fail("expected a non-empty list");
  const entries = (value as unknown[]).map((entry, i) =>
    checkPackReport(entry, { at: `reports[${i}]`, ...context, fail: failAt })
  );
  checkOwnIds(entries, context, failAt);
  return entries;
}

/**
 * A report module's id is its own: not a built-in report's, not another module's. (Reports are
 * found by id during a run and their files are named after it.)
 */
function checkOwnIds(entries: readonly PackReport[], context: Catalogue, fail: Fail): void {
  const byId = new Map<string, ReportDefinition>();
  for (const [i, entry] of entries.entries()) {
    if (!entry.module) continue;
    const definition = context.modules.get(entry.module)!;
    const other = context.reports.find((r) => r.id === entry.id) ?? byId.get(entry.id);
    if (other && other !== definition) {
      const whose = context.reports.includes(other) ? "a built-in report" : "another module";
      fail(
        `reports[${i}].report`,
        `${entry.module} defines the report id "${entry.id}", which ${whose} has; ` +
          "give your report an id of its own",
      );
    }
    byId.set(entry.id, definition);
  }
}

/** The pack's `reportingCurrency` and `fxRates`: both or neither, a 3-letter code and a path. */
function reportingCurrencyOf(
  code: unknown,
  { object, failAt }: Scope,
): PackFile["reportingCurrency"] {
  const { fxRates } = object;
  if (code === undefined && fxRates === undefined) return undefined;
  if (typeof code !== "string" || !/^[A-Z]{3}$/.test(code)) {
    failAt("reportingCurrency", "expected a 3-letter ISO 4217 code such as EUR, with fxRates");
  }
  if (typeof fxRates !== "string" || !fxRates.trim()) {
    failAt("fxRates", "expected the path of a CSV date,currency,rate, with reportingCurrency");
  }
  return { code: code as string, fxRates: fxRates as string };
}

/** The fields of a pack file, in the order they are checked. */
const PACK_RULES: readonly FieldRule<Catalogue>[] = [
  {
    field: "name",
    check: (v, { fail }) =>
      typeof v === "string" && NAME.test(v)
        ? v
        : fail("expected a name of letters, digits, '.', '_' or '-'"),
  },
  {
    field: "title",
    check: (v, { fail }) => {
      if (v !== undefined && (typeof v !== "string" || !v.trim())) {
        fail("expected a non-empty title");
      }
      return (v as string | undefined)?.trim();
    },
  },
  {
    field: "output",
    check: (v, { fail }) => {
      if (v !== undefined && (typeof v !== "string" || !v)) fail("expected a folder path");
      return v ?? "./out/packs";
    },
  },
  { field: "reports", check: reportsOf },
  { field: "schedule", check: (v, { failAt }) => v === undefined ? v : checkSchedule(v, failAt) },
  // Before the email: its attachments may name the diff.
  {
    field: "diff",
    check: (v, { path, checked, failAt }) =>
      checkDiff(v, path, (checked.reports as PackReport[]).map((r) => r.id), failAt),
  },
  {
    field: "email",
    check: (v, { checked, failAt }) =>
      v === undefined ? v : checkEmail(v, {
        reports: [
          ...checked.reports as PackReport[],
          ...(checked.diff ? [diffAsReport(checked.diff as PackDiff)] : []),
        ],
        fail: failAt,
      }),
  },
  { field: "reportingCurrency", check: reportingCurrencyOf },
  { field: "theme", check: checkPackTheme },
  { field: "sign", check: (v, { path, failAt }) => checkSign(v, path, failAt) },
];

/** Options of {@link validatePack}. */
export interface ValidatePackOptions {
  /** The pack file's path, for messages. */
  readonly file: string;
  /** The built-in report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /**
   * The report modules the pack's entries name, loaded, by the entry's `report` text (see
   * {@link loadPack}); an entry naming a module not here is refused.
   */
  readonly modules?: ReadonlyMap<string, ReportDefinition>;
  /** The folder the pack's `theme` path is resolved from (default: the pack file's folder). */
  readonly base?: string;
}

/**
 * Validates a parsed pack document against the report catalogue and returns the typed pack.
 *
 * @example
 * ```ts
 * import { validatePack } from "./pack_file.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const pack = validatePack({ name: "weekly", reports: [{ id: "stale-computers" }] }, {
 *   file: "weekly.json",
 *   reports: REPORTS,
 * });
 * console.log(pack.reports[0].formats);
 * ```
 */
export function validatePack(doc: unknown, options: ValidatePackOptions): PackFile {
  const fail = (field: string, problem: string): never => {
    throw new PackFileError(options.file, field, problem);
  };
  const modules = options.modules ?? new Map<string, ReportDefinition>();
  const p = checkFields(doc, PACK_RULES, {
    at: "",
    context: { reports: options.reports, modules },
    fail,
    notObject: "expected a JSON object",
    alsoKnown: ["$schema", "description", "fxRates"],
  });
  const own = (p.reports as PackReport[]).flatMap((r) => r.module ? modules.get(r.module)! : []);
  return {
    name: p.name as string,
    ...(p.title ? { title: p.title as string } : {}),
    output: p.output as string,
    reports: p.reports as PackReport[],
    ...(own.length ? { definitions: [...new Set(own)] } : {}),
    ...(p.schedule ? { schedule: p.schedule as PackSchedule } : {}),
    ...(p.email ? { email: p.email as PackEmail } : {}),
    ...(p.reportingCurrency
      ? { reportingCurrency: p.reportingCurrency as NonNullable<PackFile["reportingCurrency"]> }
      : {}),
    ...(p.theme
      ? { theme: packThemePath(options.base ?? dirname(options.file), p.theme as string) }
      : {}),
    ...(p.sign ? { sign: p.sign as PackSign } : {}),
    ...(p.diff ? { diff: p.diff as PackDiff } : {}),
  };
}

/** Options of {@link loadPack}. */
export interface LoadPackOptions {
  /** The pack file's path, for messages (and, without `base`, the folder modules are found from). */
  readonly file: string;
  /** The built-in report catalogue. */
  readonly reports: readonly ReportDefinition[];
  /** The folder a module path is resolved from (default: the pack file's folder). */
  readonly base?: string;
}

/** The module paths a pack document's entries name, each with its entry's JSON path. */
function modulePaths(doc: unknown): [string, string][] {
  const reports = (doc as { reports?: unknown })?.reports;
  if (!Array.isArray(reports)) return [];
  return reports.flatMap((entry, i) => {
    const ref = (entry as { report?: unknown })?.report;
    return typeof ref === "string" && isReportPath(ref) ? [[ref, `reports[${i}].report`]] : [];
  });
}

/**
 * Validates a parsed pack document, loading the report modules its entries name first (from the
 * pack file's folder, with the loader of built-in reports): a module that does not load, exports
 * no definition, lies outside the folders report modules may come from, or declares a bad column
 * is a {@link PackFileError} naming the entry and the module's file and line. Makes no request.
 *
 * @example
 * ```ts
 * import { loadPack } from "./pack_file.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const doc = { name: "weekly", reports: [{ report: "./reports/stale_computers.ts" }] };
 * const pack = await loadPack(doc, { file: "weekly.json", base: ".", reports: REPORTS });
 * console.log(pack.reports[0].id, pack.definitions?.length); // stale-computers 1
 * ```
 */
export async function loadPack(doc: unknown, options: LoadPackOptions): Promise<PackFile> {
  const base = options.base ?? dirname(options.file);
  const modules = new Map<string, ReportDefinition>();
  for (const [ref, field] of modulePaths(doc)) {
    if (modules.has(ref)) continue;
    try {
      modules.set(ref, await loadReport(ref, { base }));
    } catch (e) {
      throw new PackFileError(options.file, field, (e as Error).message);
    }
  }
  const pack = validatePack(doc, { ...options, modules, base });
  for (const [i, entry] of pack.reports.entries()) {
    if (!entry.module) continue;
    const definition = modules.get(entry.module)!;
    try {
      await checkDeclaredSections(definition, { params: entry.params, filter: entry.filter });
    } catch (e) {
      const explained = reportModuleOf(definition)?.builtIn === false
        ? await explainReportError(definition, e)
        : e;
      throw new PackFileError(options.file, `reports[${i}].report`, (explained as Error).message);
    }
  }
  return pack;
}

/**
 * Reads and validates a pack file, loading the report modules it names ({@link loadPack}).
 *
 * @example
 * ```ts ignore
 * import { readPackFile } from "./pack_file.ts";
 * import { REPORTS } from "../../reports/mod.ts";
 * const pack = await readPackFile("packs/weekly_audit.json", REPORTS);
 * ```
 */
export async function readPackFile(
  path: string,
  reports: readonly ReportDefinition[],
): Promise<PackFile> {
  checkContained(path, { what: "pack file" });
  let text: string;
  try {
    text = await readRegularTextFile(path);
  } catch (e) {
    throw new PackFileError(
      path,
      "",
      e instanceof Deno.errors.NotFound ? "no such file" : readProblem(e),
    );
  }
  let doc: unknown;
  try {
    doc = parseJsonText(text);
  } catch (e) {
    throw new PackFileError(path, "", (e as Error).message);
  }
  return await loadPack(doc, { file: path, reports });
}
