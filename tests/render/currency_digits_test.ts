/**
 * Money prints with its currency's own minor-unit digits (JPY 0, EUR 2, KWD 3) in HTML, PDF and
 * XLSX, while JSON and CSV keep the exact numbers; the printed figures still add up: a JPY price
 * file's ¥21,000 prints as "¥21,000" (was "¥21,000.00"), its costs as printed unit price ×
 * shortfall and its total as the sum of the printed costs.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { currencyDigits, formatCurrency } from "../../lib/render/format.ts";
import { numberFormat } from "../../lib/render/xlsx_formats.ts";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, pdfText, runReportForTest } from "../helpers/run_report.ts";
import { licensePosition } from "../../reports/license_position.ts";

type Row = Record<string, unknown>;

describe("currency digits", () => {
  it("formats each currency with its minor unit and never rounds a finer amount away", () => {
    assert.deepEqual(["EUR", "JPY", "KRW", "KWD", "BHD"].map(currencyDigits), [2, 0, 0, 3, 3]);
    assert.equal(formatCurrency(21000, "JPY"), "¥21,000");
    assert.equal(formatCurrency(1.25, "KWD").replace(/\s/g, " "), "KWD 1.250");
    assert.equal(formatCurrency(1234.5, "EUR"), "€1,234.50");
    assert.equal(formatCurrency(3333.33, "JPY"), "¥3,333.33");
    assert.equal(formatCurrency(10, "EUR", { decimals: 0 }), "€10");
    assert.equal(numberFormat({ type: "currency" }, "JPY"), '"JPY" #,##0;-"JPY" #,##0');
    assert.equal(numberFormat({ type: "currency" }, "KWD"), '"KWD" #,##0.000;-"KWD" #,##0.000');
    assert.equal(numberFormat({ type: "currency" }, "EUR"), '"EUR" #,##0.00;-"EUR" #,##0.00');
  });

  it("license-position with a JPY price file prints yen without decimals and adds up", async () => {
    try {
      await withServer({ computers: 40 }, async (srv) => {
        const first = await runReportForTest({ server: srv, report: licensePosition });
        const unpriced: Row[] = first.json.sections.find((s: Row) => s.id === "unpriced").rows;
        assert.ok(unpriced.length >= 2, "the estate has unpriced shortfalls");
        const path = await Deno.makeTempFile({ suffix: ".csv" });
        await Deno.writeTextFile(
          path,
          "application,metric,currency,unitPrice\n" +
            unpriced.map((r) => `"${r.application}",${r.metric},JPY,21000\n`).join(""),
        );
        const run = await runReportForTest({
          server: srv,
          report: licensePosition,
          params: { priceFile: path },
          formats: ["json", "html", "xlsx", "pdf"],
        });
        const positions: Row[] = run.json.sections.find((s: Row) => s.id === "positions").rows;
        const yen = positions.filter((r) => r.currency === "JPY");
        assert.equal(yen.length, unpriced.length);
        let total = 0;
        for (const r of yen) {
          // JSON keeps exact numbers; the cost is the printed unit price × shortfall.
          assert.equal(r.unitPrice, 21000);
          assert.equal(r.shortfallCost, 21000 * (r.shortfall as number));
          total += r.shortfallCost as number;
        }
        const html = await Deno.readTextFile(run.file("html"));
        const pdf = await pdfText(run.file("pdf"));
        for (const text of [html, pdf]) {
          assert.ok(text.includes("¥21,000"), "unit price printed");
          assert.doesNotMatch(text, /¥[\d,]+\.\d/, "a yen amount printed with decimals");
          assert.ok(text.includes(formatCurrency(total, "JPY")), `total ${total} printed`);
        }
        const { default: ExcelJS } = await import("exceljs");
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(run.file("xlsx"));
        let cells = 0;
        book.eachSheet((sheet) =>
          sheet.eachRow((row) =>
            row.eachCell((cell) => {
              const fmt = String(cell.numFmt ?? "");
              if (!fmt.includes('"JPY"')) return;
              cells++;
              assert.doesNotMatch(fmt, /0\.0/, `${sheet.name}!${cell.address} ${fmt}`);
            })
          )
        );
        assert.ok(cells >= yen.length * 2, `${cells} JPY cells`);
        await Deno.remove(path);
      });
    } finally {
      await closeTestBrowser();
    }
  });
});
