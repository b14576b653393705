/**
 * Printed workbook pages as a reader meets them, found by auditing the built-in reports: a data
 * sheet printed from a demo run says "demo data" in its page header as the PDF's pages do, and
 * every printed sheet names the scope (the organisation, the filter) the rows are of, as the PDF's
 * footer does. Read from the sheets' own header and footer XML (what Excel and LibreOffice print).
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { demoSourceText } from "../../lib/report/demo_source.ts";
import { readZipText } from "./xlsx_zip.ts";

let dir: string;
before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-visual-audit-xlsx-" });
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

/** A demo run of one organisation, filtered, with two sections. */
function scopedDemo(): RenderDocument {
  const columns = [
    { key: "name", label: "Computer", type: "text" as const },
    { key: "n", label: "Installations", type: "integer" as const },
  ];
  return {
    report: { id: "scoped", title: "Scoped report", description: "Rows of one organisation." },
    generatedAt: new Date("2026-05-01T08:00:00Z"),
    source: demoSourceText({ computers: 12, seed: 1, asOf: new Date("2026-05-01") }),
    params: { organization: "ORG05" },
    scope: {
      parameters: [{
        name: "organization",
        description: "Organisation id",
        value: "ORG05",
        origin: "given",
        label: "Contoso EMEA",
      }],
      filter: "status -eq Active",
    },
    summary: [{ label: "Rows", value: 2, type: "integer" }],
    sections: [
      memorySection({
        id: "a",
        title: "Computers",
        columns,
        rows: [{ name: "PC-1", n: 3 }, { name: "PC-2", n: 4 }],
      }),
      memorySection({ id: "b", title: "Other", columns, rows: [{ name: "PC-3", n: 1 }] }),
    ],
    version: "test",
  };
}

/** Each worksheet's page header and footer as the sheet XML states them, by part name. */
async function headersAndFooters(path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, xml] of await readZipText(path)) {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) continue;
    const parts = [...xml.matchAll(/<(oddHeader|oddFooter)>([^<]*)<\/\1>/g)].map((m) => m[2]);
    out.set(name, parts.join(" | ").replaceAll("&amp;", "&"));
  }
  return out;
}

describe("XLSX pages found wrong by the visual audit", () => {
  it("says demo data and the scope on every printed sheet of a scoped demo run", async () => {
    const outDir = await Deno.makeTempDir({ dir });
    const [path] = await new XlsxRenderer().render(scopedDemo(), { outDir });
    const sheets = await headersAndFooters(path);
    assert.equal(sheets.size, 3, "the Summary and two data sheets");
    for (const [name, text] of sheets) {
      assert.match(text, /Scoped report \(demo data\)/, `${name}: ${text}`);
      assert.match(text, /Organisation: Contoso EMEA \(ORG05\)/, `${name}: ${text}`);
      assert.match(text, /Filter: status -eq Active/, `${name}: ${text}`);
    }
  });
});
