/**
 * A date is never broken across lines in a printed table, however many columns squeeze it
 * (license-optimization's actions printed "Feb 1," over "2025" in its Last used column).
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatDate } from "../../lib/render/format.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { pdfPages } from "./pdf_read.ts";
import { usePrintBrowser } from "./print_browser.ts";
import { oneSectionDoc } from "./helpers.ts";

const print = usePrintBrowser("samkit-pdf-dates-");

/** The actions table's shape: long texts, ids, a narrow date column, numbers and money. */
const COLUMNS: Column[] = [
  { key: "step", label: "Step", type: "integer", width: 5 },
  { key: "action", label: "Action", type: "text", width: 14 },
  { key: "application", label: "Application", type: "text", width: 28 },
  { key: "applicationId", label: "Application id", type: "text", width: 10 },
  { key: "metric", label: "Metric", type: "text", width: 14 },
  { key: "computer", label: "Computer", type: "text", width: 16 },
  { key: "computerId", label: "Computer id", type: "text", width: 10 },
  { key: "organization", label: "Organization", type: "text", width: 18 },
  { key: "lastUsed", label: "Last used", type: "date", width: 9 },
  { key: "days", label: "Days unused", type: "integer", width: 7 },
  { key: "units", label: "Units freed", type: "integer", width: 7 },
  { key: "license", label: "License", type: "text", width: 10 },
  { key: "from", label: "From", type: "text", width: 14 },
  { key: "to", label: "To", type: "text", width: 14 },
  { key: "money", label: "Money saved", type: "currency", width: 14 },
  { key: "note", label: "Note", type: "text", width: 40 },
];

function rows(count: number): Row[] {
  return Array.from({ length: count }, (_, n) => ({
    step: n + 1,
    action: "Remove install",
    application: `Oracle Database 19c Enterprise Edition ${n}`,
    applicationId: `APP${String(n).padStart(4, "0")}`,
    metric: "Processor cores",
    computer: `US-SRV-DB-${String(n).padStart(5, "0")}`,
    computerId: `C${String(n).padStart(6, "0")}`,
    organization: "Contoso Americas / Engineering",
    lastUsed: new Date(Date.UTC(2025, n % 12, 1 + (n % 28))),
    days: 100 + n,
    units: 32,
    license: `LIC${String(n).padStart(5, "0")}`,
    from: "Contoso EMEA / Finance",
    to: "Contoso APAC / Engineering",
    money: 1_000_000 + n,
    currency: "USD",
    note: "Host DE-HV-00181's requirement drops only when no install remains on it",
  }));
}

describe("dates in a printed table", () => {
  it("are never broken across lines in a table of 16 columns", async () => {
    const data = rows(12);
    const path = await print.render(
      oneSectionDoc(
        memorySection({ id: "actions", title: "Actions", columns: COLUMNS, rows: data }),
      ),
    );
    const text = (await pdfPages(path)).join("\n");
    const broken = data.map((r) => formatDate(r.lastUsed as Date, { locale: "en-US" }))
      .filter((date) => !text.includes(date));
    assert.deepEqual(broken, [], "each date on one line");
  });
});
