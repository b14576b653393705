import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../../lib/query/group_by.ts";
import {
  connectorStatus,
  inError,
  MONTH_COUNTS,
  MONTH_STATUSES,
  monthResults,
  type MonthStatus,
  monthStatus,
  monthWindow,
  RECORD_FIGURES,
  statusEmphasis,
  statusInWords,
} from "../../lib/sam/connector_status.ts";

const at = (iso: string) => new Date(iso);

describe("connector status", () => {
  it("the window is the complete months before the run's month, most recent first", () => {
    assert.deepEqual(monthWindow(at("2024-01-15T00:00:00Z"), 2), ["2023-12", "2023-11"]);
  });

  it("a month without records never ran, or was not created yet", () => {
    assert.equal(monthStatus([], "2024-01", at("2024-01-31T00:00:00Z")).status, "Never ran");
    assert.equal(monthStatus([], "2024-01", at("2024-02-01T00:00:00Z")).status, "Not created");
  });

  it("the latest record of a month decides; an error code fails it", () => {
    const records = [
      { calendarMonth: "2024-01-01", type: "succeeded", updatedAt: at("2024-02-01T00:00:00Z") },
      {
        calendarMonth: "2024-01-01",
        type: "",
        errorCode: " E1 ",
        updatedAt: at("2024-02-02T00:00:00Z"),
      },
      { calendarMonth: "2023-12-01", type: "inProgress", updatedAt: at("2024-01-02T00:00:00Z") },
    ];
    const months = monthResults(records, ["2024-01", "2023-12", "2023-11"], null);
    assert.deepEqual(months.map((m) => [m.month, m.status, m.errorCode, m.flagged]), [
      ["2024-01", "Failed", "E1", true],
      ["2023-12", "In progress", null, false],
      ["2023-11", "Never ran", null, true],
    ]);
    assert.deepEqual(aggregate(months, MONTH_COUNTS), {
      monthsOk: 0,
      monthsFailed: 1,
      monthsNeverRan: 1,
    });
  });

  it("a record without type is OK when its last success is within or after the month", () => {
    const ok = { calendarMonth: "2024-01-01", lastSuccessTime: at("2024-01-05T00:00:00Z") };
    assert.equal(monthResults([ok], ["2024-01"], null)[0].status, "OK");
    assert.equal(monthResults([ok], ["2024-02"], null)[0].status, "Never ran");
  });

  it("counts records and keeps the last success ever", () => {
    const records = [
      { lastSuccessTime: at("2024-01-05T00:00:00Z") },
      { lastSuccessTime: null },
      { lastSuccessTime: at("2023-01-05T00:00:00Z") },
    ];
    assert.deepEqual(aggregate(records, RECORD_FIGURES), {
      retrievals: 3,
      lastSuccess: at("2024-01-05T00:00:00Z"),
    });
  });

  it("a connector is in error with an error code or a failed status", () => {
    const failed = connectorStatus({ status: { type: "failed", errorCode: "  " } });
    assert.deepEqual(failed, { status: "Failed", errorCode: null, statusUpdatedAt: null });
    assert.equal(inError(failed), true);
    assert.equal(inError(connectorStatus({ status: { type: "succeeded", errorCode: "X" } })), true);
    assert.equal(inError(connectorStatus({ status: null })), false);
    assert.equal(statusEmphasis({ status: "Failed" }), "bad");
    assert.equal(statusEmphasis({ status: "OK" }), undefined);
  });
});

describe("connector status words", () => {
  it("says the API's status codes in the months' words, and spells out others", () => {
    assert.deepEqual(
      ["succeeded", "failed", "inProgress", "notStarted", "pausedByUser", " ", null].map(
        statusInWords,
      ),
      ["OK", "Failed", "In progress", "Not started", "Paused by user", null, null],
    );
  });

  it("the heat map knows every month status, in the table's words", () => {
    const statuses: MonthStatus[] = ["OK", "Failed", "In progress", "Never ran", "Not created"];
    assert.deepEqual(MONTH_STATUSES.map((s) => s.value).sort(), [...statuses].sort());
    assert.ok(MONTH_STATUSES.every((s) => s.label === undefined));
  });
});
