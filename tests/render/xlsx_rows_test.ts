/**
 * The direct row writer against exceljs' own rows, byte for byte: the sheet XML of a section long
 * enough to cross many 64 KB chunks, with multi-byte text (so characters meet chunk edges),
 * fractional amounts, dates, booleans and empties, rows made higher by wrapped text and formula
 * cells, must be the same whichever writer wrote it.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { zipEntryBacklog } from "../../lib/render/xlsx_rows.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import type { Column, Row } from "../../lib/report/model.ts";

const COLUMNS: Column[] = [
  { key: "name", label: "Name", type: "text" },
  { key: "cost", label: "Cost", type: "currency" },
  { key: "share", label: "Share", type: "percent" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "due", label: "Due", type: "datetime" },
  { key: "ok", label: "OK", type: "boolean" },
  { key: "note", label: "Note", type: "text" },
  { key: "double", label: "Double", type: "number", formula: 'IF(seats = "", "", seats * 2)' },
];

const TEXTS = [
  "Zoë's <PC> & “café”",
  "日本語のコンピューター",
  "emoji 🖥️ ✓",
  "tab\tline\ncr\r ctl\u0001\u001f del\u007f lone \ud800 \udc00 end\ud83d",
  "",
];

function rowAt(i: number): Row {
  return {
    name: `${TEXTS[i % TEXTS.length]} ${i}`,
    cost: i % 11 === 0 ? null : Math.round(i * 137.31) / 100 - 50,
    currency: ["EUR", "USD", "JPY"][i % 3],
    share: (i % 1000) / 997,
    seats: i % 13 === 0 ? null : [(i * 7) % 500, -i, 2 ** 53 + i * 2, -0, 1e21 * i][i % 5],
    due: new Date(Date.UTC(2024, 0, 1) + i * 61_013),
    ok: i % 5 === 0 ? null : i % 2 === 0,
    note: i % 7 === 0 ? `${"a long note & <more> ".repeat(1 + (i % 9))}${i}` : null,
    double: i % 13 === 0 ? null : 2 * [(i * 7) % 500, -i, 2 ** 53 + i * 2, -0, 1e21 * i][i % 5],
  };
}

function docOf(count: number): RenderDocument {
  const section: RenderSection = {
    id: "rows",
    title: "Rows",
    columns: COLUMNS,
    rowCount: count,
    totals: {},
    rows: async function* () {
      for (let i = 0; i < count; i++) yield rowAt(i);
    },
  };
  return {
    report: { id: "rows", title: "Rows", description: "" },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: {},
    summary: [],
    sections: [section],
    version: "test",
  };
}

async function sheetXml(path: string, sheet: string): Promise<string> {
  const out = await new Deno.Command("unzip", { args: ["-p", path, sheet], stdout: "piped" })
    .output();
  assert.ok(out.success, `unzip ${sheet}`);
  return new TextDecoder().decode(out.stdout);
}

describe("direct row writer", () => {
  it("writes the same sheet XML as exceljs across many chunks of multi-byte text", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const xml: string[] = [];
      for (const rowWriter of ["direct", "exceljs"] as const) {
        const outDir = `${dir}/${rowWriter}`;
        await Deno.mkdir(outDir);
        const [path] = await new XlsxRenderer({ rowWriter }).render(docOf(3_000), { outDir });
        xml.push(await sheetXml(path, "xl/worksheets/sheet2.xml"));
      }
      assert.ok(new TextEncoder().encode(xml[0]).length > 4 * 65_536, "crosses several chunks");
      assert.match(xml[0], /日本語のコンピューター 2996/);
      assert.match(xml[0], /lone \uFFFD \uFFFD end\uFFFD/);
      assert.match(
        xml[0],
        /<row r="\d+" ht="\d+" customHeight="1" spans=/,
        "wrapped rows' heights",
      );
      assert.match(
        xml[0],
        /<f>IF\(D\d+=&quot;&quot;,&quot;&quot;,D\d+\*2\)<\/f><v>-?\d/,
        "a formula and its number",
      );
      assert.doesNotMatch(xml[0], /t="str"><f>/, "a row without a value has no formula");
      assert.equal(xml[0], xml[1]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("waits for the zip entry to take in what is queued, and not when below the limit", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: `${dir}/b.xlsx` });
      const sheet = workbook.addWorksheet("Rows");
      for (let i = 0; i < 20_000; i++) sheet.addRow([i, `row ${i} ${"x".repeat(40)}`]).commit();
      assert.equal(zipEntryBacklog(sheet, Number.MAX_SAFE_INTEGER), undefined);
      const backlog = zipEntryBacklog(sheet, 0);
      assert.ok(backlog instanceof Promise, "about 1 MB of XML queued in front of the deflater");
      await backlog;
      // deno-lint-ignore no-explicit-any
      const entry = (sheet as any).stream.pipes[0];
      assert.equal(entry._writableState.length, 0);
      sheet.commit();
      await workbook.commit();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
