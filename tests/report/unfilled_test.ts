import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { memorySection, spoolSection } from "../../lib/report/spool.ts";
import { text } from "../../lib/report/columns.ts";
import type { Section } from "../../lib/report/model.ts";
import { JsonRenderer } from "../../lib/render/json.ts";

const section = (rows: Section["rows"]): Section => ({
  id: "apps",
  title: "Applications",
  description: "Installed applications.",
  columns: [
    text("application", "Application"),
    text("version", "Version", { whenUnfilled: "drop" }),
    text("notes", "Notes"),
  ],
  rows,
});

describe("columns the source does not fill", () => {
  it("leaves out a droppable column no row fills, with a note in the description", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const s = await spoolSection(
        section([{ application: "Visio", version: null, notes: null }]),
        {
          dir,
        },
      );
      assert.deepEqual(s.columns.map((c) => c.key), ["application", "notes"]);
      assert.equal(
        s.description,
        "Installed applications. Version: not shown, the source sent no value for it on any row.",
      );
      assert.deepEqual(s.omittedColumns?.map((c) => c.key), ["version"]);
      await s.dispose();
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("keeps it when one row fills it, and when the section has no rows", () => {
    const one = memorySection(section([{ application: "A", version: null }, {
      application: "B",
      version: "2019",
    }]));
    assert.deepEqual(one.columns.map((c) => c.key), ["application", "version", "notes"]);
    assert.equal(one.omittedColumns, undefined);
    const none = memorySection(section([]));
    assert.deepEqual(none.columns.map((c) => c.key), ["application", "version", "notes"]);
  });

  it("never drops a column not declared droppable, empty as it is", () => {
    const s = memorySection(section([{ application: "A", version: "1", notes: "" }]));
    assert.ok(s.columns.some((c) => c.key === "notes"));
  });

  it("writes the omitted columns in the JSON section, and nothing extra when none is", async () => {
    const out = await Deno.makeTempDir();
    try {
      const doc = (rows: Section["rows"]) => ({
        report: { id: "r", title: "R", description: "" },
        generatedAt: new Date("2024-01-01T00:00:00Z"),
        source: "test",
        params: {},
        summary: [],
        sections: [memorySection(section(rows))],
        version: "0",
      });
      const json = async (rows: Section["rows"]) => {
        await new JsonRenderer().render(doc(rows), { outDir: out });
        return JSON.parse(await Deno.readTextFile(`${out}/r.json`)).sections[0];
      };
      const dropped = await json([{ application: "A", version: null }]);
      assert.deepEqual(dropped.columns.map((c: { key: string }) => c.key), [
        "application",
        "notes",
      ]);
      assert.deepEqual(dropped.omittedColumns.map((c: { key: string }) => c.key), ["version"]);
      assert.deepEqual(Object.keys(dropped.rows[0]), ["application", "notes"]);
      const kept = await json([{ application: "A", version: "1" }]);
      assert.equal("omittedColumns" in kept, false);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
});
