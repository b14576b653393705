/**
 * The pack file: a JSON document listing reports with their parameters and formats, the output
 * root, an optional schedule and an optional email section. Credentials never live in it: the
 * API's come from SAM_* variables and SMTP's from SAMKIT_SMTP_USER / SAMKIT_SMTP_PASSWORD.
 *
 * @module
 */

import { Cron } from "croner";
import { type Format, FORMATS } from "../render/renderer.ts";
import { MAX_FILTER_CHARS, resolveParams } from "../report/params.ts";
import { checkReportFilter } from "../report/runner.ts";
import type { ParamValues, ReportDefinition } from "../report/model.ts";
import { checkContained } from "../fs/containment.ts";
import { parseJsonText } from "../fs/json_text.ts";

/** One report of a pack. */
export interface PackReport {
  /** The report id. */
  readonly id: string;
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
  /** Subject; `{pack}` and `{date}` are filled in. */
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
  /** The schedule, if any. */
  readonly schedule?: PackSchedule;
  /** The email, if any. */
  readonly email?: PackEmail;
  /**
   * A reporting currency for every report and the summary (`"reportingCurrency": "EUR"` with
   * `"fxRates": "rates.csv"`, a CSV `date,currency,rate`), if given.
   */
  readonly reportingCurrency?: { readonly code: string; readonly fxRates: string };
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

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

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
export function validatePack(
  doc: unknown,
  options: { file: string; reports: readonly ReportDefinition[] },
): PackFile {
  const fail = (field: string, problem: string): never => {
    throw new PackFileError(options.file, field, problem);
  };
  if (!isObject(doc)) fail("", "expected a JSON object");
  const d = doc as Json;
  const allowed = new Set([
    "$schema",
    "name",
    "title",
    "output",
    "reports",
    "schedule",
    "email",
    "description",
    "reportingCurrency",
    "fxRates",
  ]);
  for (const key of Object.keys(d)) if (!allowed.has(key)) fail(key, "unknown field");
  if (typeof d.name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(d.name)) {
    fail("name", "expected a name of letters, digits, '.', '_' or '-'");
  }
  if (d.title !== undefined && (typeof d.title !== "string" || !d.title.trim())) {
    fail("title", "expected a non-empty title");
  }
  if (d.output !== undefined && (typeof d.output !== "string" || !d.output)) {
    fail("output", "expected a folder path");
  }
  if (!Array.isArray(d.reports) || d.reports.length === 0) {
    fail("reports", "expected a non-empty list");
  }
  const reports = (d.reports as unknown[]).map((r, i): PackReport => {
    const at = `reports[${i}]`;
    if (!isObject(r)) return fail(at, "expected an object");
    for (const key of Object.keys(r)) {
      if (!["id", "params", "formats", "filter", "allowUnknownFields"].includes(key)) {
        fail(`${at}.${key}`, "unknown field");
      }
    }
    const def = options.reports.find((x) => x.id === r.id);
    if (!def) {
      return fail(
        `${at}.id`,
        `unknown report ${JSON.stringify(r.id)}; known: ${
          options.reports.map((x) => x.id).join(", ")
        }`,
      );
    }
    if (r.params !== undefined && !isObject(r.params)) fail(`${at}.params`, "expected an object");
    let params: ParamValues;
    try {
      params = resolveParams(def, (r.params as Json) ?? {});
    } catch (e) {
      const name = (e as { param?: string }).param;
      return fail(`${at}.params${name ? `.${name}` : ""}`, (e as Error).message);
    }
    let formats: Format[] = ["pdf", "xlsx", "json"];
    if (r.formats !== undefined) {
      if (!Array.isArray(r.formats) || !r.formats.length) {
        fail(`${at}.formats`, "expected a non-empty list");
      }
      for (const f of r.formats as unknown[]) {
        if (!FORMATS.includes(f as Format)) {
          fail(
            `${at}.formats`,
            `unknown format ${JSON.stringify(f)}; formats are ${FORMATS.join(", ")}`,
          );
        }
      }
      formats = [...new Set(r.formats as Format[])];
    }
    if (r.allowUnknownFields !== undefined && typeof r.allowUnknownFields !== "boolean") {
      fail(`${at}.allowUnknownFields`, "expected true or false");
    }
    if (r.filter !== undefined) {
      if (typeof r.filter !== "string") fail(`${at}.filter`, "expected a filter string");
      const length = (r.filter as string).length;
      if (length > MAX_FILTER_CHARS) {
        fail(
          `${at}.filter`,
          `is ${
            length.toLocaleString("en-US")
          } characters long; at most ${MAX_FILTER_CHARS} are accepted`,
        );
      }
      try {
        checkReportFilter(def, r.filter as string, {
          allowUnknownFields: r.allowUnknownFields === true,
          howToAllow: `"allowUnknownFields": true beside the filter`,
        });
      } catch (e) {
        fail(`${at}.filter`, (e as Error).message);
      }
    }
    return { id: def.id, params, formats, ...(r.filter ? { filter: r.filter as string } : {}) };
  });
  let schedule: PackSchedule | undefined;
  if (d.schedule !== undefined) {
    const s = d.schedule;
    if (!isObject(s)) return fail("schedule", "expected an object");
    for (const key of Object.keys(s)) {
      if (!["cron", "timezone"].includes(key)) fail(`schedule.${key}`, "unknown field");
    }
    if (typeof s.cron !== "string") {
      fail("schedule.cron", 'expected a cron expression such as "0 6 * * 1"');
    }
    const timezone = s.timezone === undefined ? "UTC" : s.timezone;
    if (typeof timezone !== "string" || !isTimeZone(timezone)) {
      fail("schedule.timezone", `unknown time zone ${JSON.stringify(timezone)}`);
    }
    try {
      new Cron(s.cron as string, { timezone: timezone as string, paused: true });
    } catch (e) {
      fail(
        "schedule.cron",
        `bad cron expression ${JSON.stringify(s.cron)}: ${(e as Error).message}`,
      );
    }
    schedule = { cron: s.cron as string, timezone: timezone as string };
  }
  let email: PackEmail | undefined;
  if (d.email !== undefined) {
    const e = d.email;
    if (!isObject(e)) return fail("email", "expected an object");
    const known = [
      "host",
      "port",
      "tls",
      "from",
      "to",
      "cc",
      "subject",
      "attach",
      "maxAttachmentBytes",
      "evidenceUrl",
    ];
    for (const key of Object.keys(e)) {
      if (!known.includes(key)) {
        if (/pass|secret|user/i.test(key)) {
          fail(
            "email",
            `field "${key}" is not allowed: credentials belong in SAMKIT_SMTP_USER and SAMKIT_SMTP_PASSWORD, never in the pack file`,
          );
        }
        fail(`email.${key}`, "unknown field");
      }
    }
    if (typeof e.host !== "string" || !e.host) fail("email.host", "expected the SMTP host");
    const tls = e.tls ?? "starttls";
    if (!["starttls", "tls", "none"].includes(tls as string)) {
      fail("email.tls", "expected starttls, tls or none");
    }
    const port = e.port ?? (tls === "tls" ? 465 : 587);
    if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) {
      fail("email.port", "expected a port 1-65535");
    }
    const address = /^[^\s@<>]+@[^\s@<>]+$/;
    if (typeof e.from !== "string" || !address.test(e.from)) {
      fail("email.from", "expected an email address");
    }
    const list = (field: string, v: unknown, required: boolean): string[] => {
      if (v === undefined && !required) return [];
      if (!Array.isArray(v) || (required && !v.length)) {
        return fail(`email.${field}`, "expected a list of email addresses");
      }
      for (const a of v as unknown[]) {
        if (typeof a !== "string" || !address.test(a)) {
          fail(`email.${field}`, `not an email address: ${JSON.stringify(a)}`);
        }
      }
      return v as string[];
    };
    const attach = e.attach === undefined ? [] : e.attach;
    if (!Array.isArray(attach)) return fail("email.attach", "expected a list of report ids");
    for (const a of attach) checkAttachEntry(a, reports, fail);
    if (
      e.evidenceUrl !== undefined &&
      (typeof e.evidenceUrl !== "string" || !/^https?:\/\/\S+$/.test(e.evidenceUrl))
    ) {
      fail("email.evidenceUrl", "expected an http(s) URL");
    }
    const max = e.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES;
    if (!Number.isInteger(max) || (max as number) < 0) {
      fail("email.maxAttachmentBytes", "expected a whole number of bytes");
    }
    if (e.subject !== undefined && typeof e.subject !== "string") {
      fail("email.subject", "expected text");
    }
    email = {
      host: e.host as string,
      port: port as number,
      tls: tls as PackEmail["tls"],
      from: e.from as string,
      to: list("to", e.to, true),
      cc: list("cc", e.cc, false),
      subject: (e.subject as string) ?? "samkit: {pack} for {date}",
      attach: attach as string[],
      maxAttachmentBytes: max as number,
      ...(e.evidenceUrl ? { evidenceUrl: e.evidenceUrl as string } : {}),
    };
  }
  return {
    name: d.name as string,
    ...(d.title ? { title: (d.title as string).trim() } : {}),
    output: (d.output as string) ?? "./out/packs",
    reports,
    ...(schedule ? { schedule } : {}),
    ...(email ? { email } : {}),
    ...reportingCurrencyField(d, fail),
  };
}

/** The pack's `reportingCurrency` and `fxRates`: both or neither, a 3-letter code and a path. */
function reportingCurrencyField(
  d: Json,
  fail: (field: string, problem: string) => never,
): Pick<PackFile, "reportingCurrency"> {
  const { reportingCurrency: code, fxRates } = d;
  if (code === undefined && fxRates === undefined) return {};
  if (typeof code !== "string" || !/^[A-Z]{3}$/.test(code)) {
    fail("reportingCurrency", "expected a 3-letter ISO 4217 code such as EUR, with fxRates");
  }
  if (typeof fxRates !== "string" || !fxRates.trim()) {
    fail("fxRates", "expected the path of a CSV date,currency,rate, with reportingCurrency");
  }
  return { reportingCurrency: { code: code as string, fxRates: fxRates as string } };
}

/**
 * The default cap on the email's attachments: 5 MB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_ATTACHMENT_BYTES } from "./pack_file.ts";
 * console.log(DEFAULT_MAX_ATTACHMENT_BYTES); // 5000000
 * ```
 */
export const DEFAULT_MAX_ATTACHMENT_BYTES = 5_000_000;

/** Checks one `email.attach` entry: summary.pdf, a report id writing a PDF, or `<id>.<format>`. */
function checkAttachEntry(
  a: unknown,
  reports: readonly PackReport[],
  fail: (field: string, problem: string) => never,
): void {
  if (a === "summary.pdf") return;
  if (typeof a !== "string") return fail("email.attach", "expected report ids");
  const report = reports.find((r) => r.id === a) ??
    reports.find((r) => a.startsWith(`${r.id}.`));
  if (!report) return fail("email.attach", `${JSON.stringify(a)} is not a report of this pack`);
  const format = report.id === a ? "pdf" : a.slice(report.id.length + 1);
  if (!report.formats.includes(format as Format)) {
    fail(
      "email.attach",
      `report ${report.id} does not write ${format === "pdf" ? "a PDF" : format}`,
    );
  }
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads and validates a pack file.
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
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw new PackFileError(
      path,
      "",
      e instanceof Deno.errors.NotFound ? "no such file" : (e as Error).message,
    );
  }
  let doc: unknown;
  try {
    doc = parseJsonText(text);
  } catch (e) {
    throw new PackFileError(path, "", (e as Error).message);
  }
  return validatePack(doc, { file: path, reports });
}
