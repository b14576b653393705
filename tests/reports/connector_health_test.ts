import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { readXlsx } from "../helpers/run_report.ts";
import { connectorHealth } from "../../reports/connector_health.ts";
import {
  compareRows,
  CONNECTORS,
  type Expected,
  rawAll,
  type RawApi,
  type RawItem,
  runAt,
} from "./support/raw_api.ts";
import { assertNoData, assertRows, byLabel } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";

const TOKEN = "connector-health-test-token";

const CONNECTOR_FIELDS = {
  status: "Status",
  errorCode: "Error code",
  lastSuccess: "Last successful retrieval",
  retrievals: "Retrieval records",
  monthsOk: "Months OK",
  monthsFailed: "Months failed",
  monthsNeverRan: "Months never ran",
};
const CONNECTOR_LABELS = [
  "Connector",
  "Type",
  "Created",
  "Status",
  "Error code",
  "Status updated",
  "Last successful retrieval",
  "Retrieval records",
  "Months OK",
  "Months failed",
  "Months never ran",
];
const MONTH_FIELDS = { status: "Status", errorCode: "Error code", flagged: "Flagged" };
const MONTH_LABELS = [
  "Connector",
  "Month",
  "Status",
  "Error code",
  "Last successful retrieval",
  "Last attempt",
  "Flagged",
];

/** The connector status codes of the API in the report's words (the months' vocabulary). */
const STATUS_WORDS: Record<string, string> = {
  succeeded: "OK",
  failed: "Failed",
  inProgress: "In progress",
  notStarted: "Not started",
};

const connectorKey = (r: Record<string, unknown>) => String(r["Connector"]);
const monthKey = (r: Record<string, unknown>) => `${r["Connector"]}|${r["Month"]}`;

/** The `count` months before the month of `now`, as `YYYY-MM`. */
function window(now: Date, count: number): string[] {
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    out.push(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
    );
  }
  return out;
}

/** Expected rows from raw API JSON. */
async function expectedFigures(api: RawApi, months: number) {
  const connectors = await rawAll(api, `${CONNECTORS}/connectors`);
  const connectorRows = new Map<string, Record<string, Expected>>();
  const monthRows = new Map<string, Record<string, Expected>>();
  for (const c of connectors) {
    const records = await rawAll(api, `${CONNECTORS}/connectors/${c.id}/retrievals`);
    const counts = { ok: 0, failed: 0, never: 0 };
    for (const month of window(TEST_NOW, months)) {
      const mine = records.filter((r) => r.calendarMonth.startsWith(month));
      let status: string;
      let errorCode: string | null = null;
      if (mine.length === 0) {
        const [y, m] = month.split("-").map(Number);
        status = Date.parse(c.createdAt) >= Date.UTC(y, m, 1) ? "Not created" : "Never ran";
      } else {
        const last = mine.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
        if (last.errorCode) [status, errorCode] = ["Failed", last.errorCode];
        else if (last.type === "inProgress") status = "In progress";
        else if (last.type === "succeeded") status = "OK";
        else status = "Never ran";
      }
      if (status === "OK") counts.ok++;
      if (status === "Failed") counts.failed++;
      if (status === "Never ran") counts.never++;
      monthRows.set(`${c.name}|${month}`, {
        status,
        errorCode,
        flagged: status === "Failed" || status === "Never ran",
      });
    }
    const successes = records.map((r: RawItem) => r.lastSuccessTime).filter(Boolean).sort();
    connectorRows.set(c.name, {
      status: c.status?.type ? STATUS_WORDS[c.status.type] : null,
      errorCode: c.status?.errorCode ?? null,
      lastSuccess: successes.length
        ? new Date(successes[successes.length - 1]).toISOString()
        : null,
      retrievals: records.length,
      monthsOk: counts.ok,
      monthsFailed: counts.failed,
      monthsNeverRan: counts.never,
    });
  }
  return { connectorRows, monthRows };
}

describe("connector-health against the generated connectors", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });

  it("connector status and month-by-month outcome equal an independent computation in JSON, CSV and XLSX", async () => {
    const want = await expectedFigures(fixture.api, 12);
    const statuses = new Set([...want.monthRows.values()].map((r) => r.status));
    for (const s of ["OK", "Failed", "Never ran", "Not created"]) {
      assert.ok(statuses.has(s), `the generated history has ${s} months`);
    }
    const out = await runAt(fixture.api, connectorHealth, { now: TEST_NOW });
    const [connectors, months] = out.json.sections;
    assert.equal(months.rows.length, connectors.rows.length * 12);
    await assertRows(out, {
      section: "connectors",
      labels: CONNECTOR_LABELS,
      expected: want.connectorRows,
      keyOf: connectorKey,
      fields: CONNECTOR_FIELDS,
    });
    await assertRows(out, {
      section: "months",
      labels: MONTH_LABELS,
      expected: want.monthRows,
      keyOf: monthKey,
      fields: MONTH_FIELDS,
    });
    const failed = [...want.monthRows.values()].filter((r) => r.status === "Failed").length;
    const fact = out.result.document.summary.find((f) => f.label === "Months failed");
    assert.equal(fact?.value, failed);
  });

  it("shows a connector with no retrievals, its months before creation marked Not created", async () => {
    const out = await runAt(fixture.api, connectorHealth, { now: TEST_NOW, formats: ["json"] });
    const [connectors, months] = out.json.sections;
    const empty = connectors.rows.filter((r: { retrievals: number }) => r.retrievals === 0);
    assert.equal(empty.length, 1, "the generated estate has one connector that never retrieved");
    const rows = months.rows.filter((r: { connector: string }) =>
      r.connector === empty[0].connector
    );
    assert.equal(rows.length, 12);
    assert.ok(rows.every((r: { status: string }) => r.status === "Not created"));
    assert.equal(empty[0].lastSuccess, null);
  });

  it("checks as many months as the months parameter asks for", async () => {
    const want = await expectedFigures(fixture.api, 3);
    const out = await runAt(fixture.api, connectorHealth, {
      now: TEST_NOW,
      formats: ["json"],
      params: { months: "3" },
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[1]), want.monthRows, monthKey, MONTH_FIELDS),
      [],
    );
  });

  it("says every status in words, and draws the months as a heat map with a legend in words", async () => {
    const out = await runAt(fixture.api, connectorHealth, {
      now: TEST_NOW,
      formats: ["json", "csv", "html"],
    });
    const [connectors] = out.json.sections;
    const statuses = new Set(connectors.rows.map((r: { status: string }) => r.status));
    assert.deepEqual([...statuses].sort(), ["Failed", "In progress", "Not started", "OK"]);
    const texts = [
      await Deno.readTextFile(out.file("json")),
      await Deno.readTextFile(out.file("csv", "connectors")),
      await Deno.readTextFile(out.file("csv", "months")),
      await Deno.readTextFile(out.file("html")),
    ];
    for (const text of texts) {
      for (const code of Object.keys(STATUS_WORDS)) {
        assert.ok(!new RegExp(`(^|[>",])${code}($|[<",\r\n])`, "m").test(text), code);
      }
    }
    const html = texts[3];
    assert.ok(html.includes('class="chart-svg chart-heat-map"'));
    assert.ok(html.includes('-title">Retrieval status per connector and month</title>'));
    for (const word of ["OK", "In progress", "Failed", "Never ran", "Not created"]) {
      assert.ok(html.includes(`>${word}</text>`), `legend entry ${word}`);
    }
  });

  it("never writes a connector's access key or secret key", async () => {
    const stored = fixture.srv.store.query({ resource: "CloudConnector", limit: 100 }).rows;
    const secrets = stored.flatMap((r) => [r.accessKey, r.secretKey]).map(String);
    assert.ok(secrets.length >= 2 && secrets.every((s) => s.length >= 10));
    const out = await runAt(fixture.api, connectorHealth, { now: TEST_NOW });
    const texts = [
      await Deno.readTextFile(out.file("json")),
      await Deno.readTextFile(out.file("csv", "connectors")),
      await Deno.readTextFile(out.file("csv", "months")),
      JSON.stringify(await readXlsx(out.file("xlsx"))),
    ];
    for (const text of texts) {
      for (const secret of secrets) assert.ok(!text.includes(secret));
      assert.ok(!/accessKey|secretKey/i.test(text));
    }
  });
});

describe("connector-health edge data", () => {
  const fixture = serverFixture({ computers: 0, token: TOKEN });

  it("renders every section with its no-data text when no connector is configured", async () => {
    const out = await runAt(fixture.api, connectorHealth, { now: TEST_NOW });
    await assertNoData(out, {
      xlsx: [
        [CONNECTOR_LABELS, "No cloud connector is configured."],
        [MONTH_LABELS, "No cloud connector is configured, so there is no retrieval history."],
      ],
      csv: ["months"],
    });
  });

  it("flags every month of an old connector that never retrieved as Never ran", async () => {
    fixture.srv.store.insert("connectors", {
      id: "CCX1",
      name: "Forgotten",
      type: "Provider A Object Store",
      createdAt: new Date("2020-01-01T00:00:00Z"),
      status_type: "notStarted",
      status_errorCode: null,
      accessKey: "AKEXFORGOTTENKEY0001",
      secretKey: "forgotten-secret-value-0001",
    });
    const out = await runAt(fixture.api, connectorHealth, { now: TEST_NOW, params: { months: 6 } });
    const [connectors] = out.json.sections;
    assert.deepEqual(
      connectors.rows.map((
        r: Record<string, unknown>,
      ) => [r.connector, r.retrievals, r.monthsNeverRan]),
      [["Forgotten", 0, 6]],
    );
    const expected = new Map<string, Record<string, Expected>>(
      window(TEST_NOW, 6).map((m) => [`Forgotten|${m}`, { status: "Never ran", flagged: true }]),
    );
    await assertRows(out, {
      section: "months",
      expected,
      keyOf: monthKey,
      fields: MONTH_FIELDS,
      formats: ["json", "csv"],
    });
    const json = await Deno.readTextFile(out.file("json"));
    assert.ok(!json.includes("forgotten-secret-value-0001") && !json.includes("AKEXFORGOTTEN"));
  });
});
