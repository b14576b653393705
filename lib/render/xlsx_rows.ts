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
import { XmlBytes } from "./xml_bytes.ts";

// deno-lint-ignore no-explicit-any
type Style = any;

/** Where a section's data rows go, one cell at a time. */
export interface RowSink {
  /** Adds a cell to the current row (columns in order, from the first). */
  cell(value: ExcelJS.CellValue, style: Style): void;
  /**
   * Ends the current row (a row of empty cells is numbered but not written, as exceljs does),
   * `height` points high when given (else the sheet's default height).
   */
  endRow(height?: number): void;
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
const FORMULA = 6;

/** Bytes of row XML collected before they are written to the sheet's stream. */
const FLUSH_BYTES = 1 << 16;

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
 * The start tag of a row around its number, height and last column:
 * `<row r="7" ht="30" customHeight="1" spans="1:5" …>`.
 */
const ROW_OPEN = '<row r="';
const ROW_HEIGHT = '" ht="';
const ROW_CUSTOM = '" customHeight="1';
const ROW_SPANS = '" spans="1:';
const ROW_TAIL = '" x14ac:dyDescent="0.25">';

/** A formula cell's value: the formula (without `=`) and its cached number, if any. */
interface FormulaValue {
  readonly formula: string;
  readonly result?: number | null;
}

/** The exceljs value type of a cell value (a formula's: that of its result, for its style). */
function valueType(value: unknown): number {
  return value === null || value === undefined
    ? NULL
    : typeof value === "number"
    ? NUMBER
    : typeof value === "string"
    ? STRING
    : typeof value === "boolean"
    ? BOOLEAN
    : value instanceof Date
    ? DATE
    : FORMULA;
}

/** Decimal digits of a non-negative integer. */
function digitCount(n: number): number {
  let digits = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/**
 * Writes rows as XML to the worksheet's stream, in chunks of about 64 KB. Each row is written as
 * UTF-8 bytes straight into one reused buffer ({@link XmlBytes}): the cells first, then the row's
 * start tag (whose `spans` needs the cell count) into a gap opened in front of them, so a row
 * allocates nothing of its own (a per-row copy of the cells from a second buffer made a view
 * object per row, about 100 bytes of garbage).
 */
class DirectRowSink implements RowSink {
  #sheet: SheetInternals;
  #styles: SheetInternals["_workbook"]["styles"];
  #letters: string[];
  #rowNumber: number;
  #column = 0;
  #hasValue = false;
  /** Where the current row's cells begin in {@link DirectRowSink.#out}. */
  #rowStart = 0;
  #out = new XmlBytes(FLUSH_BYTES + 4_096);

  constructor(sheet: SheetInternals, columns: number) {
    this.#sheet = sheet;
    this.#styles = sheet._workbook.styles;
    this.#letters = Array.from({ length: columns + 1 }, (_, i) => columnLetter(i));
    this.#rowNumber = sheet._rowZero;
  }

  cell(value: ExcelJS.CellValue, style: Style): void {
    const type = valueType(value);
    const result = type === FORMULA ? (value as FormulaValue).result : undefined;
    const id = this.#styles.addStyleModel(style ?? {}, type === FORMULA ? valueType(result) : type);
    const letter = this.#letters[++this.#column];
    if (type === NULL && !id) return;
    const xml = this.#out;
    xml.ascii('<c r="');
    xml.ascii(letter);
    xml.number(this.#rowNumber);
    xml.ascii('"');
    if (id) {
      xml.ascii(' s="');
      xml.number(id);
      xml.ascii('"');
    }
    switch (type) {
      case NULL:
        xml.ascii("/>");
        return;
      case NUMBER:
        xml.ascii("><v>");
        xml.number(value as number);
        break;
      case STRING:
        xml.ascii(' t="str"><v>');
        xml.text(value as string);
        break;
      case BOOLEAN:
        xml.ascii(value ? ' t="b"><v>1' : ' t="b"><v>0');
        break;
      case FORMULA:
        this.#formula(value as FormulaValue);
        return;
      default:
        xml.ascii("><v>");
        xml.number(25569 + (value as Date).getTime() / 86_400_000);
    }
    xml.ascii("</v></c>");
    this.#hasValue = true;
  }

  /** The rest of a formula cell, as exceljs writes it: `<f>` then the cached number's `<v>`. */
  #formula(value: FormulaValue): void {
    const xml = this.#out;
    xml.ascii("><f>");
    xml.text(value.formula);
    xml.ascii("</f>");
    if (typeof value.result === "number") {
      xml.ascii("<v>");
      xml.number(value.result);
      xml.ascii("</v>");
    }
    xml.ascii("</c>");
    this.#hasValue = true;
  }

  endRow(height?: number): void {
    const out = this.#out;
    if (this.#hasValue) {
      const start = this.#rowStart;
      const end = out.length;
      const ht = height ? String(height) : "";
      const head = ROW_OPEN.length + digitCount(this.#rowNumber) + ROW_SPANS.length +
        digitCount(this.#column) + ROW_TAIL.length +
        (ht ? ROW_HEIGHT.length + ht.length + ROW_CUSTOM.length : 0);
      out.insertGap(start, head);
      out.rewind(start);
      out.ascii(ROW_OPEN);
      out.number(this.#rowNumber);
      if (ht) {
        out.ascii(ROW_HEIGHT);
        out.ascii(ht);
        out.ascii(ROW_CUSTOM);
      }
      out.ascii(ROW_SPANS);
      out.number(this.#column);
      out.ascii(ROW_TAIL);
      out.rewind(end + head);
      out.ascii("</row>");
      if (out.length >= FLUSH_BYTES) this.#flush();
    } else {
      out.rewind(this.#rowStart); // a row of empty cells leaves nothing
    }
    this.#rowStart = out.length;
    this.#rowNumber++;
    this.#column = 0;
    this.#hasValue = false;
  }

  finish(): void {
    this.#flush();
    this.#sheet._rowZero = this.#rowNumber;
  }

  #flush(): void {
    if (this.#out.length === 0) return;
    // A copy: the sheet's stream may keep the chunk, and the buffer is reused.
    this.#sheet.stream.write(Buffer.from(this.#out.view()));
    this.#out.clear();
    this.#rowStart = 0;
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

  endRow(height?: number): void {
    const row = this.#sheet.addRow(this.#values);
    for (let i = 0; i < this.#styles.length; i++) row.getCell(i + 1).style = this.#styles[i];
    if (height) row.height = height;
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
