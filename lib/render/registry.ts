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
export function createRenderers(): Record<Format, Renderer> {
  return {
    html: new HtmlRenderer(),
    pdf: new PdfRenderer(),
    xlsx: new XlsxRenderer(),
    csv: new CsvRenderer(),
    json: new JsonRenderer(),
  };
}
