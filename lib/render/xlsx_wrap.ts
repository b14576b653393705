/**
 * How many lines a wrapped XLSX cell takes, and how high its row must be to show them. A streamed
 * sheet states each row's height as it writes the row, and a spreadsheet that opens it does not
 * grow a row for its wrapped text by itself (LibreOffice keeps the default height, and the next row
 * is printed over the text): a row holding wrapped text gets the height of its lines.
 *
 * Lines are counted as a spreadsheet breaks them: at spaces (a word longer than a line is broken
 * inside it), a line holding at most the column's width less its padding in characters (widths
 * are in widths of "0", wider than most letters, so the count errs towards a line too many).
 *
 * @module
 */

/**
 * Points per line of the workbook's 11-point text (Excel's default row height).
 *
 * @example
 * ```ts
 * import { LINE_HEIGHT } from "./xlsx_wrap.ts";
 * console.log(LINE_HEIGHT); // 15
 * ```
 */
export const LINE_HEIGHT = 15;

/** Excel's tallest row, in points. */
const MAX_ROW_HEIGHT = 409;

/** Characters of a column's width that are its padding, not text (as `widthOf` adds them). */
const PADDING = 2;

/**
 * The lines `text` takes in a wrapping cell `width` characters wide.
 *
 * @example
 * ```ts
 * import { wrappedLines } from "./xlsx_wrap.ts";
 * console.log(wrappedLines("Microsoft Office Professional Plus 2021", 22)); // 3
 * console.log(wrappedLines("one\ntwo", 40)); // 2
 * console.log(wrappedLines("", 10)); // 1
 * ```
 */
export function wrappedLines(text: string, width: number): number {
  const room = Math.max(1, Math.floor(width - PADDING));
  let lines = 0;
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let used = 0;
    let paragraphLines = 1;
    for (const word of paragraph.split(" ")) {
      const length = word.length;
      if (used > 0 && used + 1 + length <= room) {
        used += 1 + length;
        continue;
      }
      if (used > 0) paragraphLines++;
      // A word longer than a line fills whole lines and leaves the rest on the last one.
      paragraphLines += Math.max(0, Math.ceil(length / room) - 1);
      used = length % room === 0 && length > 0 ? room : length % room;
    }
    lines += paragraphLines;
  }
  return Math.max(1, lines);
}

/**
 * The height (points) of a row whose tallest cell takes `lines` lines of `lineHeight`-point text,
 * at most Excel's 409; `undefined` for one line (the sheet's default height fits it).
 *
 * @example
 * ```ts
 * import { rowHeight } from "./xlsx_wrap.ts";
 * console.log(rowHeight(1), rowHeight(3), rowHeight(100)); // undefined 45 409
 * ```
 */
export function rowHeight(lines: number, lineHeight = LINE_HEIGHT): number | undefined {
  if (lines <= 1) return undefined;
  return Math.min(MAX_ROW_HEIGHT, lines * lineHeight);
}
