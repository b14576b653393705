/**
 * Charts as a reader meets them, found by auditing the built-in reports: a timeline whose title
 * promises "installations after the name" draws that figure on every line, a long application name
 * being cut before it rather than the figure after it.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { timelineSvg } from "../../lib/render/charts/timeline.ts";
import type { Column } from "../../lib/report/model.ts";

/** The shown texts of the SVG's `<text>` elements (not their titles), entities resolved. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>(?:<title>[^<]*<\/title>)?([^<]*)<\/text>/g)].map((m) =>
    m[1].replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">")
  );
}

describe("charts found wrong by the visual audit", () => {
  it("draws each timeline item's figure after its name, however long the name", () => {
    const columns: Column[] = [
      { key: "app", label: "Application", type: "text" },
      { key: "eol", label: "End of life", type: "date" },
      { key: "installs", label: "Installations", type: "integer" },
    ];
    const rows = [
      {
        app: "Oracle Database 12c Enterprise Edition 12.1.0.2",
        eol: new Date("2022-03-31"),
        installs: 17,
      },
      {
        app: "Microsoft SQL Server 2014 Enterprise 12.0.6024.0",
        eol: new Date("2024-07-09"),
        installs: 1_204,
      },
      { app: "Java 8", eol: new Date("2030-12-31"), installs: 3 },
    ];
    const svg = timelineSvg(
      {
        type: "timeline",
        title: "End-of-life dates",
        label: "app",
        date: "eol",
        value: "installs",
      },
      rows,
      { id: "t", locale: "en-US", columns, now: new Date("2026-11-28"), total: rows.length },
    );
    const drawn = texts(svg);
    // A long name: the figure on its own after the name cut; a short one: one text, whole.
    for (const figure of ["· 17", "· 1,204"]) {
      assert.ok(drawn.includes(figure), `"${figure}" is drawn: ${drawn.join(" | ")}`);
    }
    assert.ok(drawn.includes("Java 8 · 3"), "a short name is drawn whole with its figure");
    const cut = drawn.find((t) => t.startsWith("Oracle Database 12c"));
    assert.ok(cut?.endsWith("…"), `a long name is cut: ${cut}`);
    assert.ok(svg.includes("<title>Oracle Database 12c Enterprise Edition 12.1.0.2</title>"));
  });
});
