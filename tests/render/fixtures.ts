/**
 * Render test fixtures: small fixed documents built from in-memory sections.
 *
 * @module
 */

import type { Column, Fact, Row, Section } from "../../lib/report/model.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";

/** A fixed instant for every fixture. */
export const GENERATED_AT = new Date("2024-05-01T08:30:00Z");

/** Hostile strings that must render as text. */
export const HOSTILE = {
  script: "<script>alert(1)</script>",
  img: "<img src=http://evil.example/x>",
  quote: `He said "hi", then left`,
  multiline: "line one\nline two, with comma",
};

/** Columns of the licence cost section. */
export const costColumns: Column[] = [
  { key: "publisher", label: "Publisher", type: "text" },
  { key: "product", label: "Product", type: "text" },
  { key: "licenses", label: "Licences", type: "integer" },
  { key: "used", label: "Used", type: "integer" },
  {
    key: "coverage",
    label: "Coverage",
    type: "percent",
    emphasis: (row) =>
      typeof row.coverage === "number" && row.coverage < 0.8
        ? "bad"
        : typeof row.coverage === "number" && row.coverage < 1
        ? "warn"
        : undefined,
  },
  { key: "cost", label: "Annual cost", type: "currency" },
  { key: "currency", label: "Currency", type: "text" },
  { key: "renewal", label: "Renewal", type: "date" },
];

/** Rows of the licence cost section, grouped by publisher. */
export const costRows: Row[] = [
  {
    publisher: "Adobe",
    product: "Acrobat Pro",
    licenses: 120,
    used: 131,
    coverage: 0.916,
    cost: 21480.5,
    currency: "USD",
    renewal: new Date("2024-09-30T00:00:00Z"),
  },
  {
    publisher: "Adobe",
    product: "Creative Cloud",
    licenses: 40,
    used: 38,
    coverage: 1.05,
    cost: 31920,
    currency: "USD",
    renewal: new Date("2025-01-15T00:00:00Z"),
  },
  {
    publisher: "Atlassian",
    product: "Jira Software",
    licenses: 250,
    used: 244,
    coverage: 1.02,
    cost: 18750.25,
    currency: "EUR",
    renewal: new Date("2024-11-01T00:00:00Z"),
  },
  {
    publisher: "Atlassian",
    product: "Confluence",
    licenses: 250,
    used: 312,
    coverage: 0.8,
    cost: 12000.1,
    currency: "EUR",
    renewal: null,
  },
  {
    publisher: "Microsoft",
    product: "Microsoft 365 E3",
    licenses: 900,
    used: 1180,
    coverage: 0.763,
    cost: 388800,
    currency: "USD",
    renewal: new Date("2024-07-01T00:00:00Z"),
  },
  {
    publisher: "Microsoft",
    product: "Visio Plan 2",
    licenses: 35,
    used: 21,
    coverage: 1.667,
    cost: 6300.2,
    currency: "EUR",
    renewal: new Date("2024-12-31T00:00:00Z"),
  },
];

/** Columns of the hosts section. */
export const hostColumns: Column[] = [
  { key: "host", label: "Host name", type: "text" },
  { key: "os", label: "Operating system", type: "text" },
  { key: "virtual", label: "Virtual", type: "boolean" },
  { key: "lastScan", label: "Last scan", type: "datetime" },
  { key: "value", label: "Purchase value", type: "currency" },
  { key: "currency", label: "Currency", type: "text" },
];

/** Rows of the hosts section, including hostile names. */
export const hostRows: Row[] = [
  {
    host: "web-01.corp.example",
    os: "Ubuntu 22.04",
    virtual: true,
    lastScan: new Date("2024-04-30T22:15:00Z"),
    value: 1299.99,
    currency: "EUR",
  },
  {
    host: HOSTILE.script,
    os: "Windows Server 2019",
    virtual: false,
    lastScan: new Date("2024-04-29T09:00:00Z"),
    value: 4500,
    currency: "EUR",
  },
  {
    host: HOSTILE.img,
    os: HOSTILE.quote,
    virtual: false,
    lastScan: null,
    value: 0.1,
    currency: "USD",
  },
  {
    host: "db-02",
    os: HOSTILE.multiline,
    virtual: true,
    lastScan: new Date("2024-04-30T01:02:03Z"),
    value: 0.2,
    currency: "USD",
  },
];

/** Section declarations of the demo document. */
export function demoSections(): Section[] {
  return [
    {
      id: "license-cost",
      title: "Licence cost by publisher",
      description:
        "Annual licence cost per product, grouped by publisher, with coverage of current use.",
      columns: costColumns,
      rows: costRows,
      totals: { sum: ["licenses", "used", "cost"], perCurrency: "currency" },
      group: { by: "publisher" },
      chart: { type: "bar", title: "Annual cost (top products)", label: "product", value: "cost" },
    },
    {
      id: "hosts",
      title: "Computers",
      description: "Every computer in scope with its last scan.",
      columns: hostColumns,
      rows: hostRows,
      totals: { sum: ["value"], perCurrency: "currency" },
    },
    {
      id: "quarantine",
      title: "Quarantined computers",
      description: "Computers in quarantine.",
      columns: hostColumns,
      rows: [],
    },
  ];
}

/** The demo document's facts. */
export const demoFacts: Fact[] = [
  { label: "Computers", value: 1284, type: "integer" },
  { label: "Products", value: 6, type: "integer" },
  { label: "Licence coverage", value: 0.873, type: "percent" },
  { label: "Annual cost (USD)", value: 442200.5, type: "currency", currency: "USD" },
  { label: "Annual cost (EUR)", value: 37050.55, type: "currency", currency: "EUR" },
  { label: "Last inventory", value: new Date("2024-04-30T22:15:00Z"), type: "datetime" },
];

/** A document from sections (in memory unless given spooled ones). */
export function demoDocument(
  sections: readonly RenderSection[] = demoSections().map(memorySection),
  overrides: Partial<RenderDocument> = {},
): RenderDocument {
  return {
    report: {
      id: "license-audit",
      title: "Licence position audit",
      description: "Which products are over- or under-licensed, and what they cost per year.",
    },
    generatedAt: GENERATED_AT,
    source: "http://127.0.0.1:8787 (reference server, seed 1)",
    params: { asOf: new Date("2024-05-01T00:00:00Z"), publisher: HOSTILE.script, top: 10 },
    summary: demoFacts,
    sections,
    version: "0.1.0",
    ...overrides,
  };
}
