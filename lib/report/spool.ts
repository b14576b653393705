/**
 * Spooling: a section's rows are read from their source exactly once, written to a temp JSON
 * Lines file, and streamed back from that file for each renderer, so several formats can be
 * written from one fetch while memory stays flat however many rows there are. The row count and
 * totals are computed while the rows pass.
 *
 * When a section is grouped and its groups do not arrive together, the spool is sorted by the
 * group value with an external merge sort (bounded runs on disk), so renderers always see each
 * group's rows together and in the order they arrived.
 *
 * @module
 */

import type { Fact, ReportData, Row, Section } from "./model.ts";
import type { RenderSection } from "../render/renderer.ts";
import { compareGroupValues, GroupArrival, TotalsAccumulator } from "./totals.ts";
import { ExtentAccumulator } from "./extents.ts";
import { describeOmitted, UnfilledColumns, type UnfilledResult } from "./unfilled.ts";
import { removeQuietly, TextFileWriter } from "../render/atomic.ts";

/** Options of {@link spoolSection} and {@link spoolReport}. */
export interface SpoolOptions {
  /** An existing (or creatable) folder for the spool files, e.g. the run's temp folder. */
  readonly dir: string;
  /** Cancels spooling; the partial spool file is removed. */
  readonly signal?: AbortSignal;
  /** Rows per sorted run when a grouped section must be sorted (default 20 000). */
  readonly runSize?: number;
}

/** A section spooled to a file. */
export interface SpooledSection extends RenderSection {
  /** The spool file (JSON Lines). */
  readonly path: string;
  /** Removes the spool file; `rows()` fails afterwards. */
  dispose(): Promise<void>;
}

/** A whole report's spooled sections plus its summary facts. */
export interface SpooledReport extends AsyncDisposable {
  /** The sections, in order. */
  readonly sections: readonly SpooledSection[];
  /** The headline figures (computed after every section's rows were read). */
  readonly summary: readonly Fact[];
  /** Removes every spool file. */
  dispose(): Promise<void>;
}

/** Thrown when a disposed spool is read. */
export class SpoolDisposedError extends Error {
  /** @param section The section id. */
  constructor(section: string) {
    super(`the spool of section "${section}" was disposed`);
    this.name = "SpoolDisposedError";
  }
}

// ---------------------------------------------------------------------------------------------
// Row encoding: one JSON object per line; a Date becomes {"$d": epochMillis} (cell values are
// primitives otherwise, so an object can only be an encoded date).

/**
 * Encodes a row as one JSON line (without the newline), keeping dates as dates.
 *
 * @example
 * ```ts
 * import { decodeRow, encodeRow } from "./spool.ts";
 * const row = decodeRow(encodeRow({ at: new Date(0), n: 1 }));
 * console.log(row.at instanceof Date); // true
 * ```
 */
export function encodeRow(row: Row): string {
  let copy: Record<string, unknown> | undefined;
  for (const key in row) {
    const value = row[key];
    if (value instanceof Date) {
      copy ??= { ...row };
      const time = value.getTime();
      copy[key] = { $d: Number.isNaN(time) ? null : time };
    }
  }
  return JSON.stringify(copy ?? row);
}

/**
 * Decodes a line written by {@link encodeRow}.
 *
 * @example
 * ```ts
 * import { decodeRow } from "./spool.ts";
 * decodeRow('{"n":1,"at":{"$d":0}}').at; // Date 1970-01-01T00:00:00.000Z
 * ```
 */
export function decodeRow(line: string): Row {
  const row = JSON.parse(line) as Record<string, unknown>;
  for (const key in row) {
    const value = row[key];
    if (value !== null && typeof value === "object" && "$d" in value) {
      const time = (value as { $d: number | null }).$d;
      row[key] = new Date(time ?? Number.NaN);
    }
  }
  return row as Row;
}

// ---------------------------------------------------------------------------------------------
// Line files

/** Bytes read per call when streaming a spool file back. */
const READ_SIZE = 64 * 1024;

/** Streams a file's lines (without newlines); the file is closed when iteration ends or stops. */
async function* readLines(path: string): AsyncGenerator<string> {
  const file = await Deno.open(path, { read: true });
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(READ_SIZE);
  let rest = "";
  try {
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) break;
      const text = rest + decoder.decode(buffer.subarray(0, n), { stream: true });
      let start = 0;
      let newline: number;
      while ((newline = text.indexOf("\n", start)) !== -1) {
        yield text.slice(start, newline);
        start = newline + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.decode();
    if (rest !== "") yield rest;
  } finally {
    file.close();
  }
}

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "section";
}

// ---------------------------------------------------------------------------------------------
// External sort by group value (stable)

async function sortSpool(
  path: string,
  by: string,
  options: SpoolOptions,
  prefix: string,
): Promise<void> {
  const runSize = Math.max(1, options.runSize ?? 20_000);
  const runs: string[] = [];
  try {
    let batch: { value: Row[string]; line: string }[] = [];
    const writeRun = async () => {
      batch.sort((a, b) => compareGroupValues(a.value, b.value)); // stable
      const run = await Deno.makeTempFile({ dir: options.dir, prefix, suffix: ".run" });
      runs.push(run);
      const writer = await TextFileWriter.open(run);
      try {
        for (const item of batch) await writer.write(`${item.line}\n`);
        await writer.close();
      } catch (error) {
        writer.discard();
        throw error;
      }
      batch = [];
    };
    for await (const line of readLines(path)) {
      options.signal?.throwIfAborted();
      batch.push({ value: decodeRow(line)[by] ?? null, line });
      if (batch.length >= runSize) await writeRun();
    }
    if (batch.length > 0) await writeRun();

    // k-way merge; ties go to the earlier run, which keeps the sort stable.
    const readers = runs.map((run) => readLines(run));
    const heads: ({ value: Row[string]; line: string } | undefined)[] = [];
    const advance = async (i: number) => {
      const next = await readers[i].next();
      heads[i] = next.done
        ? undefined
        : { value: decodeRow(next.value)[by] ?? null, line: next.value };
    };
    const writer = await TextFileWriter.open(path);
    try {
      for (let i = 0; i < readers.length; i++) await advance(i);
      for (;;) {
        options.signal?.throwIfAborted();
        let best = -1;
        for (let i = 0; i < heads.length; i++) {
          const head = heads[i];
          if (!head) continue;
          if (best === -1 || compareGroupValues(head.value, heads[best]!.value) < 0) best = i;
        }
        if (best === -1) break;
        await writer.write(`${heads[best]!.line}\n`);
        await advance(best);
      }
      await writer.close();
    } catch (error) {
      writer.discard();
      throw error;
    } finally {
      await Promise.all(readers.map((reader) => reader.return(undefined)));
    }
  } finally {
    await Promise.all(runs.map(removeQuietly));
  }
}

// ---------------------------------------------------------------------------------------------
// Sections

/**
 * The render-facing fields of a section (everything but rows, count and totals), without the
 * columns no row filled.
 */
function describe(section: Section, unfilled: UnfilledResult) {
  return {
    id: section.id,
    title: section.title,
    description: describeOmitted(section.description, unfilled.omitted),
    ...(unfilled.omitted.length > 0 ? { omittedColumns: unfilled.omitted } : {}),
    columns: unfilled.columns,
    group: section.group,
    chart: section.chart,
    emptyText: section.emptyText,
    totalsSpec: section.totals,
  };
}

/**
 * Reads a section's rows once into a spool file in `dir`, computing the row count and totals as
 * they pass, and returns a section whose `rows()` streams the file again on every call. Rows of
 * a grouped section whose groups arrive scattered are sorted (stably) by the group value. On error
 * or abort the spool file is removed and the error rethrown.
 *
 * @example
 * ```ts
 * import { spoolSection } from "./spool.ts";
 * async function* source() {
 *   yield { host: "a", cost: 1.5, currency: "EUR" };
 *   yield { host: "b", cost: 2.25, currency: "EUR" };
 * }
 * const dir = await Deno.makeTempDir();
 * const section = await spoolSection({
 *   id: "costs",
 *   title: "Costs",
 *   columns: [{ key: "host", label: "Host", type: "text" }],
 *   rows: source(),
 *   totals: { sum: ["cost"], perCurrency: "currency" },
 * }, { dir });
 * console.log(section.rowCount, section.totals.EUR.cost); // 2 3.75
 * await section.dispose();
 * ```
 */
export async function spoolSection(
  section: Section,
  options: SpoolOptions,
): Promise<SpooledSection> {
  options.signal?.throwIfAborted();
  await Deno.mkdir(options.dir, { recursive: true });
  const prefix = `spool-${safeName(section.id)}-`;
  const path = await Deno.makeTempFile({ dir: options.dir, prefix, suffix: ".jsonl" });
  const totals = new TotalsAccumulator(section.totals, section.columns);
  const extents = new ExtentAccumulator(section.columns);
  const unfilled = new UnfilledColumns(section.columns);
  const by = section.group?.by;
  const arrival = new GroupArrival();
  const writer = await TextFileWriter.open(path);
  try {
    for await (const row of section.rows) {
      options.signal?.throwIfAborted();
      totals.add(row);
      extents.add(row);
      unfilled.add(row);
      if (by !== undefined) arrival.add(row[by]);
      await writer.write(`${encodeRow(row)}\n`);
    }
    await writer.close();
    if (arrival.scattered) await sortSpool(path, by!, options, prefix);
  } catch (error) {
    writer.discard();
    await removeQuietly(path);
    throw error;
  }

  let disposed = false;
  const id = section.id;
  return {
    ...describe(section, unfilled.result()),
    path,
    rowCount: totals.count,
    totals: totals.result(),
    extents: extents.result(),
    rows(): AsyncIterable<Row> {
      return {
        async *[Symbol.asyncIterator]() {
          if (disposed) throw new SpoolDisposedError(id);
          for await (const line of readLines(path)) yield decodeRow(line);
        },
      };
    },
    async dispose() {
      disposed = true;
      await removeQuietly(path);
    },
  };
}

/**
 * Wraps a section whose rows are a (small) synchronous iterable, keeping the rows in memory: for
 * tests and tiny reports. Rows of a grouped section whose groups arrive scattered are sorted
 * (stably) by the group value, as {@link spoolSection} does.
 *
 * @example
 * ```ts
 * import { memorySection } from "./spool.ts";
 * const section = memorySection({
 *   id: "main",
 *   title: "Main",
 *   columns: [{ key: "n", label: "N", type: "integer" }],
 *   rows: [{ n: 1 }, { n: 2 }],
 *   totals: { sum: ["n"] },
 * });
 * console.log(section.totals); // { All: { n: 3, rows: 2 } }
 * ```
 */
export function memorySection(section: Section): RenderSection {
  const source = section.rows;
  if (!(Symbol.iterator in source)) {
    throw new TypeError(
      `memorySection("${section.id}") needs synchronous rows; use spoolSection for a stream`,
    );
  }
  let rows = [...(source as Iterable<Row>)];
  const by = section.group?.by;
  if (by !== undefined) {
    const arrival = new GroupArrival();
    for (const row of rows) arrival.add(row[by]);
    if (arrival.scattered) rows = rows.slice().sort((a, b) => compareGroupValues(a[by], b[by]));
  }
  const totals = new TotalsAccumulator(section.totals, section.columns);
  const extents = new ExtentAccumulator(section.columns);
  const unfilled = new UnfilledColumns(section.columns);
  for (const row of rows) {
    totals.add(row);
    extents.add(row);
    unfilled.add(row);
  }
  return {
    ...describe(section, unfilled.result()),
    rowCount: rows.length,
    totals: totals.result(),
    extents: extents.result(),
    rows(): AsyncIterable<Row> {
      return {
        async *[Symbol.asyncIterator]() {
          yield* rows;
        },
      };
    },
  };
}

/**
 * Spools every section of a report in order (one at a time, each source read once), then calls
 * the report's summary function. Dispose the result (or use `await using`) to remove the spool
 * files; on error the files already written are removed.
 *
 * @example
 * ```ts
 * import { spoolReport } from "./spool.ts";
 * const dir = await Deno.makeTempDir();
 * await using spooled = await spoolReport({
 *   sections: [{
 *     id: "main",
 *     title: "Main",
 *     columns: [{ key: "n", label: "N", type: "integer" }],
 *     rows: [{ n: 1 }],
 *   }],
 *   summary: () => [{ label: "Rows", value: 1, type: "integer" }],
 * }, { dir });
 * console.log(spooled.sections[0].rowCount, spooled.summary[0].value); // 1 1
 * ```
 */
export async function spoolReport(data: ReportData, options: SpoolOptions): Promise<SpooledReport> {
  const sections: SpooledSection[] = [];
  const disposeAll = async () => {
    await Promise.all(sections.map((section) => section.dispose()));
  };
  try {
    for (const section of data.sections) sections.push(await spoolSection(section, options));
    const summary = data.summary ? data.summary() : [];
    return {
      sections,
      summary,
      dispose: disposeAll,
      [Symbol.asyncDispose]: disposeAll,
    };
  } catch (error) {
    await disposeAll();
    throw error;
  }
}
