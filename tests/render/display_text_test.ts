/**
 * Display text from data: bidi overrides and other controls in an organisation name or a currency
 * code reach no page, sheet tab, title, fact label or chart as themselves (they show as visible
 * escapes, `<U+202E>`, as table cells already did); and no currency code, however long, ends up
 * in an XLSX formula past Excel's limits (255 characters of text in a formula, 8,192 in all).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { PDFDict, PDFDocument, PDFName, type PDFRef } from "pdf-lib";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { endOfLifeSoftware, licenseCostSummary } from "../../reports/mod.ts";
import { cleanSheetText, sheetName } from "../../lib/render/xlsx_sheet_names.ts";
import { escapeXml } from "../../lib/render/charts/svg.ts";
import { totalsFormula } from "../../lib/render/xlsx_totals.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";

/** Every bidi and control character `visibleText` shows as an escape. */
const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** An organisation name that would display reversed, with a bell in it. */
const ORG_NAME = "Sales \u202Eexe.txt\u0007";
/** A currency code with a right-to-left override (three letters and a control). */
const BIDI_CODE = "\u202EUSD";

describe("display text built from data, unit by unit", () => {
  it("escapes controls in sheet names, as in cells", () => {
    assert.equal(cleanSheetText("Spend (\u202EEUR)"), "Spend (<U+202E>EUR)");
    const name = sheetName(`Exposure by publisher (${BIDI_CODE})`, new Set());
    assert.doesNotMatch(name, HIDDEN);
    assert.ok(name.length <= 31, name);
  });

  it("escapes controls in chart text", () => {
    assert.equal(escapeXml("a\u202Eb<c"), "a&lt;U+202E&gt;b&lt;c");
  });

  it("escapes controls in section titles, descriptions, fact labels and totals labels in HTML", async () => {
    const doc: RenderDocument = {
      report: { id: "names", title: "Names", description: "Names from the API." },
      generatedAt: new Date("2024-05-01T08:00:00Z"),
      source: "test \u202Esource",
      params: { organization: ORG_NAME },
      summary: [{ label: `Positions of ${ORG_NAME}`, value: 3, type: "integer" }],
      sections: [memorySection({
        id: "apps",
        title: `Applications (organization ${ORG_NAME})`,
        description: `Installed in ${ORG_NAME}.`,
        columns: [
          { key: "name", label: "Application", type: "text" },
          { key: "cost", label: "Cost", type: "currency" },
          { key: "currency", label: "Currency", type: "text" },
        ],
        rows: [{ name: "A", cost: 5, currency: BIDI_CODE }, {
          name: "B",
          cost: 7,
          currency: "EUR",
        }],
        totals: { sum: ["cost"], perCurrency: "currency" },
        group: { by: "currency" },
        chart: { type: "bar", title: `Cost in ${ORG_NAME}`, label: "name", value: "cost" },
      })],
      version: "test",
    };
    const html = await renderHtmlString(doc);
    assert.doesNotMatch(html, HIDDEN);
    assert.ok(html.includes("Sales &lt;U+202E&gt;exe.txt&lt;U+0007&gt;"), "escaped name shown");
  });

  it("writes no currency longer than 255 characters into a formula", () => {
    const blocks = [{ sheet: "Costs", firstRow: 2, lastRow: 4 }];
    const at = (line: string) =>
      totalsFormula({ blocks, ownSheet: "Costs", column: "D", currency: { column: "M", line } });
    assert.match(at("Y".repeat(255))!, /"Y{255}"/);
    assert.equal(at("Y".repeat(256)), undefined);
    assert.equal(at('"'.repeat(128)), undefined, "quotes count doubled");
  });
});

/** Every string of a workbook: sheet names, cell texts, formulas. */
async function workbookText(path: string): Promise<{ texts: string[]; formulas: string[] }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const texts: string[] = [];
  const formulas: string[] = [];
  wb.eachSheet((ws) => {
    texts.push(ws.name);
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        const v = cell.value as unknown;
        if (typeof v === "string") texts.push(v);
        else if (v && typeof v === "object" && "formula" in v) formulas.push(String(v.formula));
        else if (v && typeof v === "object" && "richText" in v) {
          texts.push((v as { richText: { text: string }[] }).richText.map((r) => r.text).join(""));
        }
      })
    );
    const header = ws.headerFooter;
    texts.push(header?.oddHeader ?? "", header?.oddFooter ?? "");
  });
  return { texts, formulas };
}

/** The titles of a PDF's top-level bookmarks. */
async function bookmarkTitles(path: string): Promise<string[]> {
  const doc = await PDFDocument.load(await Deno.readFile(path));
  const root = doc.catalog.lookup(PDFName.of("Outlines"), PDFDict);
  const titles: string[] = [];
  let ref = root.get(PDFName.of("First")) as PDFRef | undefined;
  while (ref) {
    const item = doc.context.lookup(ref, PDFDict);
    titles.push(
      (item.lookup(PDFName.of("Title")) as unknown as { decodeText(): string }).decodeText(),
    );
    ref = item.get(PDFName.of("Next")) as PDFRef | undefined;
  }
  return titles;
}

describe("reports over an estate whose names carry controls", () => {
  after(closeTestBrowser);

  it("end-of-life-software: an organisation name with a bidi override is escaped in titles and sheets", async () => {
    await withServer({ computers: 40 }, async (server) => {
      server.store.update("organization_nodes", { id: "ORG01" }, { name: ORG_NAME });
      const run = await runReportForTest({
        server,
        report: endOfLifeSoftware,
        params: { organization: "ORG01" },
        formats: ["json", "html", "xlsx", "pdf"],
      });
      const titles = run.json.sections.map((s: { title: string }) => s.title).join(" | ");
      assert.ok(titles.includes(ORG_NAME), `the title names the organisation: ${titles}`);
      const html = await Deno.readTextFile(run.file("html"));
      assert.doesNotMatch(html, HIDDEN);
      assert.ok(html.includes("Sales &lt;U+202E&gt;exe.txt&lt;U+0007&gt;"));
      const { texts } = await workbookText(run.file("xlsx"));
      for (const text of texts) assert.doesNotMatch(text, HIDDEN, JSON.stringify(text));
      assert.ok(texts.some((t) => t.includes("Sales <U+202E>exe.txt<U+0007>")));
      const bookmarks = await bookmarkTitles(run.file("pdf"));
      for (const title of bookmarks) assert.doesNotMatch(title, HIDDEN, JSON.stringify(title));
      assert.ok(bookmarks.some((t) => t.includes("Sales <U+202E>exe.txt<U+0007>")), `${bookmarks}`);
    });
  });

  it("license-cost-summary: bidi and 300-character currency codes stay out of tabs, titles and formulas", async () => {
    await withServer({ computers: 40 }, async (server) => {
      const long = "Y".repeat(300);
      const licenses = server.store.query({ resource: "License", limit: 10_000 }).rows;
      licenses.forEach((license, i) => {
        if (i % 3 === 2) return;
        const code = i % 3 === 0 ? BIDI_CODE : long;
        const where = { licenseId: license.id as string };
        server.store.update("licenses", { id: license.id as string }, { purchaseCurrency: code });
        server.store.update("license_costs", where, { currency: code });
        server.store.update("license_cost_summaries", where, { currency: code });
      });
      const run = await runReportForTest({
        server,
        report: licenseCostSummary,
        formats: ["json", "html", "xlsx"],
      });
      const html = await Deno.readTextFile(run.file("html"));
      assert.doesNotMatch(html, HIDDEN);
      const { texts, formulas } = await workbookText(run.file("xlsx"));
      for (const text of texts) assert.doesNotMatch(text, HIDDEN, JSON.stringify(text));
      assert.ok(texts.some((t) => t.includes("<U+202E>USD")), "the code shows escaped");
      assert.ok(formulas.length > 0);
      for (const formula of formulas) {
        assert.ok(formula.length <= 8192, `formula of ${formula.length} characters`);
        for (const literal of formula.match(/"(?:[^"]|"")*"/g) ?? []) {
          assert.ok(literal.length - 2 <= 255, `a text of ${literal.length - 2} characters`);
        }
        assert.doesNotMatch(formula, HIDDEN);
      }
      assert.ok(formulas.some((f) => f.includes('"<U+202E>USD"')), "selects the cells as shown");
    });
  });
});
