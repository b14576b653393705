/**
 * Workbooks as people read them, checked from the sheet XML itself: no text is wider than its
 * column where the next cell holds something unless it wraps in a row high enough for its lines
 * (the Summary's Source, long labels and values included), headers are aligned as the values
 * under them, yes/no is one form in every sheet, no number touches the text beside it, and the
 * license position's derived columns are formulas of their own row that give the figures the JSON
 * holds (the checks are `./xlsx_readable.ts`'s).
 *
 * @module
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { API_REPORTS } from "../../reports/mod.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { withServer } from "../helpers/server.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { readSheetXml } from "./xlsx_sheet_xml.ts";
import { removeTempDirs, tempDir } from "./helpers.ts";
import { checkPositionFormulas, unreadableIn } from "./xlsx_readable.ts";

after(removeTempDirs);

/** A document with everything that used to be cut or printed over on the Summary sheet. */
function hostileDocument(): RenderDocument {
  const long = "Microsoft Office Professional Plus 2021 Volume Licence for Enterprise Agreement";
  return {
    report: {
      id: "readable",
      title: "Readable",
      description: "A description long enough to wrap over the merged columns of the summary. "
        .repeat(4),
    },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "https://sam.example.com/tenant/0f3c9a6e-4d5b-4a7e-9c1d-2b8e7f6a5c4d (client demo, " +
      "registry at /api/sam/software-registry/v1, reference server seed 7, 3,000 computers)",
    params: { organization: "ORG07", reallocate: true },
    summary: [
      {
        label: "Positions understated (requirement rests on hosts without hardware data)",
        value: 6,
        type: "integer",
      },
      { label: "Harvest candidates", value: true, type: "boolean" },
    ],
    sections: [
      memorySection({
        id: "apps",
        title: "Applications with a name long enough to need shortening",
        columns: [
          { key: "name", label: "Application", type: "text", width: 12 },
          { key: "priced", label: "Priced at", type: "text", width: 8 },
          { key: "seats", label: "Seats", type: "integer" },
          { key: "licensed", label: "Licensed", type: "boolean" },
          { key: "note", label: "Note", type: "text" },
          { key: "cost", label: "Cost", type: "currency" },
          // Text right of a number: apart, not "USD 2.00USD".
          { key: "currency", label: "Currency", type: "text" },
        ],
        rows: [
          {
            name: long,
            priced: "Average price paid",
            seats: 3,
            licensed: true,
            note: "short",
            cost: 1,
            currency: "EUR",
          },
          {
            name: "Adobe Acrobat Pro",
            priced: "Registry list price",
            seats: 1,
            licensed: false,
            note: `${long}; ${long}; ${long}`,
            cost: 2,
            currency: "USD",
          },
        ],
        totals: { sum: ["seats", "cost"], perCurrency: "currency" },
      }),
    ],
    version: "test",
  };
}

describe("XLSX as people read it", () => {
  it("cuts no text beside a filled cell and prints no row over another, Summary included", async () => {
    const [path] = await new XlsxRenderer().render(hostileDocument(), {
      outDir: await tempDir(),
    });
    const sheets = await readSheetXml(path);
    assert.deepEqual(unreadableIn(sheets), []);
    const apps = [...sheets.values()][1];
    assert.equal(apps.cells.get("D2")?.value, "Yes");
    assert.equal(apps.cells.get("D3")?.value, "No");
    const summary = sheets.get("Summary")!;
    const yes = [...summary.cells.values()].filter((c) => c.value === "Yes");
    assert.equal(yes.length, 2, "the boolean parameter and fact read Yes");
  });

  it("reads so in every report's workbook, and the position's derived figures are formulas", async () => {
    await withServer({}, async (srv) => {
      const query = createQueryContext(); // one run's reads, shared as a pack's reports share them
      for (const report of API_REPORTS) {
        const position = report.id === licensePosition.id;
        const run = await runReportForTest({
          server: srv,
          report,
          query,
          formats: position ? ["xlsx", "json"] : ["xlsx"],
          dir: await tempDir(),
        });
        const sheets = await readSheetXml(run.file("xlsx"));
        assert.deepEqual(unreadableIn(sheets), [], report.id);
        if (position) checkPositionFormulas(sheets, run.json);
      }
    });
  });
});
