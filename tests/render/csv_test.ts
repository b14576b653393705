import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { basename } from "node:path";
import { csvField, csvLines, CsvRenderer, FORMULA_START } from "../../lib/render/csv.ts";
import { memorySection, spoolSection } from "../../lib/report/spool.ts";
import { demoDocument, demoSections, HOSTILE } from "./fixtures.ts";
import { failingSection, listDir, parseCsv, removeTempDirs, tempDir } from "./helpers.ts";

/** A CSV file's text as a spreadsheet program reads it (the byte order mark is the encoding). */
async function readCsvText(path: string): Promise<string> {
  return (await Deno.readTextFile(path)).replace(/^\uFEFF/, "");
}

after(removeTempDirs);

describe("CsvRenderer", () => {
  it("writes one RFC 4180 file per section that parses back to the rows", async () => {
    const outDir = await tempDir();
    const files = await new CsvRenderer().render(demoDocument(), { outDir });
    assert.deepEqual(files.map((f) => basename(f)), [
      "license-audit-license-cost.csv",
      "license-audit-hosts.csv",
      "license-audit-quarantine.csv",
    ]);
    assert.deepEqual(await listDir(outDir), files.map((f) => basename(f)).sort());

    const hosts = parseCsv(await readCsvText(files[1]));
    assert.deepEqual(hosts[0], [
      "Host name",
      "Operating system",
      "Virtual",
      "Last scan",
      "Purchase value",
      "Currency",
    ]);
    assert.deepEqual(hosts[1], [
      "web-01.corp.example",
      "Ubuntu 22.04",
      "Yes",
      "2024-04-30T22:15:00.000Z",
      "1299.99",
      "EUR",
    ]);
    assert.deepEqual(hosts[2].slice(0, 3), [HOSTILE.script, "Windows Server 2019", "No"]);
    assert.deepEqual(hosts[3], [HOSTILE.img, HOSTILE.quote, "No", "", "0.1", "USD"]);
    assert.equal(hosts[4][1], HOSTILE.multiline);
    assert.equal(hosts.length, 5);
  });

  it("writes numbers plainly, dates as RFC 3339 dates and no thousands separators", async () => {
    const outDir = await tempDir();
    const [cost] = await new CsvRenderer().render(demoDocument(), { outDir });
    const records = parseCsv(await readCsvText(cost));
    const m365 = records.find((r) => r[1] === "Microsoft 365 E3")!;
    assert.deepEqual(m365, [
      "Microsoft",
      "Microsoft 365 E3",
      "900",
      "1180",
      "0.763",
      "388800",
      "USD",
      "2024-07-01",
    ]);
    const confluence = records.find((r) => r[1] === "Confluence")!;
    assert.equal(confluence[7], "");
  });

  it("writes only the header row for an empty section, with no BOM when bom is false (--csv-bom=false)", async () => {
    const outDir = await tempDir();
    const files = await new CsvRenderer({ bom: false }).render(demoDocument(), { outDir });
    const bytes = await Deno.readFile(files[2]);
    assert.notEqual(bytes[0], 0xef);
    const text = new TextDecoder().decode(bytes);
    assert.equal(text, "Host name,Operating system,Virtual,Last scan,Purchase value,Currency\r\n");
  });

  it("starts files with a UTF-8 BOM by default, so a spreadsheet reads '30–89 days' intact", async () => {
    const outDir = await tempDir();
    const files = await new CsvRenderer().render(demoDocument(), { outDir });
    const bytes = await Deno.readFile(files[0]);
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    // As a spreadsheet program decodes it: the BOM says UTF-8; non-ASCII text survives.
    const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(bytes);
    assert.ok(!text.startsWith("\uFEFF"), "the BOM is the encoding, not text");
    const dash = new TextDecoder().decode(new TextEncoder().encode("30–89 days"));
    assert.equal(dash, "30–89 days");
  });

  it("prefixes a ' to text cells a spreadsheet would run as formulas, decided by column type", async () => {
    const outDir = await tempDir();
    const hostile = [
      '=HYPERLINK("http://evil.example/x","click")',
      "+1+cmd|' /C calc'!A0",
      "-5",
      "@SUM(1,2)",
      "\t=1+1",
      "\r=1+1",
    ];
    const section = memorySection({
      id: "formulas",
      title: "Formulas",
      columns: [
        { key: "name", label: "Name", type: "text" },
        { key: "n", label: "N", type: "integer" },
        { key: "cost", label: "Cost", type: "currency" },
      ],
      rows: [
        ...hostile.map((name) => ({ name, n: -5, cost: -12.5 })),
        { name: "a=b, 1+1 and e-mail@x", n: 0, cost: 0 },
      ],
    });
    const [file] = await new CsvRenderer().render(demoDocument([section]), { outDir });
    const records = parseCsv(await readCsvText(file)).slice(1);
    assert.deepEqual(records.map((r) => r[0]), [
      ...hostile.map((h) => `'${h}`),
      "a=b, 1+1 and e-mail@x",
    ]);
    // Numbers typed as numbers are numbers: a spreadsheet reads -5, not the text '-5.
    assert.deepEqual(records.map((r) => r[1]), ["-5", "-5", "-5", "-5", "-5", "-5", "0"]);
    assert.deepEqual(records.map((r) => r[2]).slice(0, 2), ["-12.5", "-12.5"]);
  });

  it("writes formula-like text as it is with formulas: true (--csv-formulas)", async () => {
    const outDir = await tempDir();
    const section = memorySection({
      id: "formulas",
      title: "Formulas",
      columns: [{ key: "name", label: "Name", type: "text" }],
      rows: [{ name: "=1+1" }, { name: "-5" }],
    });
    const [file] = await new CsvRenderer({ formulas: true }).render(demoDocument([section]), {
      outDir,
    });
    assert.deepEqual(parseCsv(await readCsvText(file)), [["Name"], ["=1+1"], ["-5"]]);
  });

  it("streams rows from spooled sections", async () => {
    const outDir = await tempDir();
    const spoolDir = await tempDir();
    const rows = Array.from({ length: 1234 }, (_, n) => ({ n, label: `row, ${n}` }));
    const section = await spoolSection({
      id: "many",
      title: "Many",
      columns: [{ key: "n", label: "N", type: "integer" }, {
        key: "label",
        label: "Label",
        type: "text",
      }],
      rows,
    }, { dir: spoolDir });
    const [file] = await new CsvRenderer().render(demoDocument([section]), { outDir });
    const records = parseCsv(await readCsvText(file));
    assert.equal(records.length, 1235);
    assert.deepEqual(records[1234], ["1233", "row, 1233"]);
    await section.dispose();
  });

  it("leaves no final file and no temp file when a row source fails, even for earlier sections", async () => {
    const outDir = await tempDir();
    const [cost, hosts] = demoSections().map(memorySection);
    await assert.rejects(
      new CsvRenderer().render(demoDocument([cost, failingSection(hosts, 2)]), { outDir }),
      /row source failed/,
    );
    assert.deepEqual(await listDir(outDir), []);
  });

  it("stops on abort and leaves nothing behind", async () => {
    const outDir = await tempDir();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await assert.rejects(
      new CsvRenderer().render(demoDocument(), { outDir, signal: controller.signal }),
      /stop/,
    );
    assert.deepEqual(await listDir(outDir), []);
  });
});

describe("csvLines", () => {
  it("round-trips any text fields through a strict RFC 4180 parser", () => {
    fc.assert(fc.property(
      fc.array(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 5 }), {
        minLength: 1,
        maxLength: 10,
      }).filter((records) => records.every((r) => r.length === records[0].length)),
      (records) => {
        // A record of one empty field is written (and parsed) as an empty line.
        assert.deepEqual(parseCsv(csvLines(records)), records);
      },
    ));
  });

  it("quotes commas, quotes, CR and LF", () => {
    assert.equal(
      csvLines([["a,b", 'x"y', "1\n2", "3\r4", "plain"]]),
      '"a,b","x""y","1\n2","3\r4",plain\r\n',
    );
  });
});

describe("csvField", () => {
  it("never lets a text cell start with a formula character unless asked", () => {
    fc.assert(fc.property(fc.string(), (text) => {
      const field = csvField(text, "text");
      assert.ok(!FORMULA_START.test(field), JSON.stringify(field));
      assert.equal(field === text || field === `'${text}`, true);
    }));
  });

  it("writes numbers as String() does", () => {
    fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true }), fc.integer()), (n) => {
      assert.equal(csvField(n, "number"), Number.isFinite(n) ? String(n) : "");
    }));
    for (const n of [-0, 0.1 + 0.2, 1e21, 5e-7, 123456789012345680000, -1.5e-300]) {
      assert.equal(csvField(n, "currency"), String(n));
    }
  });

  it("gives machine forms", () => {
    assert.equal(csvField(1234567.891, "number"), "1234567.891");
    assert.equal(csvField(true, "boolean"), "Yes");
    assert.equal(csvField(null, "text"), "");
    assert.equal(csvField(Number.NaN, "number"), "");
    assert.equal(
      csvField(new Date("2024-02-29T13:14:15.000Z"), "datetime"),
      "2024-02-29T13:14:15.000Z",
    );
  });
});
