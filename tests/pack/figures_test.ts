import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { collectFigures, compareFigures } from "../../lib/pack/figures.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";

function doc(short: number, eur: number): RenderDocument {
  return {
    report: { id: "license-position", title: "License position", description: "" },
    generatedAt: new Date("2026-11-02T06:00:00Z"),
    source: "test",
    params: {},
    summary: [{ label: "Shortfall cost", value: eur, type: "currency", currency: "EUR" }],
    sections: [
      memorySection({
        id: "position",
        title: "Position",
        columns: [
          { key: "application", label: "Application", type: "text" },
          { key: "version", label: "Version", type: "text" },
          { key: "vsRequirement", label: "Surplus vs requirement", type: "number" },
          { key: "cost", label: "Cost", type: "currency" },
        ],
        rows: [
          {
            application: "Visio",
            version: "2021",
            vsRequirement: short,
            cost: eur,
            currency: "EUR",
          },
          { application: "Visio", version: "2019", vsRequirement: 4, cost: 10, currency: "USD" },
        ],
        totals: { sum: ["cost"], perCurrency: "currency" },
      }),
    ],
    version: "test",
  };
}

const tracked = [{
  section: "position",
  key: ["application", "version"],
  value: "vsRequirement",
  label: "Position",
}];

describe("pack figures", () => {
  it("collects facts, per-currency totals and tracked rows named by several keys", async () => {
    const figures = await collectFigures({ id: "license-position", tracked }, doc(-3, 120.5));
    const labels = figures.map((f) => `${f.label}=${f.value}`);
    assert.ok(labels.includes("Shortfall cost (EUR)=120.5"), labels.join("; "));
    assert.ok(labels.includes("Position: Visio 2021=-3"), labels.join("; "));
    assert.ok(labels.includes("Position: Visio 2019=4"), labels.join("; "));
    assert.ok(labels.includes("Position: Cost (EUR)=120.5"), labels.join("; "));
    assert.ok(labels.includes("Position: Cost (USD)=10"), labels.join("; "));
    assert.equal(
      figures.find((f) => f.label === "Position: Cost (USD)=10".split("=")[0])?.currency,
      "USD",
    );
  });

  it("reports what moved, what is new and what disappeared", async () => {
    const before = await collectFigures({ id: "license-position", tracked }, doc(-3, 120.5));
    const after = (await collectFigures({ id: "license-position", tracked }, doc(-7, 130)))
      .filter((f) => f.label !== "Position: Visio 2019");
    after.push({
      key: "new",
      report: "license-position",
      label: "New figure",
      value: 1,
      type: "integer",
    });
    const changes = compareFigures(after, before);
    const byLabel = new Map(changes.map((c) => [c.label, c]));
    assert.equal(byLabel.get("Position: Visio 2021")?.delta, -4);
    assert.equal(byLabel.get("Shortfall cost (EUR)")?.delta, 9.5);
    assert.equal(byLabel.get("New figure")?.previous, null);
    assert.equal(
      byLabel.get("Position: Visio 2019")?.value,
      0,
      "a figure that disappeared reads 0",
    );
    assert.equal(byLabel.get("Position: Visio 2019")?.delta, -4);
    assert.ok(
      compareFigures(after, null).every((c) => c.delta === null),
      "no previous run: nothing moved",
    );
  });
});
