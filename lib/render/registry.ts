/**
 * One renderer per format, behind the one {@link Renderer} interface. HTML, PDF and XLSX are
 * imported on their first render (with Handlebars, Puppeteer, pdf-lib and exceljs), so a run
 * that writes only JSON or CSV loads none of them.
 *
 * @module
 */

import type { Format, Renderer } from "./renderer.ts";
import { CsvRenderer } from "./csv.ts";
import { JsonRenderer } from "./json.ts";
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
    html: onFirstRender("html", async () => new (await import("./html.ts")).HtmlRenderer()),
    pdf: onFirstRender("pdf", async () =>
      new (await import("./pdf.ts")).PdfRenderer({
        detailRows: detailRows > 0 ? detailRows : Infinity,
      })),
    xlsx: onFirstRender("xlsx", async () => new (await import("./xlsx.ts")).XlsxRenderer()),
    csv: new CsvRenderer(),
    json: new JsonRenderer(),
  };
}

/**
 * A renderer that imports its module on its first render and hands every render to it; a
 * failed import is tried again on the next render.
 */
function onFirstRender(format: Format, load: () => Promise<Renderer>): Renderer {
  let loading: Promise<Renderer> | undefined;
  return {
    format,
    async render(doc, options) {
      loading ??= load().catch((error) => {
        loading = undefined;
        throw error;
      });
      return await (await loading).render(doc, options);
    },
  };
}
