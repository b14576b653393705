/**
 * A user's price file: unit prices for applications and metrics that neither the licenses
 * (what was paid) nor the registry (list prices) price. CSV with a header row, or JSON (an array
 * of objects), with the fields `application` (id or name, with or without version), `metric`
 * (id or name), `currency` (ISO 4217) and `unitPrice` (a positive number of at most
 * 9,999,999,999,999.99, exact to the cent; also `unit price` or `unit_price` in CSV headers).
 *
 * ```csv
 * application,metric,currency,unitPrice
 * Oracle Database Enterprise Edition 19c,Processor cores,USD,23750
 * ```
 *
 * @module
 */

import { parse } from "csv-parse/sync";
import { checkContained } from "../../fs/containment.ts";
import { safeExcerpt } from "../../fs/excerpt.ts";
import { parseJsonText } from "../../fs/json_text.ts";
import { inExactRange, rangeText, readNumberText } from "../../api/number_range.ts";
import { readProblem, readRegularTextFile } from "../../fs/regular_file.ts";

/** Thrown for a price file that cannot be read as prices; names the file, line and field. */
export class PriceFileError extends Error {
  /** @param message What is wrong, where. */
  constructor(message: string) {
    super(message);
    this.name = "PriceFileError";
  }
}

/** One price of the file. */
export interface PriceFileEntry {
  /** 1-based line (CSV) or item number (JSON). */
  readonly line: number;
  /** Application id or name as written. */
  readonly application: string;
  /** Metric id or name as written. */
  readonly metric: string;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** Major units per unit. */
  readonly unitPrice: number;
}

const FIELD_ALIASES: Readonly<Record<string, string>> = {
  application: "application",
  metric: "metric",
  currency: "currency",
  unitprice: "unitPrice",
  "unit price": "unitPrice",
  unit_price: "unitPrice",
};

function entry(
  raw: Record<string, unknown>,
  line: number,
  name: string,
  format: "csv" | "json",
): PriceFileEntry {
  const where = `${name}, ${format === "csv" ? "line" : "item"}`;
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    const name = FIELD_ALIASES[k.trim().toLowerCase()];
    if (name) fields[name] = v;
  }
  const text = (name: string) => {
    const v = fields[name];
    if (typeof v !== "string" || !v.trim()) {
      throw new PriceFileError(`${where} ${line}: "${name}" is missing`);
    }
    return v.trim();
  };
  const currency = text("currency").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new PriceFileError(
      `${where} ${line}: currency ${safeExcerpt(currency)} is not an ISO 4217 code`,
    );
  }
  const rawPrice = fields.unitPrice;
  const unitPrice = typeof rawPrice === "number"
    ? (inExactRange(rawPrice, "money") ? rawPrice : undefined)
    : typeof rawPrice === "string"
    ? readNumberText(rawPrice, "money")
    : undefined;
  if (unitPrice === undefined || !(unitPrice > 0)) {
    throw new PriceFileError(
      `${where} ${line}: unitPrice ${safeExcerpt(rawPrice)} is not a positive ${
        rangeText("money")
      }`,
    );
  }
  return { line, application: text("application"), metric: text("metric"), currency, unitPrice };
}

/** Why the text did not parse, in words and a position: never the text itself. */
function parseProblem(error: unknown, format: "csv" | "json"): string {
  if (format === "json") return (error as Error).message;
  const e = error as { code?: unknown; lines?: unknown };
  const code = typeof e.code === "string" ? ` (${e.code})` : "";
  const line = typeof e.lines === "number" ? ` at line ${e.lines}` : "";
  return `not valid CSV${line}${code}`;
}

/**
 * Parses a price file's text (`csv` or `json`); `name` is used in error messages.
 *
 * @example
 * ```ts
 * import { parsePriceFile } from "./price_file.ts";
 * const prices = parsePriceFile("application,metric,currency,unitPrice\nVisio 2021,Installations,EUR,240\n", "csv", "prices.csv");
 * console.log(prices[0].unitPrice, prices[0].line); // 240 2
 * ```
 */
export function parsePriceFile(
  text: string,
  format: "csv" | "json",
  name: string,
): PriceFileEntry[] {
  let rows: Record<string, unknown>[];
  try {
    rows = format === "json"
      ? parseJsonText(text) as Record<string, unknown>[]
      : parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new PriceFileError(`${name}: ${parseProblem(error, format)}`);
  }
  if (!Array.isArray(rows)) {
    throw new PriceFileError(`${name}: a JSON price file is an array of prices`);
  }
  const entries = rows.map((raw, i) => {
    if (typeof raw !== "object" || raw === null) {
      throw new PriceFileError(`${name}, item ${i + 1}: not an object`);
    }
    return entry(raw, format === "csv" ? i + 2 : i + 1, name, format);
  });
  const seen = new Map<string, number>();
  for (const e of entries) {
    const key = `${e.application.toLowerCase()}\u0000${e.metric.toLowerCase()}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new PriceFileError(
        `${name}, ${e.line}: a second price for "${e.application}" / "${e.metric}" (first on ${first})`,
      );
    }
    seen.set(key, e.line);
  }
  return entries;
}

/**
 * Reads a price file from disk (`.json` is JSON, anything else CSV).
 *
 * @example
 * ```ts ignore
 * import { readPriceFile } from "./price_file.ts";
 * const prices = await readPriceFile("prices.csv");
 * ```
 */
export async function readPriceFile(path: string): Promise<PriceFileEntry[]> {
  checkContained(path, { what: "price file" });
  let text: string;
  try {
    text = await readRegularTextFile(path);
  } catch (error) {
    throw new PriceFileError(`price file ${path}: ${readProblem(error)}`);
  }
  return parsePriceFile(text, path.toLowerCase().endsWith(".json") ? "json" : "csv", path);
}

/** How price-file names are matched to ids. */
export interface PriceFileNames {
  /** Application ids with the names they may be written as (name, "name version"). */
  readonly applications: Iterable<readonly [string, readonly string[]]>;
  /** Metric id → name, per application (`applicationId\u0000metricId`), or for any application. */
  readonly metricName: (applicationId: string, metricId: string) => string | undefined;
}

/**
 * Matches price-file entries to application × metric pairs in use (`pairs`): an entry's
 * application by id or any of its names, its metric by id or name (case-insensitive). Returns
 * the prices by `applicationId\u0000metricId` and the entries that matched nothing.
 *
 * @example
 * ```ts
 * import { matchPriceFile } from "./price_file.ts";
 * const { prices, unmatched } = matchPriceFile(
 *   [{ line: 2, application: "Visio 2021", metric: "Installations", currency: "EUR", unitPrice: 240 }],
 *   [["APP7", "MET1"]],
 *   { applications: [["APP7", ["Visio", "Visio 2021"]]], metricName: () => "Installations" },
 * );
 * console.log(prices.get("APP7\u0000MET1"), unmatched.length); // { currency: "EUR", unitPrice: 240 } 0
 * ```
 */
export function matchPriceFile(
  entries: readonly PriceFileEntry[],
  pairs: Iterable<readonly [string, string]>,
  names: PriceFileNames,
): { prices: Map<string, { currency: string; unitPrice: number }>; unmatched: PriceFileEntry[] } {
  const appNames = new Map<string, Set<string>>();
  for (const [id, labels] of names.applications) {
    appNames.set(id, new Set([id, ...labels].map((s) => s.toLowerCase())));
  }
  const prices = new Map<string, { currency: string; unitPrice: number }>();
  const used = new Set<PriceFileEntry>();
  for (const [app, metric] of pairs) {
    const metricNames = new Set(
      [metric, names.metricName(app, metric) ?? ""].map((s) => s.toLowerCase()),
    );
    const hit = entries.find((e) =>
      (appNames.get(app) ?? new Set([app.toLowerCase()])).has(e.application.toLowerCase()) &&
      metricNames.has(e.metric.toLowerCase())
    );
    if (!hit) continue;
    used.add(hit);
    prices.set(`${app}\u0000${metric}`, { currency: hit.currency, unitPrice: hit.unitPrice });
  }
  return { prices, unmatched: entries.filter((e) => !used.has(e)) };
}
