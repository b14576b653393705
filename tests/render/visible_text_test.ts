import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { visibleText } from "../../lib/render/format.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import { JsonRenderer } from "../../lib/render/json.ts";
import { CsvRenderer } from "../../lib/render/csv.ts";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";

/** An application name that would display as "Acrobat exe.txt" reversed, with a bell in it. */
const NAME = "Acrobat \u202Etxt.exe\u0007 Pro";
const SHOWN = "Acrobat <U+202E>txt.exe<U+0007> Pro";

let dir: string;
before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-visible-text-" });
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

function doc(): RenderDocument {
  return {
    report: { id: "names", title: "Names", description: "Application names from the API." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "test",
    params: {},
    summary: [],
    sections: [memorySection({
      id: "apps",
      title: "Applications",
      columns: [{ key: "name", label: "Application", type: "text" }],
      rows: [{ name: NAME }, { name: "tab\tand\nnewline" }],
    })],
    version: "test",
  };
}

describe("text from the API", () => {
  it("shows bidi and C0/C1 controls as visible escapes, tab and newline as they are", () => {
    assert.equal(visibleText(NAME), SHOWN);
    assert.equal(
      visibleText("\u200E\u200F\u061C\u202A\u202D\u2066\u2069\u0000\u001F\u007F\u0085\u009F"),
      "<U+200E><U+200F><U+061C><U+202A><U+202D><U+2066><U+2069>" +
        "<U+0000><U+001F><U+007F><U+0085><U+009F>",
    );
    assert.equal(
      visibleText("tab\tand\nnewline, ünïcödé, עברית"),
      "tab\tand\nnewline, ünïcödé, עברית",
    );
  });

  it("reaches HTML (and so PDF) as the visible escape, never the control itself", async () => {
    const html = await renderHtmlString(doc());
    assert.ok(html.includes("Acrobat &lt;U+202E&gt;txt.exe&lt;U+0007&gt; Pro"));
    assert.equal(html.includes("\u202E") || html.includes("\u0007"), false);
  });

  it("reaches XLSX cells as the visible escape", async () => {
    const out = await Deno.makeTempDir({ dir });
    const [path] = await new XlsxRenderer().render(doc(), { outDir: out });
    const wb = await new ExcelJS.Workbook().xlsx.readFile(path);
    assert.equal(wb.getWorksheet("Applications")!.getCell("A2").value, SHOWN);
  });

  it("stays unchanged in JSON and CSV, which are data", async () => {
    const out = await Deno.makeTempDir({ dir });
    const [json] = await new JsonRenderer().render(doc(), { outDir: out });
    const parsed = JSON.parse(await Deno.readTextFile(json));
    assert.equal(parsed.sections[0].rows[0].name, NAME);
    const [csv] = await new CsvRenderer().render(doc(), { outDir: out });
    assert.ok((await Deno.readTextFile(csv)).includes(NAME));
  });
});
