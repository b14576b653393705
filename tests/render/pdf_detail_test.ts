import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { printedDocument } from "../../lib/render/pdf_detail.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { runCli } from "../helpers/cli.ts";
import { outTestDir } from "../helpers/files.ts";
import { oneSectionDoc, requirementPerDevice } from "./helpers.ts";
import { memorySection } from "../../lib/report/spool.ts";
const dec = new TextDecoder();

function doc(rows: number): RenderDocument {
  const all = Array.from({ length: rows }, (_, n) => ({ n }));
  return oneSectionDoc({
    id: "long",
    title: "Long",
    columns: [{ key: "n", label: "N", type: "integer" }],
    rowCount: rows,
    totals: { All: { n: all.reduce((a, r) => a + r.n, 0), rows } },
    async *rows() {
      yield* all;
    },
  });
}

async function all(rows: AsyncIterable<Record<string, unknown>>) {
  const out: Record<string, unknown>[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

async function count(rows: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of rows) n++;
  return n;
}

describe("printedDocument", () => {
  it("cuts a long section to its first rows and keeps the whole one for charts", async () => {
    const printed = await printedDocument(doc(12), { maxRows: 5 });
    const [section] = printed.sections;
    assert.equal(section.rowCount, 5);
    assert.equal(await count(section.rows()), 5);
    assert.equal(section.printedPart?.of, 12);
    assert.equal(await count(section.printedPart!.rows()), 12);
    assert.deepEqual(section.totals, doc(12).sections[0].totals); // totals of the whole section
    assert.match(section.printedPart!.note, /prints 5 of the 12 rows: in the table's order\./);
    assert.match(section.printedPart!.note, /full list is in this report's XLSX, CSV and JSON/);
    // No command line in a document, and no totals or chart the section does not have.
    assert.doesNotMatch(section.printedPart!.note, /deno task|--format|totals|chart/);
  });

  it("prints the rows that matter most, says which, and claims only what the section has", async () => {
    // Alphabetical by application: the first rows would all be one application.
    const devices = Array.from({ length: 40 }, (_, n) => ({
      application: n < 30 ? "Adobe Acrobat Pro" : "Oracle Database",
      computer: `PC-${String(n).padStart(3, "0")}`,
      requirement: n < 30 ? 1 : 100 + n,
    }));
    const alphabetical = requirementPerDevice(devices);
    const [printed] = (await printedDocument(alphabetical, { maxRows: 5 })).sections;
    const rows = await all(printed.rows());
    assert.deepEqual(rows.map((r) => r.requirement), [139, 138, 137, 136, 135]);
    assert.equal(printed.printedPart?.which, "the largest Requirement first");
    assert.match(printed.printedPart!.note, /prints 5 of the 40 rows: the largest Requirement/);
    assert.doesNotMatch(printed.printedPart!.note, /totals|chart/);

    // Money first, flagged rows before it; totals and chart said to cover every row.
    const costs = Array.from({ length: 30 }, (_, n) => ({
      name: `App ${n}`,
      short: n === 3 || n === 17,
      cost: n * 10,
      currency: "EUR",
    }));
    const money = oneSectionDoc(memorySection({
      id: "costs",
      title: "Costs",
      columns: [
        { key: "name", label: "Application", type: "text" },
        {
          key: "short",
          label: "Short",
          type: "boolean",
          emphasis: (r) => (r.short ? "bad" : undefined),
        },
        { key: "cost", label: "Cost to date", type: "currency" },
      ],
      rows: costs,
      totals: { sum: ["cost"], perCurrency: "currency" },
      chart: { type: "bar", title: "Cost", label: "name", value: "cost" },
    }));
    const [top] = (await printedDocument(money, { maxRows: 4 })).sections;
    assert.deepEqual((await all(top.rows())).map((r) => r.name), [
      "App 17",
      "App 3",
      "App 29",
      "App 28",
    ]);
    assert.match(
      top.printedPart!.note,
      /prints 4 of the 30 rows: flagged rows first, then the largest Cost to date first\. The totals and the chart cover all 30 rows\./,
    );

    // A grouped section keeps its order, so its groups stay whole.
    const grouped = oneSectionDoc(memorySection({
      id: "grouped",
      title: "Grouped",
      columns: [
        { key: "publisher", label: "Publisher", type: "text" },
        { key: "cost", label: "Cost", type: "currency" },
      ],
      rows: [
        { publisher: "A", cost: 5, currency: "EUR" },
        { publisher: "A", cost: 1, currency: "EUR" },
        { publisher: "B", cost: 9, currency: "EUR" },
        { publisher: "C", cost: 7, currency: "EUR" },
      ],
      group: { by: "publisher" },
    }));
    const [kept] = (await printedDocument(grouped, { maxRows: 3 })).sections;
    assert.deepEqual((await all(kept.rows())).map((r) => r.cost), [5, 9, 7]);
    assert.equal(kept.printedPart?.which, "those with the largest Cost, in the table's order");
  });

  it("leaves a document within the limit, or with no limit, as it is", async () => {
    const short = doc(5);
    assert.equal(await printedDocument(short, { maxRows: 5 }), short);
    const long = doc(50);
    assert.equal(await printedDocument(long, { maxRows: Infinity }), long);
    assert.equal(await printedDocument(long, { maxRows: 0 }), long);
  });
});

describe("report --pdf-rows", () => {
  it("prints the first N rows of a long section and names the CSV with its SHA-256; CSV keeps all", async () => {
    const out = await outTestDir("pdf-rows-");
    try {
      const run = await runCli(
        ["report", "entitlement-state-by-computer"]
          .concat(["--format", "pdf,csv", "--pdf-rows", "7", "--out", out, "--quiet"]),
      );
      assert.equal(run.code, 0, run.stderr);
      const text = dec.decode(
        (await new Deno.Command("pdftotext", {
          args: [`${out}/entitlement-state-by-computer.pdf`, "-"],
        })
          .output()).stdout,
      ).replace(/\s+/g, " ");
      const shown = text.match(/prints 7 of the ([\d,]+) rows/);
      assert.ok(shown, text.slice(0, 3000));
      const of = shown[1];
      // File names may break across lines in the PDF's text: read the note without spaces.
      const named = text.replace(/\s+/g, "").match(
        /Thefulllist:(\S+?\.csv)\(SHA-256([0-9a-f]{64})\)/,
      );
      assert.ok(named, text.slice(0, 3000));
      const [, file, sha] = named;
      // pdftotext drops a hyphen where the name broke across lines: match names without them.
      const csvName = [...Deno.readDirSync(out)].map((e) => e.name)
        .find((n) => n.replaceAll("-", "") === file.replaceAll("-", ""));
      assert.ok(csvName, file);
      const csv = await Deno.readFile(`${out}/${csvName}`);
      const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", csv))]
        .map((b) => b.toString(16).padStart(2, "0")).join("");
      assert.equal(digest, sha);
      const records = parse(dec.decode(csv).replace(/^\uFEFF/, ""), { columns: true });
      assert.equal(records.length, Number(of.replaceAll(",", "")), "the CSV has every row");
      assert.ok(Number(of.replaceAll(",", "")) > 7);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
});
