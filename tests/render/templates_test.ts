import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  BODY_MARKER,
  loadTemplates,
  ROWS_MARKER,
  splitAt,
  TEMPLATE_DIR,
} from "../../lib/render/templates.ts";

describe("templates", () => {
  it("compiles once per process", () => {
    assert.equal(loadTemplates(), loadTemplates());
  });

  it("has exactly one body marker in the layout and one rows marker in a section", async () => {
    const { layout, section } = loadTemplates();
    const page = layout({ report: { title: "T" } });
    assert.equal(page.split(BODY_MARKER).length, 2);
    const table = section({ columns: [{ label: "A", class: "text" }] });
    assert.equal(table.split(ROWS_MARKER).length, 2);
    const [head, tail] = splitAt(table, ROWS_MARKER);
    assert.ok(head.includes("<tbody>") && tail.includes("</tbody>"));
    // No template triple-stashes a value (partials are the only raw insertion).
    for await (const entry of Deno.readDir(TEMPLATE_DIR)) {
      if (!entry.name.endsWith(".hbs")) continue;
      const text = await Deno.readTextFile(new URL(entry.name, TEMPLATE_DIR));
      assert.equal(text.includes("{{{"), false, entry.name);
      assert.equal(/\{\{&/.test(text), false, entry.name);
    }
  });

  it("formats through helpers with the root locale or a locale argument, and escapes", () => {
    const { layout } = loadTemplates();
    const generatedAt = new Date("2024-05-01T08:30:00Z");
    const base = {
      includeCover: true,
      report: { title: "<b>T</b>", id: "t", description: "" },
      generatedAt,
      source: "s",
      version: "1",
    };
    const en = layout({ ...base, locale: "en-US" });
    assert.ok(en.includes("May 1, 2024, 08:30 UTC"));
    assert.ok(en.includes("<title>&lt;b&gt;T&lt;/b&gt;</title>"));
    const de = layout({ ...base, locale: "de-DE" });
    assert.ok(de.includes("1. Mai 2024, 08:30 UTC"));
    const facts = layout({
      ...base,
      includeSummary: true,
      locale: "de-DE",
      summary: [{ label: "Kosten", value: 1234.5, type: "currency", currency: "EUR" }],
    });
    assert.ok(facts.includes("1.234,50\u00a0€"));
  });
});
