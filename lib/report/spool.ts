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

import { rankBy } from "./rank.ts";
import type { CellValue, Fact, ReportData, Row, Section } from "./model.ts";
import type { RenderSection } from "../render/renderer.ts";
import { compareGroupValues, GroupArrival, groupKey, TotalsAccumulator } from "./totals.ts";
import { ExtentAccumulator } from "./extents.ts";
import { describeOmitted, UnfilledColumns, type UnfilledResult } from "./unfilled.ts";
import { removeQuietly, TextFileWriter } from "../render/atomic.ts";
import { decodeRow, encodeRow, RowCodec } from "./row_codec.ts";
import { openRegularFile } from "../fs/regular_file.ts";

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
// Line files

/** Bytes read per call when streaming a spool file back. */
const READ_SIZE = 64 * 1024;

/**
 * Streams a file's lines (without newlines) a read at a time: each chunk holds the lines that
 * ended within one read. A multi-byte character split across reads is decoded whole, and a long
 * line split across many reads is joined once. The file is closed when iteration ends or stops.
 */
async function* readLineChunks(path: string): AsyncGenerator<string[]> {
  const file = await openRegularFile(path);
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(READ_SIZE);
  const pending: string[] = [];
  try {
    for (;;) {
      const n = await file.read(buffer);
      if (n === null) break;
      const lines = splitLines(decoder.decode(buffer.subarray(0, n), { stream: true }), pending);
      if (lines.length > 0) yield lines;
    }
    pending.push(decoder.decode());
    const last = pending.join("");
    if (last !== "") yield [last];
  } finally {
    file.close();
  }
}

/** The lines that end in `text`; `pending` holds the unfinished line before and after. */
function splitLines(text: string, pending: string[]): string[] {
  const lines: string[] = [];
  let start = 0;
  let newline: number;
  while ((newline = text.indexOf("\n", start)) !== -1) {
    const piece = text.slice(start, newline);
    if (pending.length === 0) lines.push(piece);
    else {
      pending.push(piece);
      lines.push(pending.join(""));
      pending.length = 0;
    }
    start = newline + 1;
  }
  if (start < text.length) pending.push(text.slice(start));
  return lines;
}

/** Streams a file's lines (without newlines); the file is closed when iteration ends or stops. */
async function* readLines(path: string): AsyncGenerator<string> {
  for await (const lines of readLineChunks(path)) yield* lines;
}

/** Lines gathered into few writes (the output is the lines, each followed by a newline). */
class LineBatch {
  #writer: TextFileWriter;
  #lines: string[] = [];

  constructor(writer: TextFileWriter) {
    this.#writer = writer;
  }

  async push(line: string): Promise<void> {
    this.#lines.push(line);
    if (this.#lines.length >= 1024) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#lines.length === 0) return;
    const text = `${this.#lines.join("\n")}\n`;
    this.#lines = [];
    await this.#writer.write(text);
  }
}

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40) || "section";
}

// ---------------------------------------------------------------------------------------------
// Group values recorded while rows are spooled, so sorting never parses a row again

/**
 * Interns a grouped section's group values as they arrive and keeps each row's group as a small
 * integer (4 bytes a row, never the row). Values are told apart as `GroupArrival` does, so
 * `scattered` matches it; each distinct value is ranked as the spool file's value would be (what
 * `decodeRow` reads back), so the sort orders exactly as comparing the decoded rows did.
 */
class GroupRecorder {
  readonly #values: CellValue[] = [];
  readonly #primitives = new Map<CellValue, number>();
  readonly #others = new Map<string, number>();
  #rows = new Int32Array(1024);
  #count = 0;
  #current = -1;
  #lastValue: unknown = undefined;
  #scattered = false;

  /** Notes the next row's group value. */
  add(value: CellValue | undefined): void {
    const index = this.#count > 0 && value === this.#lastValue && typeof value !== "object"
      ? this.#current
      : this.#index(value ?? null);
    this.#lastValue = value;
    if (this.#count === this.#rows.length) this.#grow();
    this.#rows[this.#count++] = index;
  }

  /** Whether a group came back after another group. */
  get scattered(): boolean {
    return this.#scattered;
  }

  /**
   * Each row's rank: the position of its group value in `compareGroupValues` order (values that
   * compare equal share a rank). Reuses the row array; call once, after the last row.
   */
  ranks(): Int32Array {
    const rankOf = rankBy(this.#values.map(spooledValue), compareGroupValues);
    const rows = this.#rows.subarray(0, this.#count);
    for (let i = 0; i < rows.length; i++) rows[i] = rankOf[rows[i]];
    return rows;
  }

  #index(value: CellValue): number {
    const primitive = typeof value !== "object" || value === null;
    const map: Map<unknown, number> = primitive ? this.#primitives : this.#others;
    const key = primitive ? value : groupKey(value);
    let index = map.get(key);
    if (index === undefined) {
      index = this.#values.push(value) - 1;
      map.set(key, index);
    } else if (index !== this.#current) this.#scattered = true;
    this.#current = index;
    return index;
  }

  #grow(): void {
    const rows = new Int32Array(this.#rows.length * 2);
    rows.set(this.#rows);
    this.#rows = rows;
  }
}

/** A group value as the spool file gives it back (e.g. a NaN becomes null). */
function spooledValue(value: CellValue): CellValue {
  return decodeRow(encodeRow({ value })).value ?? null;
}

// ---------------------------------------------------------------------------------------------
// External sort by group rank (stable)

/**
 * The positions of `ranks` in stable rank order. Rank and position are packed into one number
 * and sorted natively when that is exact; otherwise a comparison sort with the same result.
 */
function stableOrder(ranks: Int32Array): ArrayLike<number> {
  const n = ranks.length;
  let max = 0;
  for (let i = 0; i < n; i++) if (ranks[i] > max) max = ranks[i];
  if ((max + 1) * n > Number.MAX_SAFE_INTEGER) {
    return Array.from(ranks.keys()).sort((a, b) => ranks[a] - ranks[b] || a - b);
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = ranks[i] * n + i;
  keys.sort();
  for (let i = 0; i < n; i++) keys[i] %= n;
  return keys;
}

/**
 * Writes one sorted run of `lines` (rows `start`… of the spool, ranked by `ranks`) to a new
 * temp file, recorded in `runs` before it is written so it is removed on error. Afterwards
 * `ranks` holds the run's ranks in run order, for the merge.
 */
async function writeRun(
  lines: readonly string[],
  ranks: Int32Array,
  start: number,
  runs: string[],
  options: SpoolOptions & { prefix: string },
): Promise<void> {
  const own = ranks.subarray(start, start + lines.length);
  const order = stableOrder(own);
  const run = await Deno.makeTempFile({ dir: options.dir, prefix: options.prefix, suffix: ".run" });
  runs.push(run);
  const writer = await TextFileWriter.open(run);
  try {
    const out = new LineBatch(writer);
    for (let i = 0; i < order.length; i++) await out.push(lines[order[i]]);
    await out.flush();
    await writer.close();
  } catch (error) {
    writer.discard();
    throw error;
  }
  const sorted = Int32Array.from(order, (i) => own[i]);
  own.set(sorted);
}

/** Splits the spool into sorted runs of at most `runSize` rows, adding their paths to `runs`. */
async function writeRuns(
  path: string,
  ranks: Int32Array,
  runs: string[],
  options: SpoolOptions & { prefix: string },
): Promise<void> {
  const runSize = Math.max(1, options.runSize ?? 20_000);
  let start = 0;
  let batch: string[] = [];
  for await (const lines of readLineChunks(path)) {
    options.signal?.throwIfAborted();
    for (const line of lines) {
      if (batch.push(line) < runSize) continue;
      await writeRun(batch, ranks, start, runs, options);
      start += batch.length;
      batch = [];
    }
  }
  if (batch.length > 0) await writeRun(batch, ranks, start, runs, options);
  if (start + batch.length !== ranks.length) {
    throw new Error(`spool ${path}: ${start + batch.length} lines for ${ranks.length} rows`);
  }
}

/** A run being merged: its lines a read at a time, and where its next row is in `ranks`. */
interface RunCursor {
  readonly path: string;
  readonly chunks: AsyncGenerator<string[]>;
  lines: string[];
  at: number;
  row: number;
  readonly end: number;
}

/** Loads the cursor's next chunk of lines when the current one is used up (and rows remain). */
async function refill(cursor: RunCursor): Promise<void> {
  while (cursor.row < cursor.end && cursor.at >= cursor.lines.length) {
    const next = await cursor.chunks.next();
    if (next.done) throw new Error(`run ${cursor.path} ended early`);
    cursor.lines = next.value;
    cursor.at = 0;
  }
}

/** The cursor whose next row has the lowest rank (the earliest run on ties), if any is left. */
function lowest(cursors: readonly RunCursor[], ranks: Int32Array): RunCursor | undefined {
  let best: RunCursor | undefined;
  for (const cursor of cursors) {
    if (cursor.row >= cursor.end) continue;
    if (!best || ranks[cursor.row] < ranks[best.row]) best = cursor;
  }
  return best;
}

/**
 * Merges the sorted runs into `path`: each time, every row of the lowest rank from the earliest
 * run that has it, which keeps the sort stable.
 */
async function mergeRuns(
  path: string,
  runs: readonly string[],
  ranks: Int32Array,
  options: SpoolOptions,
): Promise<void> {
  const runSize = Math.max(1, options.runSize ?? 20_000);
  const cursors: RunCursor[] = runs.map((run, i) => ({
    path: run,
    chunks: readLineChunks(run),
    lines: [],
    at: 0,
    row: i * runSize,
    end: Math.min((i + 1) * runSize, ranks.length),
  }));
  const writer = await TextFileWriter.open(path);
  try {
    const out = new LineBatch(writer);
    for (const cursor of cursors) await refill(cursor);
    for (let cursor = lowest(cursors, ranks); cursor; cursor = lowest(cursors, ranks)) {
      options.signal?.throwIfAborted();
      const rank = ranks[cursor.row];
      do {
        await out.push(cursor.lines[cursor.at++]);
        cursor.row++;
        if (cursor.at === cursor.lines.length) await refill(cursor);
      } while (cursor.row < cursor.end && ranks[cursor.row] === rank);
    }
    await out.flush();
    await writer.close();
  } catch (error) {
    writer.discard();
    throw error;
  } finally {
    await Promise.all(cursors.map((cursor) => cursor.chunks.return(undefined)));
  }
}

/**
 * Sorts the spool file stably by its rows' group ranks with an external merge sort: sorted runs
 * of `runSize` rows on disk, then a k-way merge (a single run simply replaces the spool). Rows
 * are never parsed. Run files are removed however it ends.
 */
async function sortSpool(
  path: string,
  ranks: Int32Array,
  options: SpoolOptions & { prefix: string },
): Promise<void> {
  const runs: string[] = [];
  try {
    await writeRuns(path, ranks, runs, options);
    if (runs.length === 1) await Deno.rename(runs[0], path); // one run is the whole sort
    else await mergeRuns(path, runs, ranks, options);
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
  const groups = by === undefined ? undefined : new GroupRecorder();
  const codec = new RowCodec();
  const writer = await TextFileWriter.open(path);
  try {
    for await (const row of section.rows) {
      options.signal?.throwIfAborted();
      totals.add(row);
      extents.add(row);
      unfilled.add(row);
      groups?.add(row[by!]);
      await writer.write(`${codec.encode(row)}\n`);
    }
    await writer.close();
    if (groups?.scattered) await sortSpool(path, groups.ranks(), { ...options, prefix });
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
          for await (const line of readLines(path)) yield codec.decode(line);
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
