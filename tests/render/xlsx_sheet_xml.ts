/**
 * Reads an `.xlsx` file's worksheets straight from their SpreadsheetML (through
 * {@link readZipText}, not exceljs): per sheet name, each cell's formula, cached value, type and
 * style, the rows' heights, the columns' widths, merged ranges, the frozen pane and the autofilter
 * range; and the workbook's cell styles' alignments.
 *
 * @module
 */

import { readZipText } from "./xlsx_zip.ts";

/** One cell as the sheet XML holds it. */
export interface RawCell {
  /** The formula (`<f>`), XML entities resolved. */
  readonly formula?: string;
  /** The cached or literal value (`<v>`), XML entities resolved. */
  readonly value?: string;
  /** The cell type attribute (`t`), e.g. `str`, `b`; absent for numbers. */
  readonly type?: string;
  /** The cell's style index (`s`) into {@link RawWorkbookStyles.alignments}. */
  readonly style: number;
}

/** A cell style's alignment (`<xf><alignment …/>`). */
export interface RawAlignment {
  readonly horizontal?: string;
  readonly vertical?: string;
  readonly wrapText?: boolean;
  /** Indent steps from the aligned edge (`indent`), 0 when none. */
  readonly indent: number;
}

/** A worksheet as the sheet XML holds it. */
export interface RawSheet {
  /** Cells by reference (`D7`). */
  readonly cells: Map<string, RawCell>;
  /** The `<pane>` attributes, when the sheet has one. */
  readonly pane?: Readonly<Record<string, string>>;
  /** The `<autoFilter ref>`, when the sheet has one. */
  readonly autoFilter?: string;
  /** Row number → its height in points, for rows that state one (`ht`). */
  readonly rowHeights: Map<number, number>;
  /** Column number (1-based) → its width in characters (`<col>`). */
  readonly columnWidths: Map<number, number>;
  /** Merged ranges (`A3:D3`). */
  readonly merges: string[];
  /** The workbook's cell style alignments, by style index. */
  readonly alignments: readonly RawAlignment[];
}

/** Resolves the five XML entities and numeric character references. */
function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === "#") {
      return String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    }
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e.toLowerCase()]!;
  });
}

/** The attributes of an XML start tag's text. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:]+)="([^"]*)"/g)) out[m[1]] = unescapeXml(m[2]);
  return out;
}

/** The cells of a sheet's XML. */
function cellsOf(xml: string): Map<string, RawCell> {
  const cells = new Map<string, RawCell>();
  for (const m of xml.matchAll(/<c ([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attrs = attributes(m[1]);
    const body = m[2] ?? "";
    const f = /<f>([\s\S]*?)<\/f>/.exec(body);
    const v = /<v>([\s\S]*?)<\/v>/.exec(body);
    cells.set(attrs.r, {
      formula: f ? unescapeXml(f[1]) : undefined,
      value: v ? unescapeXml(v[1]) : undefined,
      type: attrs.t,
      style: Number(attrs.s ?? 0),
    });
  }
  return cells;
}

/**
 * Every worksheet of an `.xlsx` file, by name, read from the raw XML.
 *
 * @example
 * ```ts ignore
 * import { readSheetXml } from "./xlsx_sheet_xml.ts";
 * const sheets = await readSheetXml("/tmp/report.xlsx");
 * console.log(sheets.get("Summary")?.cells.get("A1")?.value);
 * ```
 */
export async function readSheetXml(path: string): Promise<Map<string, RawSheet>> {
  const parts = await readZipText(path);
  const rels = new Map<string, string>();
  for (
    const m of (parts.get("xl/_rels/workbook.xml.rels") ?? "").matchAll(/<Relationship [^>]*>/g)
  ) {
    const a = attributes(m[0]);
    rels.set(a.Id, a.Target.replace(/^\/?(xl\/)?/, "xl/"));
  }
  const styles = parts.get("xl/styles.xml") ?? "";
  const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? "";
  const alignments = [...xfs.matchAll(/<xf ([^>]*?)(?:\/>|>([\s\S]*?)<\/xf>)/g)].map((m) => {
    const a = /<alignment ([^>]*)\/>/.exec(m[2] ?? "");
    const attrs = a ? attributes(a[1]) : {};
    return {
      horizontal: attrs.horizontal,
      vertical: attrs.vertical,
      wrapText: attrs.wrapText === "1",
      indent: Number(attrs.indent ?? 0),
    };
  });
  const sheets = new Map<string, RawSheet>();
  for (const m of (parts.get("xl/workbook.xml") ?? "").matchAll(/<sheet [^>]*>/g)) {
    const a = attributes(m[0]);
    const xml = parts.get(rels.get(a["r:id"]) ?? "") ?? "";
    const pane = /<pane [^>]*>/.exec(xml);
    const filter = /<autoFilter ref="([^"]*)"/.exec(xml);
    const rowHeights = new Map<number, number>();
    for (const r of xml.matchAll(/<row ([^>]*)>/g)) {
      const attrs = attributes(r[1]);
      if (attrs.ht !== undefined) rowHeights.set(Number(attrs.r), Number(attrs.ht));
    }
    const columnWidths = new Map<number, number>();
    for (const c of xml.matchAll(/<col ([^>]*)\/>/g)) {
      const attrs = attributes(c[1]);
      for (let i = Number(attrs.min); i <= Number(attrs.max); i++) {
        columnWidths.set(i, Number(attrs.width));
      }
    }
    sheets.set(a.name, {
      cells: cellsOf(xml),
      pane: pane ? attributes(pane[0]) : undefined,
      autoFilter: filter?.[1],
      rowHeights,
      columnWidths,
      merges: [...xml.matchAll(/<mergeCell ref="([^"]*)"/g)].map((m) => m[1]),
      alignments,
    });
  }
  return sheets;
}
