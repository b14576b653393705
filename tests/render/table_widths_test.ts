/**
 * A table's spare width goes where its text wraps: a text column asks no more than its longest
 * line, and what the columns do not need goes to the text columns whose lines are longer than
 * their width (license-position's Requirement per device gave a column of "—" as much as its
 * application names, which wrapped).
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { tableLayout } from "../../lib/render/table_layout.ts";

describe("tableLayout's spare width", () => {
  it("goes to the text that wraps, none to a column of dashes", () => {
    const layout = tableLayout(
      [
        { key: "computer", label: "Computer", type: "text", width: 18 },
        { key: "host", label: "Host", type: "text", width: 14 },
        { key: "application", label: "Application", type: "text", width: 28 },
        { key: "requirement", label: "Requirement", type: "integer" },
      ],
      {
        computer: { longestLine: 15, longestWord: 15 },
        host: { longestLine: 1, longestWord: 1 },
        application: { longestLine: 44, longestWord: 10 },
        requirement: { min: 0, max: 160 },
      },
    );
    const [computer, host, application, requirement] = layout.columns;
    assert.ok(host.w < 8, `host asks ${host.w} ch`);
    assert.equal(application.share, 1, "every spare ch to the names that wrap");
    assert.equal(computer.share + host.share + requirement.share, 0);
  });
});
