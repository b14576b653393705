/**
 * The JSON renderer: `<report-id>.json`, shaped exactly as the render contract says:
 *
 * ```json
 * {"report": "<id>", "title": "...", "generatedAt": "<RFC 3339>", "source": "...",
 *  "params": {...}, "scope": {"filter": "..." | null, "parameters": [{"name", "value", "origin"}]},
 *  "headlines": [{"label", "value", "type", "currency"?}],
 *  "sections": [{"id": "...", "title": "...", "columns": [{"key", "label", "type"}],
 *                "rows": [{...}], "totals": {...}}]}
 * ```
 *
 * Rows hold only the columns' keys (a missing value is `null`); numbers stay numbers (a non-finite
 * one becomes `null`), dates become RFC 3339 strings (`YYYY-MM-DD` for date columns), booleans
 * stay booleans. Headlines are the cover's and summary's figures under the same names (a money
 * figure with its currency), so a reader of the JSON recomputes them from its rows. Totals are
 * the spooled totals: label (`All` or a currency code) → key → sum, plus `rows`. The file is written as rows are read (one row per line), is valid JSON for zero rows,
 * and appears only when complete. JSON is data, not display: strings keep every character the API
 * sent (bidirectional and other controls included, JSON-escaped where JSON needs it), where HTML,
 * PDF and XLSX show invisible controls as visible escapes (`<U+202E>`).
 *
 * @module
 */

import { join } from "node:path";
import type { Column, Fact, Row } from "../report/model.ts";
import { openAtomicText } from "./atomic.ts";
import { plainValue } from "./format.ts";
import type { RenderDocument, Renderer, RenderOptions } from "./renderer.ts";

/**
 * A row in its JSON form: the column keys only, values in machine form.
 *
 * @example
 * ```ts
 * import { jsonRow } from "./json.ts";
 * jsonRow({ at: new Date("2024-01-05T00:00:00Z"), extra: 1 }, [
 *   { key: "at", label: "At", type: "date" },
 *   { key: "n", label: "N", type: "number" },
 * ]); // { at: "2024-01-05", n: null }
 * ```
 */
export function jsonRow(
  row: Row,
  columns: readonly Column[],
): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const column of columns) out[column.key] = plainValue(row[column.key], column.type);
  return out;
}

/** Parameter values as JSON: dates as RFC 3339, undefined dropped, non-finite numbers null. */
function jsonParams(params: Record<string, unknown>): string {
  return JSON.stringify(params, (_key, value) => {
    if (typeof value === "number" && !Number.isFinite(value)) return null;
    if (typeof value === "bigint") return value.toString();
    return value;
  });
}

/** A headline figure as JSON: its name, machine value and type, and a money figure's currency. */
function jsonHeadline(fact: Fact): Record<string, unknown> {
  return {
    label: fact.label,
    value: plainValue(fact.value, fact.type),
    type: fact.type,
    ...(fact.currency ? { currency: fact.currency } : {}),
  };
}

/**
 * The document's scope as JSON members (with a trailing comma), or nothing without one:
 * `"scope":{"filter":…|null,"parameters":[{"name","value","origin"[,"label"]}]}` (a label names
 * what an id value stands for: an organisation's name).
 */
function jsonScope(doc: RenderDocument): string {
  if (!doc.scope) return "";
  const parameters = doc.scope.parameters.map(({ name, value, origin, label }) => ({
    name,
    value: value ?? null,
    origin,
    ...(label === undefined ? {} : { label }),
  }));
  return `"scope":{"filter":${JSON.stringify(doc.scope.filter ?? null)},` +
    `"parameters":${jsonParams(parameters as unknown as Record<string, unknown>)}},`;
}

/**
 * Writes `<report-id>.json`.
 *
 * @example
 * ```ts
 * import { JsonRenderer } from "./json.ts";
 * import { memorySection } from "../report/spool.ts";
 * const [path] = await new JsonRenderer().render({
 *   report: { id: "demo", title: "Demo", description: "A demo." },
 *   generatedAt: new Date("2024-05-01T08:00:00Z"),
 *   source: "test",
 *   params: {},
 *   summary: [],
 *   sections: [memorySection({
 *     id: "main",
 *     title: "Main",
 *     columns: [{ key: "n", label: "N", type: "integer" }],
 *     rows: [{ n: 1 }],
 *   })],
 *   version: "0.1.0",
 * }, { outDir: await Deno.makeTempDir() });
 * const parsed = JSON.parse(await Deno.readTextFile(path));
 * console.log(parsed.sections[0].rows); // [ { n: 1 } ]
 * ```
 */
export class JsonRenderer implements Renderer {
  /** The format. */
  readonly format = "json" as const;

  /** Streams the document into a temp file and renames it. */
  async render(doc: RenderDocument, options: RenderOptions): Promise<string[]> {
    options.signal?.throwIfAborted();
    const out = await openAtomicText(join(options.outDir, `${doc.report.id}.json`));
    try {
      const s = JSON.stringify;
      await out.write(
        `{"report":${s(doc.report.id)},"title":${s(doc.report.title)},` +
          `"generatedAt":${s(doc.generatedAt.toISOString())},"source":${s(doc.source)},` +
          `"params":${jsonParams(doc.params)},${jsonScope(doc)}` +
          (doc.reportingCurrency ? `"reportingCurrency":${s(doc.reportingCurrency)},` : "") +
          `"headlines":${s(doc.summary.map(jsonHeadline))},"sections":[`,
      );
      for (let i = 0; i < doc.sections.length; i++) {
        options.signal?.throwIfAborted();
        const section = doc.sections[i];
        const columns = section.columns.map((c) => ({ key: c.key, label: c.label, type: c.type }));
        await out.write(
          `${i === 0 ? "" : ","}\n{"id":${s(section.id)},"title":${s(section.title)},` +
            `"columns":${s(columns)},"rows":[`,
        );
        let n = 0;
        let batch = "";
        for await (const row of section.rows()) {
          batch += `${n === 0 ? "\n" : ",\n"}${s(jsonRow(row, section.columns))}`;
          if ((++n & 1023) === 0) {
            options.signal?.throwIfAborted();
            await out.write(batch);
            batch = "";
          }
        }
        if (batch !== "") await out.write(batch);
        const omitted = section.omittedColumns?.length
          ? `,"omittedColumns":${s(section.omittedColumns)}`
          : "";
        await out.write(`${n === 0 ? "" : "\n"}],"totals":${s(section.totals)}${omitted}}`);
      }
      await out.write(`${doc.sections.length === 0 ? "" : "\n"}]}\n`);
      return [await out.commit()];
    } catch (error) {
      await out.abort();
      throw error;
    }
  }
}
