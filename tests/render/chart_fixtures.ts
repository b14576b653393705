/**
 * Chart test fixtures: a spec and rows of each chart kind, as the reports will declare them, and
 * a document with one section per kind.
 *
 * @module
 */

import type { ChartSpec, Column, Row } from "../../lib/report/model.ts";
import type { ChartContext } from "../../lib/render/charts/context.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";
import { GENERATED_AT } from "./fixtures.ts";

/** A chart kind's fixture: spec, columns and rows of `count` items. */
export interface ChartFixture {
  readonly spec: ChartSpec;
  readonly columns: Column[];
  rows(count: number, label?: (i: number) => string): Row[];
}

const name = (i: number) => `Application ${String(i + 1).padStart(3, "0")}`;

/** Installations per entitlement state of each application. */
export const stackedFixture: ChartFixture = {
  spec: {
    type: "stackedBar",
    title: "Installations per entitlement state",
    label: "application",
    segments: [
      { key: "licensed", label: "Licensed" },
      { key: "covered", label: "Covered by suite" },
      { key: "uncovered", label: "Uncovered" },
      { key: "free", label: "Free" },
    ],
  },
  columns: [
    { key: "application", label: "Application", type: "text" },
    { key: "licensed", label: "Licensed", type: "integer" },
    { key: "covered", label: "Covered", type: "integer" },
    { key: "uncovered", label: "Uncovered", type: "integer" },
    { key: "free", label: "Free", type: "integer" },
  ],
  rows: (count, label = name) =>
    Array.from({ length: count }, (_, i) => ({
      application: label(i),
      licensed: 40 - (i % 40),
      covered: i % 7,
      uncovered: (i * 3) % 11,
      free: i % 2 === 0 ? 5 : 0,
    })),
};

/** Retrievals per connector and month, in long form. */
export const heatFixture: ChartFixture = {
  spec: {
    type: "heatMap",
    title: "Connector retrievals per month",
    row: "connector",
    column: "month",
    value: "status",
    statuses: [
      { value: "ok", label: "OK", tone: "good" },
      { value: "failed", label: "Failed", tone: "bad" },
      { value: "neverRan", label: "Never ran", tone: "warn" },
      { value: "notCreated", label: "Not created", tone: "none" },
    ],
  },
  columns: [
    { key: "connector", label: "Connector", type: "text" },
    { key: "month", label: "Month", type: "text" },
    { key: "status", label: "Status", type: "text" },
  ],
  rows: (count, label = (i) => `Connector ${i + 1}`) =>
    Array.from({ length: count }, (_, i) =>
      Array.from({ length: 12 }, (_, m) => ({
        connector: label(i),
        month: `2024-${String(m + 1).padStart(2, "0")}`,
        status: ["ok", "ok", "failed", "neverRan", "notCreated", "odd"][(i + m) % 6],
      }))).flat(),
};

/** End-of-life dates per application, earliest first. */
export const timelineFixture: ChartFixture = {
  spec: {
    type: "timeline",
    title: "End-of-life dates",
    label: "application",
    date: "endOfLife",
    value: "installations",
  },
  columns: [
    { key: "application", label: "Application", type: "text" },
    { key: "endOfLife", label: "End of life", type: "date" },
    { key: "installations", label: "Installations", type: "integer" },
  ],
  rows: (count, label = name) =>
    Array.from({ length: count }, (_, i) => ({
      application: label(i),
      endOfLife: new Date(Date.UTC(2022 + Math.floor(i / 4), (i * 5) % 12, 1)),
      installations: 10 + i,
    })),
};

/** Spend and shortfall per run, in two currencies. */
export const lineFixture: ChartFixture = {
  spec: {
    type: "line",
    title: "Spend and shortfall per run",
    x: "run",
    series: [{ key: "spend", label: "Spend" }, { key: "shortfall", label: "Shortfall cost" }],
    currency: "currency",
  },
  columns: [
    { key: "run", label: "Run", type: "date" },
    { key: "spend", label: "Spend", type: "currency" },
    { key: "shortfall", label: "Shortfall", type: "currency" },
    { key: "currency", label: "Currency", type: "text" },
  ],
  rows: (count, label) =>
    Array.from({ length: count }, (_, i) =>
      ["EUR", "USD"].map((currency, c) => ({
        run: label ? label(i) : new Date(Date.UTC(2024, 0, 1 + i * 7)),
        spend: 100_000 + i * 1_500 + c * 40_000,
        shortfall: i % 5 === 3 ? null : 8_000 - i * 100,
        currency,
      }))).flat(),
};

/** Every kind's fixture by chart type. */
export const CHART_FIXTURES: Readonly<Record<string, ChartFixture>> = {
  stackedBar: stackedFixture,
  heatMap: heatFixture,
  timeline: timelineFixture,
  line: lineFixture,
};

/** A chart context for `rows` at the fixtures' time. */
export function chartContext(
  columns: readonly Column[],
  total: number,
  id = "t-chart",
): ChartContext {
  return { id, locale: "en-US", columns, now: GENERATED_AT, total };
}

/** A document with one section per chart kind (`count` items each). */
export function chartDocument(count = 8): RenderDocument {
  return {
    report: { id: "charts", title: "Charts", description: "One chart of each kind." },
    generatedAt: GENERATED_AT,
    source: "test",
    params: {},
    summary: [],
    sections: Object.entries(CHART_FIXTURES).map(([kind, f]) =>
      memorySection({
        id: kind,
        title: `Section ${kind}`,
        columns: f.columns,
        rows: f.rows(count),
        chart: f.spec,
      })
    ),
    version: "0.1.0",
  };
}
