/**
 * Sections of one title told apart by a closing qualifier in brackets (one per currency, per
 * metric) keep that qualifier on their sheet tabs: trends' GBP and USD panels were "Cost to date
 * (2)" and "Cost to date (3)", naming no currency.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readableSheetName, SHEET_NAME_MAX, sheetName } from "../../lib/render/xlsx_sheet_names.ts";

const CURRENCIES = ["EUR", "GBP", "USD", "JPY"];

/** Titles built as the reports build their per-currency (or per-metric) sections. */
const TITLES: Record<string, (q: string) => string> = {
  "trends money": (c) => `Cost to date and shortfall cost (${c})`,
  "license-position shortfall by publisher": (c) => `Shortfall cost by publisher (${c})`,
  "license-position exposure by publisher": (c) => `Exposure by publisher (${c})`,
  "a long title per metric": (m) => `Unused installations per application and organization (${m})`,
};

describe("sheet tabs of sections per currency", () => {
  for (const [what, title] of Object.entries(TITLES)) {
    it(`${what}: every tab names its currency, within 31 characters, all distinct`, () => {
      const taken = new Set<string>(["summary"]);
      const names = CURRENCIES.map((c) => sheetName(title(c), taken, "", `section-${c}`));
      names.forEach((name, i) => {
        assert.ok(name.endsWith(`(${CURRENCIES[i]})`), `${name} names no ${CURRENCIES[i]}`);
        assert.ok(name.length <= SHEET_NAME_MAX, name);
      });
      assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length, names.join());
    });
  }

  it("keeps the trends tab's readable head and a qualifier too long for half the room is not kept", () => {
    assert.equal(readableSheetName("Cost to date and shortfall cost (GBP)"), "Cost to date (GBP)");
    const scoped = "Licences in scope (organization ORG02 and its sub-organizations)";
    assert.ok(!readableSheetName(scoped).includes("ORG02"), readableSheetName(scoped));
  });
});
