/**
 * How a theme shows in a workbook: the header row's fill and text colour, the colour of the
 * Summary sheet's headings, and the company in the document properties (`dc:creator` in
 * `docProps/core.xml`, `Company` in `docProps/app.xml`). Without a theme: samkit's colours and
 * `samkit` as the creator, as always.
 *
 * @module
 */

import type { Theme } from "./theme.ts";

/**
 * The colours a workbook uses, as exceljs ARGB (`FF` + `RRGGBB`).
 *
 * @example
 * ```ts
 * import type { XlsxPalette } from "./xlsx_theme.ts";
 * const palette: XlsxPalette = { headerFill: "FF1F3864", headerFont: "FFFFFFFF", accent: "FF1F3864" };
 * console.log(palette.headerFill);
 * ```
 */
export interface XlsxPalette {
  /** The header row's fill. */
  readonly headerFill: string;
  /** The header row's text. */
  readonly headerFont: string;
  /** The Summary sheet's headings and their rule. */
  readonly accent: string;
}

/** samkit's own workbook colours. */
export const DEFAULT_XLSX_PALETTE: XlsxPalette = Object.freeze({
  headerFill: "FF1F3864",
  headerFont: "FFFFFFFF",
  accent: "FF1F3864",
});

/** A checked `#rrggbb` as ARGB. */
function argb(color: string): string {
  return `FF${color.slice(1).toUpperCase()}`;
}

/**
 * A theme's workbook colours: its `header` and `headerText` for the header row, its `accent` (or
 * its `header`) for the Summary's headings; samkit's for what it leaves out.
 *
 * @example
 * ```ts
 * import { xlsxPalette } from "./xlsx_theme.ts";
 * console.log(xlsxPalette({ file: "t.json", colors: { header: "#0b6e4f" } }).headerFill);
 * // FF0B6E4F
 * console.log(xlsxPalette(undefined).headerFill); // FF1F3864
 * ```
 */
export function xlsxPalette(theme: Theme | undefined): XlsxPalette {
  const colors = theme?.colors ?? {};
  const accent = colors.accent ?? colors.header;
  return {
    headerFill: colors.header ? argb(colors.header) : DEFAULT_XLSX_PALETTE.headerFill,
    headerFont: colors.headerText ? argb(colors.headerText) : DEFAULT_XLSX_PALETTE.headerFont,
    accent: accent ? argb(accent) : DEFAULT_XLSX_PALETTE.accent,
  };
}

/** XML text escaped for an element's content. */
function xmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** What {@link setWorkbookCompany} needs of exceljs' streaming workbook (internal members). */
interface AppWriter {
  addApp(): Promise<void>;
  zip: { append(data: unknown, options: { name: string }): unknown };
}

/**
 * Sets the workbook's `Company` property (`docProps/app.xml`), which exceljs' streaming writer
 * always leaves empty: its `app.xml` is written with the company filled in. `company` is one line
 * of text already checked by the theme.
 *
 * @example
 * ```ts
 * import ExcelJS from "exceljs";
 * import { setWorkbookCompany } from "./xlsx_theme.ts";
 * const path = await Deno.makeTempFile({ suffix: ".xlsx" });
 * const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path });
 * setWorkbookCompany(workbook, "Example Ltd");
 * workbook.addWorksheet("Sheet").commit();
 * await workbook.commit();
 * ```
 */
export function setWorkbookCompany(workbook: object, company: string): void {
  const writer = workbook as unknown as AppWriter;
  const addApp = writer.addApp.bind(writer);
  writer.addApp = async () => {
    const zip = writer.zip;
    const append = zip.append;
    zip.append = (data, options) =>
      append.call(
        zip,
        options.name === "docProps/app.xml" && typeof data === "string"
          ? data.replace("<Company></Company>", `<Company>${xmlText(company)}</Company>`)
          : data,
        options,
      );
    try {
      await addApp();
    } finally {
      zip.append = append;
    }
  };
}
