import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { aggregate } from "../../lib/query/group_by.ts";
import { costLine, costSubtotals, purchasePerUnit } from "../../lib/sam/license_cost_lines.ts";
import { inPurchaseRange } from "../../lib/sam/purchase_range.ts";

const summary = {
  licenseId: "L1",
  currency: " EUR ",
  quantity: 4,
  purchaseCost: 100.005,
  currentMaintenanceCost: null,
  accumulatedMaintenanceCost: 10,
  currentSupportCost: 0,
  accumulatedSupportCost: 0,
  totalCost: 110,
  averageCostPerLicensePurchase: 25,
};

describe("license cost lines", () => {
  it("reads a costed license to the cent and an uncosted one with a note", () => {
    const costed = costLine(
      { id: "L1", quantity: null } as never,
      { summary, vendor: "Dell" },
      undefined,
    );
    assert.equal(costed.currency, "EUR");
    assert.equal(costed.purchaseCost, 100.01);
    assert.equal(costed.quantity, 4);
    assert.equal(costed.note, null);
    const bare = costLine(
      { id: "L2", quantity: 2 } as never,
      { summary: null, vendor: null },
      undefined,
    );
    assert.equal(bare.vendor, "(no vendor)");
    assert.equal(bare.currency, "(none)");
    assert.equal(bare.costToDate, null);
  });
  it("sums costed lines (missing figures as 0) over their quantity only; a group without costs is blank", () => {
    const a = costLine({ id: "L1", quantity: 4 } as never, { summary, vendor: null }, undefined);
    const b = costLine(
      { id: "L2", quantity: 6 } as never,
      { summary: null, vendor: null },
      undefined,
    );
    const all = aggregate([a, b], costSubtotals());
    assert.equal(all.licenses, 2);
    assert.equal(all.withoutCosts, 1);
    assert.equal(all.quantity, 4, "the uncosted license's 6 are not in the quantity");
    assert.equal(all.currentMaintenance, 0);
    assert.equal(all.averageCost, 25, "100.01 ÷ 4, the printed purchase over the printed qty");
    const blank = aggregate([b], costSubtotals());
    assert.deepEqual([blank.costToDate, blank.quantity, blank.averageCost], [null, null, null]);
  });
  it("a line's average is its printed purchase ÷ its printed quantity, not the service's", () => {
    const line = costLine(
      { id: "L1", quantity: 3 } as never,
      { summary: { ...summary, averageCostPerLicensePurchase: 25 }, vendor: null },
      undefined,
    );
    assert.equal(line.averageCost, 33.34);
    assert.equal(purchasePerUnit(100.01, 0), null);
  });
  it("a date-only end of a purchase range includes that whole day", () => {
    const to = new Date("2023-05-31T00:00:00Z");
    assert.ok(inPurchaseRange(new Date("2023-05-31T23:00:00Z"), undefined, to));
    assert.ok(!inPurchaseRange(new Date("2023-06-01T00:00:00Z"), undefined, to));
  });
});
