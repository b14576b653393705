/**
 * Column formulas become formulas of the cell's own row, and only the formula language samkit
 * writes gets into a workbook: an unknown column or function (HYPERLINK, WEBSERVICE, …), a
 * reference to the column itself or a character outside the language is refused, naming the
 * section and column.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ColumnFormulaError, compileRowFormula } from "../../lib/render/xlsx_row_formulas.ts";
import type { Column } from "../../lib/report/model.ts";

const columns: Column[] = [
  { key: "purchased", label: "Purchased", type: "integer" },
  { key: "received", label: "Received", type: "integer" },
  { key: "given", label: "Given", type: "integer" },
  { key: "entitlements", label: "Entitlements", type: "integer" },
];

function formulaOf(formula: string) {
  return compileRowFormula("positions", { ...columns[3], formula }, columns);
}

describe("compileRowFormula", () => {
  it("refers to the cells of the row it is written in", () => {
    const formula = formulaOf('IF(given = "", "", purchased + received - given)')!;
    assert.equal(formula(2), 'IF(C2="","",A2+B2-C2)');
    assert.equal(formula(1_048_576), 'IF(C1048576="","",A1048576+B1048576-C1048576)');
    assert.equal(compileRowFormula("positions", columns[0], columns), undefined);
  });

  it("refuses what is not samkit's formula language, naming section and column", () => {
    for (
      const [formula, what] of [
        ['HYPERLINK("http://x", purchased)', /calls HYPERLINK/],
        ["WEBSERVICE(purchased)", /calls WEBSERVICE/],
        ["purchased + bought", /names bought, not a column/],
        ["entitlements + 1", /its own column/],
        ["purchased; given", /";" at 9/],
        ["'Other sheet'!A1", /"'" at 0/],
        ["1 + 2", /names no column/],
      ] as const
    ) {
      assert.throws(() => formulaOf(formula), (error: Error) => {
        assert.ok(error instanceof ColumnFormulaError, formula);
        assert.match(error.message, /section "positions", column "entitlements"/);
        assert.match(error.message, what);
        return true;
      });
    }
  });
});
