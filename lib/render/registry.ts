/**
 * One renderer per format, behind the one {@link Renderer} interface.
 *
 * @module
 */

import type { Format, Renderer } from "./renderer.ts";
import { HtmlRenderer } from "./html.ts";
import { CsvRenderer } from "./csv.ts";
import { JsonRenderer } from "./json.ts";
import { XlsxRenderer } from "./xlsx.ts";
import { PdfRenderer } from "./pdf.ts";
import { DEFAULT_PDF_DETAIL_ROWS } from "./pdf_detail.ts";

/** Options of {@link createRenderers}. */
export interface CreateRenderersOptions {
  /**
   * The most rows a PDF prints of one section (default {@link DEFAULT_PDF_DETAIL_ROWS}; 0: every
   * row). XLSX, CSV, JSON and HTML always keep every row.
   */
  readonly pdfDetailRows?: number;
}

/**
 * A renderer for every format, ready for `runReport`.
 *
 * @example
 * ```ts
 * import { createRenderers } from "./registry.ts";
 * const renderers = createRenderers();
 * console.log(Object.keys(renderers)); // ["html", "pdf", "xlsx", "csv", "json"]
 * ```
 */
export function createRenderers(options: CreateRenderersOptions = {}): Record<Format, Renderer> {
  const detailRows = options.pdfDetailRows ?? DEFAULT_PDF_DETAIL_ROWS;
  return {
    html: new HtmlRenderer(),
    pdf: new PdfRenderer({ detailRows: detailRows > 0 ? detailRows : Infinity }),
    xlsx: new XlsxRenderer(),
    csv: new CsvRenderer(),
    json: new JsonRenderer(),
  };
}
