import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { printedDocument } from "../../lib/render/pdf_detail.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { runCli } from "../helpers/cli.ts";
import { outTestDir } from "../helpers/files.ts";
import { oneSectionDoc } from "./helpers.ts";
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
    assert.match(section.printedPart!.note, /first 5 of 12 rows/);
    assert.match(section.printedPart!.note, /deno task report r --format xlsx,csv,json/);
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
      const shown = text.match(/prints the first 7 of ([\d,]+) rows/);
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
