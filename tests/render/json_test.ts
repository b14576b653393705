import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { basename } from "node:path";
import { JsonRenderer, jsonRow } from "../../lib/render/json.ts";
import { memorySection, spoolSection } from "../../lib/report/spool.ts";
import { demoDocument, demoSections, HOSTILE } from "./fixtures.ts";
import { failingSection, listDir, removeTempDirs, tempDir } from "./helpers.ts";

after(removeTempDirs);

const RFC3339 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/;

async function renderDemo(doc = demoDocument()) {
  const outDir = await tempDir();
  const files = await new JsonRenderer().render(doc, { outDir });
  return { outDir, files, json: JSON.parse(await Deno.readTextFile(files[0])) };
}

describe("JsonRenderer", () => {
  it("writes <report-id>.json with exactly the contract's keys", async () => {
    const { files, json, outDir } = await renderDemo();
    assert.equal(basename(files[0]), "license-audit.json");
    assert.deepEqual(await listDir(outDir), ["license-audit.json"]);
    assert.deepEqual(Object.keys(json), [
      "report",
      "title",
      "generatedAt",
      "source",
      "params",
      "headlines",
      "sections",
    ]);
    // The headlines under the names the cover and summary give them, values in machine form.
    const doc = demoDocument();
    assert.deepEqual(
      json.headlines.map((h: { label: string }) => h.label),
      doc.summary.map((f) => f.label),
    );
    assert.ok(doc.summary.length > 0, "the fixture has headlines");
    for (const [i, fact] of doc.summary.entries()) {
      assert.equal(json.headlines[i].type, fact.type);
      assert.equal(json.headlines[i].currency, fact.currency);
      if (typeof fact.value === "number") assert.equal(json.headlines[i].value, fact.value);
    }
    assert.equal(json.report, "license-audit");
    assert.equal(json.title, "Licence position audit");
    assert.equal(json.generatedAt, "2024-05-01T08:30:00.000Z");
    assert.equal(json.source, "http://127.0.0.1:8787 (reference server, seed 1)");
    assert.deepEqual(json.params, {
      asOf: "2024-05-01T00:00:00.000Z",
      publisher: HOSTILE.script,
      top: 10,
    });
    assert.deepEqual(json.sections.map((s: { id: string }) => s.id), [
      "license-cost",
      "hosts",
      "quarantine",
    ]);
    for (const section of json.sections) {
      assert.deepEqual(Object.keys(section), ["id", "title", "columns", "rows", "totals"]);
      for (const column of section.columns) {
        assert.deepEqual(Object.keys(column), ["key", "label", "type"]);
      }
    }
  });

  it("keeps numbers as numbers, dates as RFC 3339 and rows to column keys", async () => {
    const { json } = await renderDemo();
    const hosts = json.sections[1];
    assert.deepEqual(hosts.columns[3], { key: "lastScan", label: "Last scan", type: "datetime" });
    assert.deepEqual(hosts.rows[0], {
      host: "web-01.corp.example",
      os: "Ubuntu 22.04",
      virtual: true,
      lastScan: "2024-04-30T22:15:00.000Z",
      value: 1299.99,
      currency: "EUR",
    });
    assert.equal(hosts.rows[1].host, HOSTILE.script);
    assert.equal(hosts.rows[2].lastScan, null);
    for (const row of json.sections[0].rows) {
      assert.equal(typeof row.cost, "number");
      assert.equal(typeof row.licenses, "number");
      assert.ok(row.renewal === null || RFC3339.test(row.renewal), String(row.renewal));
    }
    assert.equal(json.sections[0].rows[0].renewal, "2024-09-30");
  });

  it("writes totals per currency, never summed across currencies", async () => {
    const { json } = await renderDemo();
    assert.deepEqual(json.sections[0].totals, {
      EUR: { licenses: 535, used: 577, cost: 37050.55, rows: 3 },
      USD: { licenses: 1060, used: 1349, cost: 442200.5, rows: 3 },
    });
    assert.deepEqual(json.sections[1].totals, {
      EUR: { value: 5799.99, rows: 2 },
      USD: { value: 0.3, rows: 2 },
    });
    assert.equal("All" in json.sections[1].totals, false);
  });

  it("is valid JSON for a section with zero rows and for a report with no section", async () => {
    const { json } = await renderDemo();
    assert.deepEqual(json.sections[2].rows, []);
    assert.deepEqual(json.sections[2].totals, { All: { rows: 0 } });
    const empty = await renderDemo(demoDocument([]));
    assert.deepEqual(empty.json.sections, []);
  });

  it("streams a spooled section of many rows", async () => {
    const dir = await tempDir();
    const section = await spoolSection({
      id: "many",
      title: "Many",
      columns: [{ key: "n", label: "N", type: "integer" }, {
        key: "at",
        label: "At",
        type: "datetime",
      }],
      rows: Array.from({ length: 3000 }, (_, n) => ({ n, at: new Date(n * 1000) })),
      totals: { sum: ["n"] },
    }, { dir });
    const { json } = await renderDemo(demoDocument([section]));
    assert.equal(json.sections[0].rows.length, 3000);
    assert.deepEqual(json.sections[0].rows[2999], { n: 2999, at: "1970-01-01T00:49:59.000Z" });
    assert.deepEqual(json.sections[0].totals, { All: { n: 4498500, rows: 3000 } });
    await section.dispose();
  });

  it("leaves no final file and no temp file when a row source fails", async () => {
    const outDir = await tempDir();
    const [cost, hosts] = demoSections().map(memorySection);
    await assert.rejects(
      new JsonRenderer().render(demoDocument([cost, failingSection(hosts, 1)]), { outDir }),
      /row source failed/,
    );
    assert.deepEqual(await listDir(outDir), []);
  });
});

describe("jsonRow", () => {
  it("drops keys that are not columns and fills missing ones with null", () => {
    assert.deepEqual(
      jsonRow({ a: 1, secret: "x", when: new Date(Number.NaN) }, [
        { key: "a", label: "A", type: "number" },
        { key: "b", label: "B", type: "text" },
        { key: "when", label: "When", type: "date" },
      ]),
      { a: 1, b: null, when: null },
    );
  });
});
