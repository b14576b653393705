/**
 * A document with every column type and the awkward values each can meet (nulls, strings for
 * dates, NaN, XML-invalid and escaped characters, a text column holding a date, a number and a
 * boolean, emphasis, several currencies and none, an all-empty row, continuation sheets, totals,
 * an empty section). `tests/render/fixtures/every-type.xlsx` is this document as the XLSX
 * renderer writes it through exceljs' own rows (`rowWriter: "exceljs"`, what it wrote before rows
 * went straight to the sheet's XML; regenerated when the first column was frozen too, and when
 * booleans became Yes/No, headers were aligned over their values and long text wrapped, and when
 * long headers wrapped onto two lines between white rules); the tests
 * compare today's workbook, from either row writer, with it cell by cell.
 *
 * Regenerate only on purpose:
 * `deno run -P=test --allow-write=tests/render/fixtures tests/render/xlsx_fixture.ts`.
 *
 * @module
 */

import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import type { Column, Row } from "../../lib/report/model.ts";
import { memorySection } from "../../lib/report/spool.ts";

/** Rows per sheet the fixture is rendered with (a header and five data rows). */
export const FIXTURE_ROWS_PER_SHEET = 6;

/** The fixture's path. */
export const FIXTURE_PATH = new URL("./fixtures/every-type.xlsx", import.meta.url);

const COLUMNS: Column[] = [
  { key: "name", label: "Name & <kind>", type: "text" },
  { key: "n", label: "Number", type: "number", decimals: 3 },
  { key: "i", label: "Integer", type: "integer" },
  {
    key: "cost",
    label: "Cost",
    type: "currency",
    emphasis: (row) => (typeof row.cost === "number" && row.cost < 0 ? "bad" : undefined),
  },
  { key: "fee", label: "Fee", type: "currency", currencyKey: "feeCurrency", decimals: 0 },
  { key: "share", label: "Share", type: "percent" },
  { key: "due", label: "Due", type: "date" },
  { key: "seen", label: "Seen", type: "datetime" },
  {
    key: "ok",
    label: "OK",
    type: "boolean",
    emphasis: (row) => (row.ok === false ? "warn" : undefined),
  },
  { key: "note", label: "Note", type: "text", width: 30 },
];

const ROWS: Row[] = [
  {
    name: "Office <Pro> & \"Visio\" 'x'",
    n: 1234.5678,
    i: 42,
    cost: 1234.5,
    currency: "EUR",
    fee: 10,
    feeCurrency: "GBP",
    share: 0.25,
    due: new Date("2025-03-31T00:00:00Z"),
    seen: new Date("2024-05-01T08:30:15Z"),
    ok: true,
    note: new Date("2024-01-02T03:04:05Z"),
  },
  {
    name: "=cmd|'/C calc'!A0\u0001\u0008tab\there",
    n: -0.5,
    i: 0,
    cost: -99.99,
    currency: "USD",
    fee: null,
    feeCurrency: "usd",
    share: 1,
    due: "2026-01-01",
    seen: "2024-04-30T23:59:00Z",
    ok: false,
    note: 17,
  },
  {
    name: "",
    n: Number.NaN,
    i: Number.POSITIVE_INFINITY,
    cost: 5,
    currency: null,
    fee: 3,
    share: "half",
    due: "not a date",
    seen: new Date(Number.NaN),
    ok: null,
    note: true,
  },
  {},
  {
    name: "x".repeat(40_000),
    n: 1e21,
    i: -7,
    cost: 0,
    currency: "JPY",
    fee: 1,
    feeCurrency: "EUR",
    share: 0,
    due: new Date("1900-01-01T00:00:00Z"),
    seen: new Date("2024-05-01T00:00:00Z"),
    ok: "yes",
    note: "line\nbreak",
  },
  ...Array.from({ length: 7 }, (_, k) => ({
    name: `Row ${k}`,
    n: k / 3,
    i: k,
    cost: k * 1.1,
    currency: ["EUR", "USD", "GBP"][k % 3],
    fee: k,
    feeCurrency: "EUR",
    share: k / 7,
    due: new Date(Date.UTC(2025, k, 1)),
    seen: new Date(Date.UTC(2025, k, 1, k, k)),
    ok: k % 2 === 0,
    note: null,
  })),
];

/** The fixture document: one section over two sheets with totals, and an empty section. */
export function everyTypeDocument(): RenderDocument {
  const sections: RenderSection[] = [
    memorySection({
      id: "all",
      title: "Every type",
      columns: COLUMNS,
      rows: ROWS,
      totals: { sum: ["n", "cost"], perCurrency: "currency" },
    }),
    memorySection({ id: "none", title: "Nothing", columns: COLUMNS, rows: [] }),
  ];
  return {
    report: { id: "every-type", title: "Every type", description: "All column types." },
    generatedAt: new Date("2024-05-01T08:00:00Z"),
    source: "fixture",
    params: { since: new Date("2024-01-01T00:00:00Z"), top: 5 },
    summary: [{ label: "Cost", value: 1234.5, type: "currency", currency: "EUR" }],
    sections,
    version: "fixture",
  };
}

if (import.meta.main) {
  const { XlsxRenderer } = await import("../../lib/render/xlsx.ts");
  const [path] = await new XlsxRenderer({
    maxRowsPerSheet: FIXTURE_ROWS_PER_SHEET,
    rowWriter: "exceljs",
  }).render(
    everyTypeDocument(),
    { outDir: new URL("./fixtures", import.meta.url).pathname },
  );
  console.log(`wrote ${path}`);
}
