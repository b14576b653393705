import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { uniqueLabels } from "../../lib/query/labels.ts";

describe("uniqueLabels", () => {
  it("shows the name alone when unique, with the id when shared or blank", () => {
    const items = [
      { id: "C1", name: "Billing" },
      { id: "C2", name: " Export " },
      { id: "C3", name: "Billing" },
      { id: "C4", name: null },
      { id: "C5", name: "  " },
    ];
    const labels = uniqueLabels(items, (c) => c.name, (c) => c.id, "(unnamed)");
    assert.deepEqual([...labels], [
      ["C1", "Billing (C1)"],
      ["C2", "Export"],
      ["C3", "Billing (C3)"],
      ["C4", "(unnamed) (C4)"],
      ["C5", "(unnamed) (C5)"],
    ]);
  });
});
