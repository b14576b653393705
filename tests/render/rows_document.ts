/**
 * Test helper: a report document of one section of `rows` numbered rows (1, 2, …), the smallest
 * document a print can be measured on.
 *
 * @module
 */

import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";

/**
 * A document with one section, "Rows", of `rows` rows numbered from 1.
 *
 * @example Usage
 * ```ts ignore
 * import { rowsDocument } from "./rows_document.ts";
 * const doc = rowsDocument(300, { id: "long", title: "Long" });
 * ```
 */
export function rowsDocument(
  rows: number,
  { id = "rows", title = "Rows to print" }: { id?: string; title?: string } = {},
): RenderDocument {
  return {
    report: { id, title, description: "Rows to print." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: {},
    summary: [],
    sections: [memorySection({
      id: "rows",
      title: "Rows",
      columns: [{ key: "n", label: "N", type: "integer" }],
      rows: Array.from({ length: rows }, (_, i) => ({ n: i + 1 })),
    })],
    version: "0.1.0",
  };
}
