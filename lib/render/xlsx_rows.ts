/**
 * Data rows of a streamed worksheet written as SpreadsheetML straight to the sheet's stream,
 * byte for byte what exceljs' `Row.commit()` writes for the same values and style objects, without
 * its per-row `Row` and per-cell `Cell`, address and style-merge objects (which cost more CPU than
 * the XML itself). Style ids still come from the workbook's own style registry, so the styles part
 * is the same. When the worksheet writer does not look as expected (another exceljs version),
 * {@link sheetRowSink} falls back to exceljs' own rows.
 *
 * @module
 */

import type ExcelJS from "exceljs";
import { Buffer } from "node:buffer";

// deno-lint-ignore no-explicit-any
type Style = any;

/** Where a section's data rows go, one cell at a time. */
export interface RowSink {
  /** Adds a cell to the current row (columns in order, from the first). */
  cell(value: ExcelJS.CellValue, style: Style): void;
  /** Ends the current row (a row of empty cells is numbered but not written, as exceljs does). */
  endRow(): void;
  /** Writes what is buffered; the sheet's `addRow` numbers its next row after these rows. */
  finish(): void;
}

/** exceljs' streamed worksheet internals the direct writer relies on. */
interface SheetInternals {
  startedData: boolean;
  _rowZero: number;
  _rows: unknown[];
  stream: { write(chunk: string | Buffer): unknown };
  _workbook: { styles: { addStyleModel(style: Style, type: number): number } };
}

/** exceljs' `ValueType` numbers of the values the renderer writes. */
const NULL = 0;
const NUMBER = 2;
const STRING = 3;
const DATE = 4;
const BOOLEAN = 9;

/** Bytes of row XML collected before they are written to the sheet's stream. */
const FLUSH_BYTES = 1 << 16;
const encoder = new TextEncoder();
// deno-lint-ignore no-control-regex
const XML_ESCAPE = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
// deno-lint-ignore no-control-regex
const XML_ESCAPE_ALL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  "'": "&apos;",
  '"': "&quot;",
};

/** Text escaped as exceljs escapes it (entities; control characters and DEL dropped). */
function xmlText(text: string): string {
  return XML_ESCAPE.test(text) ? text.replace(XML_ESCAPE_ALL, (c) => ENTITIES[c] ?? "") : text;
}

/**
 * A number as JavaScript writes it (`String(n)`). Finite numbers go through `JSON.stringify`,
 * which gives the same text without V8's number-to-string cache: a string of a fractional number
 * made by a template or `String` is kept by that old-generation cache long enough to be promoted,
 * so a million rows of amounts and dates filled the old generation with dead strings and peak RSS
 * grew with the row count.
 */
function numberText(n: number): string {
  return Number.isFinite(n) ? JSON.stringify(n) : String(n);
}

/** The column letter of a 1-based index (1 → A, 27 → AA). */
function columnLetter(index: number): string {
  let s = "";
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
}

function isDirectWritable(sheet: unknown): sheet is SheetInternals {
  const s = sheet as Partial<SheetInternals>;
  return s.startedData === true && typeof s._rowZero === "number" && Array.isArray(s._rows) &&
    s._rows.length === 0 && typeof s._workbook?.styles?.addStyleModel === "function";
}

/**
 * Writes rows as XML to the worksheet's stream, in chunks of about 64 KB. Each row is encoded as
 * UTF-8 into one reused byte buffer as soon as it ends, so no row's strings outlive it: a buffer of
 * row strings lived across young-generation collections, and what survives them grows the young
 * generation (and so RSS) over a long sheet.
 */
class DirectRowSink implements RowSink {
  #sheet: SheetInternals;
  #styles: SheetInternals["_workbook"]["styles"];
  #letters: string[];
  #rowNumber: number;
  #column = 0;
  #cells = "";
  #hasValue = false;
  #bytes = new Uint8Array(FLUSH_BYTES);
  #used = 0;

  constructor(sheet: SheetInternals, columns: number) {
    this.#sheet = sheet;
    this.#styles = sheet._workbook.styles;
    this.#letters = Array.from({ length: columns + 1 }, (_, i) => columnLetter(i));
    this.#rowNumber = sheet._rowZero;
  }

  cell(value: ExcelJS.CellValue, style: Style): void {
    const type = value === null || value === undefined
      ? NULL
      : typeof value === "number"
      ? NUMBER
      : typeof value === "string"
      ? STRING
      : typeof value === "boolean"
      ? BOOLEAN
      : DATE;
    const id = this.#styles.addStyleModel(style ?? {}, type);
    const ref = `<c r="${this.#letters[++this.#column]}${this.#rowNumber}"${
      id ? ` s="${id}"` : ""
    }`;
    switch (type) {
      case NULL:
        if (id) this.#cells += ref + "/>";
        return;
      case NUMBER:
        this.#cells += `${ref}><v>${numberText(value as number)}</v></c>`;
        break;
      case STRING:
        this.#cells += `${ref} t="str"><v>${xmlText(value as string)}</v></c>`;
        break;
      case BOOLEAN:
        this.#cells += `${ref} t="b"><v>${value ? "1" : "0"}</v></c>`;
        break;
      default:
        this.#cells += `${ref}><v>${
          numberText(25569 + (value as Date).getTime() / 86_400_000)
        }</v></c>`;
    }
    this.#hasValue = true;
  }

  endRow(): void {
    if (this.#hasValue) {
      this.#append(
        `<row r="${this.#rowNumber}" spans="1:${this.#column}" ` +
          `x14ac:dyDescent="0.25">${this.#cells}</row>`,
      );
    }
    this.#rowNumber++;
    this.#column = 0;
    this.#cells = "";
    this.#hasValue = false;
  }

  finish(): void {
    this.#flush();
    this.#sheet._rowZero = this.#rowNumber;
  }

  /** Encodes `xml` into the byte buffer, writing the buffer out whenever it is full. */
  #append(xml: string): void {
    let rest = xml;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.#bytes.subarray(this.#used));
      this.#used += written;
      if (read === rest.length) return;
      this.#flush();
      rest = rest.slice(read);
    }
  }

  #flush(): void {
    if (this.#used === 0) return;
    // A copy: the sheet's stream may keep the chunk, and the byte buffer is reused.
    this.#sheet.stream.write(Buffer.from(this.#bytes.slice(0, this.#used).buffer));
    this.#used = 0;
  }
}

/** Adds rows through exceljs' `Row` and `Cell` objects (slower; any exceljs version). */
class ExcelRowSink implements RowSink {
  #sheet: ExcelJS.Worksheet;
  #values: ExcelJS.CellValue[] = [];
  #styles: Style[] = [];

  constructor(sheet: ExcelJS.Worksheet) {
    this.#sheet = sheet;
  }

  cell(value: ExcelJS.CellValue, style: Style): void {
    this.#values.push(value);
    this.#styles.push(style);
  }

  endRow(): void {
    const row = this.#sheet.addRow(this.#values);
    for (let i = 0; i < this.#styles.length; i++) row.getCell(i + 1).style = this.#styles[i];
    row.commit();
    this.#values = [];
    this.#styles = [];
  }

  finish(): void {}
}

/**
 * The row sink of a streamed worksheet whose header row is committed: the direct XML writer when
 * the sheet's internals are as expected and `direct` is not false, else exceljs' own rows.
 *
 * @example
 * ```ts
 * import ExcelJS from "exceljs";
 * import { sheetRowSink } from "./xlsx_rows.ts";
 * const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
 *   filename: "/tmp/rows.xlsx",
 *   useStyles: true,
 * });
 * const sheet = workbook.addWorksheet("Rows");
 * sheet.addRow(["N"]).commit();
 * const sink = sheetRowSink(sheet, 1);
 * sink.cell(42, { numFmt: "#,##0" });
 * sink.endRow();
 * sink.finish();
 * sheet.commit();
 * await workbook.commit();
 * ```
 */
export function sheetRowSink(sheet: ExcelJS.Worksheet, columns: number, direct = true): RowSink {
  return direct && isDirectWritable(sheet)
    ? new DirectRowSink(sheet, columns)
    : new ExcelRowSink(sheet);
}

/** The writable state of the zip entry a sheet's stream is piped into (archiver's PassThrough). */
interface ZipEntryInput {
  _writableState?: { length: number; needDrain: boolean };
  once(event: string, listener: () => void): unknown;
  removeListener(event: string, listener: () => void): unknown;
}

/** How long a wait for the zip entry's `drain` may last before rows are produced again anyway. */
const DRAIN_WAIT_MS = 1_000;
/**
 * Bytes the zip entry may hold before the producer waits. The deflater normally takes a batch of
 * rows in the event-loop turn after it (about 250 KB queue then); waiting on every batch slowed
 * rendering and, by changing when collections ran, raised the heap rather than lowering it.
 */
const BACKLOG_LIMIT = 1 << 20;

/**
 * A promise that settles when the zip entry a streamed worksheet writes into has taken in what it
 * holds (its `drain`, or an error, or at most a second), or `undefined` when it holds less than
 * `limit` bytes (default 1 MB).
 * exceljs' sheet stream hands its chunks on without heeding the entry's back-pressure, so a
 * producer that does not wait here leaves XML queued in front of the deflater for as long as it
 * keeps producing.
 *
 * @example
 * ```ts
 * import ExcelJS from "exceljs";
 * import { zipEntryBacklog } from "./xlsx_rows.ts";
 * const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: "/tmp/backlog.xlsx" });
 * const sheet = workbook.addWorksheet("Rows");
 * for (let i = 0; i < 5_000; i++) {
 *   sheet.addRow([i, `row ${i}`]).commit();
 *   if (i % 1_000 === 0) await zipEntryBacklog(sheet, 0);
 * }
 * sheet.commit();
 * await workbook.commit();
 * ```
 */
export function zipEntryBacklog(
  sheet: ExcelJS.Worksheet,
  limit = BACKLOG_LIMIT,
): Promise<void> | undefined {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown } }).stream?.pipes;
  const entry = (Array.isArray(pipes) ? pipes[0] : undefined) as ZipEntryInput | undefined;
  const state = entry?._writableState;
  if (!entry || !state?.needDrain || state.length <= limit) return undefined;
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of ["drain", "error", "close"]) entry.removeListener(event, done);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_WAIT_MS);
    for (const event of ["drain", "error", "close"]) entry.once(event, done);
  });
}
