/**
 * The documents an auditor and a CFO sign, at 3,000 computers (seed 7), read from the files
 * themselves: every API report rendered once in every format the checks read (JSON, XLSX, PDF
 * and HTML; the CSV files, which no check here reads, are left to the reports' own tests and
 * the PDF then names the workbook as the full list), license-position again in one
 * organisation's scope (ORG07) and license-cost-summary in a reporting currency (EUR, the rates of
 * `packs/fx_rates.example.csv`). Every currency of a report's data is on its first PDF page and its
 * HTML cover; no PDF header word is broken across lines; every PDF page has a footer with its
 * scope (the organisation by name in ORG07's), more than a heading on it and no command line; the
 * PDF contents give each section the page its bookmark opens; a capped section says which rows it
 * prints without claiming totals or a chart it lacks; no XLSX text is cut by a filled neighbour or
 * pressed against a number, headers sit as their values, yes/no is text; license-position's
 * derived columns are formulas of their row; and every EUR total of license-cost-summary is the
 * sum of its rows, in the JSON and in the workbook's formulas.
 *
 * One server, one PDF browser and one query context (as a pack has) for the file's fourteen
 * runs; each PDF is read to text once. The time the renders take is printed.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { readFxRates } from "../../lib/sam/fx_rates.ts";
import { currencyKeyOf } from "../../lib/render/format.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import type { Format, RenderDocument } from "../../lib/render/renderer.ts";
import { withServer } from "../helpers/server.ts";
import { ROOT } from "../helpers/cli.ts";
import {
  closeTestBrowser,
  runReportForTest,
  type RunReportForTestResult,
} from "../helpers/run_report.ts";
import { brokenHeaderWords, contentsLines, pdfOutline, pdfPages } from "../render/pdf_read.ts";
import { type RawSheet, readSheetXml } from "../render/xlsx_sheet_xml.ts";
import { checkPositionFormulas, unreadableIn } from "../render/xlsx_readable.ts";
import { evaluateTotals } from "../render/xlsx_formula_eval.ts";
import { cents, totalsProblems } from "./support/converted_totals.ts";

const FORMATS: readonly Format[] = ["json", "xlsx", "pdf", "html"];
/** A day the example rates cover (they start in 2026). */
const RATES_DAY = new Date("2026-11-30T12:00:00Z");
const ORGANIZATION = "ORG07";

/** A section of the JSON output. */
interface JsonSection {
  readonly id: string;
  readonly totals?: Record<string, Record<string, unknown>>;
}

/** Each currency code a document's rows hold an amount in. */
function dataCurrencies(doc: RenderDocument, json: { sections: { rows: object[] }[] }): string[] {
  const codes = new Set<string>();
  doc.sections.forEach((section, i) => {
    for (const column of section.columns.filter((c) => c.type === "currency")) {
      const key = currencyKeyOf(column);
      for (const row of json.sections[i].rows as Record<string, unknown>[]) {
        const code = column.currency ?? row[key];
        if (typeof row[column.key] === "number" && typeof code === "string") codes.add(code);
      }
    }
  });
  return [...codes].sort();
}

/** Whether `text` shows an amount in `code`: its symbol ("€", "$") or its code before a digit. */
function showsCurrency(text: string, code: string): boolean {
  const symbol = new Intl.NumberFormat("en-US", { style: "currency", currency: code })
    .formatToParts(1).find((p) => p.type === "currency")!.value;
  const quoted = symbol.replace(/[$]/g, "\\$");
  return new RegExp(`(?:${quoted}|\\b${code}\\s?)-?\\d`).test(text);
}

const pagesRead = new Map<string, Promise<string[]>>();

/** The text pages of a PDF file, read once however many tests look at them. */
function pagesOf(path: string): Promise<string[]> {
  let pages = pagesRead.get(path);
  if (!pages) pagesRead.set(path, pages = pdfPages(path));
  return pages;
}

/** A page's lines with text, the running header and footer left out. */
function bodyLines(page: string, title: string): string[] {
  const lines = page.split("\n").filter((l) => l.trim() !== "");
  return lines.filter((l, i) =>
    !(i === 0 && l.trim().startsWith(title)) && !/Page \d+ of \d+\s*$/.test(l)
  );
}

/** The footer line of a PDF page (its last line with text). */
function footerOf(page: string): string {
  return page.trimEnd().split("\n").at(-1) ?? "";
}

describe("every API report at 3,000 computers, as its files read", () => {
  const runs = new Map<string, RunReportForTestResult>();
  let scoped: RunReportForTestResult;
  let converted: RunReportForTestResult;

  before(async () => {
    const rates = await readFxRates(`${ROOT}packs/fx_rates.example.csv`);
    const started = performance.now();
    await withServer({ computers: 3000, seed: 7 }, async (server) => {
      // The runs share what they read, as the reports of one pack do.
      const query = createQueryContext();
      for (const report of API_REPORTS) {
        runs.set(report.id, await runReportForTest({ server, report, formats: FORMATS, query }));
      }
      scoped = await runReportForTest({
        server,
        report: licensePosition,
        params: { organization: ORGANIZATION },
        formats: ["json", "pdf"],
        query,
      });
      converted = await runReportForTest({
        server,
        report: licenseCostSummary,
        formats: ["json", "xlsx"],
        now: RATES_DAY,
        reportingCurrency: { code: "EUR", rates, source: "fx_rates.example.csv" },
        query,
      });
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${runs.size} reports in ${FORMATS.length} formats and 2 more runs: ${seconds} s`);
  });
  after(closeTestBrowser);

  it("shows every currency of the data on the first PDF page and the HTML cover", async () => {
    let money = 0;
    for (const [id, run] of runs) {
      const codes = dataCurrencies(run.result.document, run.json);
      if (codes.length === 0) continue;
      money++;
      const [first] = await pagesOf(run.file("pdf"));
      const html = await Deno.readTextFile(run.file("html"));
      const cover = html.slice(html.indexOf('<header class="cover">'), html.indexOf("</header>"));
      for (const code of codes) {
        assert.ok(showsCurrency(first, code), `${id}: ${code} on the first PDF page\n${first}`);
        assert.ok(showsCurrency(cover, code), `${id}: ${code} on the HTML cover`);
      }
    }
    assert.ok(money >= 5, `${money} reports with money`);
  });

  it("breaks no PDF header word across lines", async () => {
    for (const [id, run] of runs) {
      const labels = run.result.document.sections.filter((s) => s.rowCount > 0)
        .flatMap((s) => s.columns.map((c) => c.label));
      assert.deepEqual(brokenHeaderWords(await pagesOf(run.file("pdf")), labels), [], id);
    }
  });

  it("prints a footer with the scope on every PDF page, the organisation by name", async () => {
    for (const [id, run] of [...runs, [ORGANIZATION, scoped] as const]) {
      const pages = await pagesOf(run.file("pdf"));
      pages.forEach((page, i) => {
        const footer = footerOf(page);
        assert.match(footer, /Whole estate|Organisation: |Filter: /, `${id} p${i + 1}: scope`);
        assert.match(footer, new RegExp(`Page ${i + 1} of ${pages.length}\\s*$`), id);
      });
    }
    const parameter = scoped.json.scope.parameters
      .find((p: { name: string }) => p.name === "organization");
    const name = String(parameter.label ?? "");
    assert.ok(name.length > 0 && name !== ORGANIZATION, `ORG07 has a name: ${name}`);
    const pages = await pagesOf(scoped.file("pdf"));
    pages.forEach((page, i) => {
      const footer = footerOf(page).replace(/\s+/g, " ");
      assert.ok(footer.includes(`Organisation: ${name}`), `ORG07 p${i + 1}: ${footer}`);
    });
  });

  it("prints more than a heading on every PDF page, contents at their bookmarks, and says which rows a capped section prints", async () => {
    let capped = 0;
    for (const [id, run] of runs) {
      const path = run.file("pdf");
      const pages = await pagesOf(path);
      const doc = run.result.document;
      pages.forEach((text, i) => {
        // A page with a heading has more than the heading (and its row count) on it.
        assert.ok(bodyLines(text, doc.report.title).length > 2, `${id} p${i + 1}: ${text}`);
        assert.doesNotMatch(text, /deno task|--param|--format/, `${id} p${i + 1}: no CLI`);
      });

      const contents = contentsLines(pages);
      const outline = await pdfOutline(path);
      assert.equal(contents.length, doc.sections.length, `${id}: a contents line per section`);
      contents.forEach((line, i) => {
        assert.equal(line.page, outline[i + 1]?.page, `${id}: ${line.title}'s page`);
      });

      const text = pages.join("\n").replace(/\s+/g, " ");
      for (const section of doc.sections.filter((s) => s.rowCount > 500)) {
        const of = section.rowCount.toLocaleString("en-US");
        const note = new RegExp(`This PDF prints 500 of the ${of} rows: ([^.]+)\\.( The [^.]+\\.)?`)
          .exec(text);
        assert.ok(note, `${id}: ${section.title} says which of its ${of} rows it prints`);
        const claims = note[2] ?? "";
        assert.equal(/totals/.test(claims), (section.totalsSpec?.sum.length ?? 0) > 0, claims);
        assert.equal(/chart/.test(claims), section.chart !== undefined, claims);
        capped++;
      }
    }
    assert.ok(capped > 0, "a section longer than the PDF prints");
  });

  it("cuts no XLSX text beside a filled cell, and the position's derived figures are formulas", async () => {
    for (const [id, run] of runs) {
      const sheets = await readSheetXml(run.file("xlsx"));
      assert.deepEqual(unreadableIn(sheets), [], id);
      if (id === licensePosition.id) checkPositionFormulas(sheets, run.json);
    }
  });

  it("gives license-cost-summary EUR totals that are the sums of their rows, in JSON and XLSX", async () => {
    let lines = 0;
    for (const section of converted.json.sections) {
      assert.deepEqual(totalsProblems(section), [], section.id);
      lines += Object.keys(section.totals ?? {}).filter((l) => l.startsWith("all currencies"))
        .length;
    }
    assert.ok(lines >= 4, `${lines} tables with an all-currencies line`);
    // Each section's sheet (after the Summary, in order) has a formula for every EUR total the
    // JSON states, and each formula gives the figure shown.
    const sheets = await readSheetXml(converted.file("xlsx"));
    const named = [...sheets].slice(1);
    let checked = 0;
    converted.json.sections.forEach((section: JsonSection, i: number) => {
      const [name, sheet] = named[i];
      const totals = eurTotals(sheet);
      const stated = Object.values(section.totals ?? {}).flatMap((line) =>
        Object.entries(line).filter(([k, v]) => k.endsWith("InEUR") && typeof v === "number")
      );
      assert.equal(totals.length, stated.length, `${name}: a formula per EUR total`);
      for (const { ref, formula, value } of totals) {
        const sum = evaluateTotals(formula, name, sheets);
        assert.equal(cents(sum), cents(value), `${name}!${ref}: shown ${value}, its rows ${sum}`);
        checked++;
      }
    });
    assert.ok(checked >= 20, `${checked} EUR totals checked in the workbook`);
  });
});

/** The totals cells (with a formula) of a sheet's columns headed "… (EUR)". */
function eurTotals(sheet: RawSheet): { ref: string; formula: string; value: number }[] {
  const columns = [...sheet.cells].filter(([ref, c]) =>
    /^[A-Z]+1$/.test(ref) && /\(EUR\)$/.test(c.value ?? "")
  ).map(([ref]) => ref.slice(0, -1));
  return [...sheet.cells].flatMap(([ref, c]) => {
    const column = /^[A-Z]+/.exec(ref)![0];
    if (!columns.includes(column) || c.formula === undefined || !/SUBTOTAL|SUM/.test(c.formula)) {
      return [];
    }
    return [{ ref, formula: c.formula, value: Number(c.value) }];
  });
}
