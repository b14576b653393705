/**
 * Distinct names stay distinct: currency codes that differ only in case (`eur`, `EUR`) or only in
 * characters a file name cannot carry (`EU/R`, `EUR`) give sections with distinct ids and distinct
 * CSV files, never one file overwriting another; a report whose sections share an id fails as a
 * definition error before any file is written.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { distinctNames, reportFileName, safeName } from "../../lib/fs/safe_name.ts";
import { defineReport, ReportDefinitionError } from "../../lib/report/model.ts";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { licenseCostSummary, licenseOptimization, licensePosition } from "../../reports/mod.ts";
import { topSectionId } from "../../lib/sam/license_cost_query.ts";

describe("distinctNames", () => {
  it("keeps a safe code alone in its spelling as its lower case", () => {
    const parts = distinctNames(["EUR", "USD", "GBP"]);
    assert.deepEqual([...parts.values()], ["eur", "usd", "gbp"]);
  });

  it("gives codes equal but for case, or equal once made safe, parts distinct without case", () => {
    const eur = distinctNames(["EUR"]).get("EUR");
    const hashedEur = distinctNames(["EUR", "eur"]).get("EUR")!;
    const codes = ["EUR", "eur", "Eur", "EU/R", "EU\\R", "EU_R", "", "..", "CON", hashedEur];
    const parts = distinctNames(codes);
    const lower = codes.map((c) => parts.get(c)!.toLowerCase());
    assert.equal(new Set(lower).size, codes.length, [...parts.values()].join(" "));
    for (const part of parts.values()) {
      assert.match(part, /^[a-z0-9_][a-z0-9._-]*$/);
      assert.equal(safeName(part), part, "a part names its file as it is");
    }
    assert.equal(eur, "eur");
    assert.equal(parts.get("EU_R"), "eu_r");
    assert.notEqual(parts.get(hashedEur), hashedEur, "a code cannot pass for another's part");
  });

  it("does not depend on the order of the codes", () => {
    const codes = ["eur", "EUR", "EU/R", "usd"];
    assert.deepEqual(
      [...distinctNames(codes)].sort(),
      [...distinctNames(codes.toReversed())].sort(),
    );
  });

  it("gives the ranking section of each currency its own id", () => {
    assert.notEqual(topSectionId("EU/R", ["EU/R", "EUR"]), topSectionId("EUR", ["EU/R", "EUR"]));
    assert.notEqual(topSectionId("eur", ["eur", "EUR"]), topSectionId("EUR", ["eur", "EUR"]));
    assert.equal(topSectionId("EUR", ["EUR", "USD"]), "top-applications-eur");
  });
});

describe("a report whose sections share an id", () => {
  it("fails as a definition error before writing any file", async () => {
    const report = defineReport({
      id: "twins",
      title: "Twins",
      description: "Two sections named alike.",
      params: {},
      data: () => ({
        sections: ["by-currency-eur", "by-currency-EUR"].map((id) => ({
          id,
          title: id,
          columns: [{ key: "n", label: "N", type: "integer" as const }],
          rows: [{ n: 1 }],
        })),
      }),
    });
    const base = await Deno.makeTempDir({ prefix: "samkit-twins-" });
    try {
      await assert.rejects(
        runReportForTest({
          server: { url: "http://127.0.0.1:9", token: "t" },
          report,
          formats: ["json", "csv"],
          dir: `${base}/out`,
        }),
        (e: unknown) =>
          e instanceof ReportDefinitionError &&
          /twins: sections "by-currency-eur" and "by-currency-EUR"/.test(e.message),
      );
      assert.deepEqual(await Array.fromAsync(Deno.readDir(base)), []);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  });
});

/** Codes the licenses are given in turn: the demo's EUR, GBP and USD stay on the others. */
const CODES = ["eur", "EU/R", "EUR"];

describe("an estate with currency codes equal but for case or unsafe characters", () => {
  after(closeTestBrowser);

  for (const report of [licenseCostSummary, licensePosition, licenseOptimization]) {
    it(`${report.id}: one section and one CSV file per currency, none overwritten`, async () => {
      await withServer({ computers: 60 }, async (server) => {
        const licenses = server.store.query({ resource: "License", limit: 10_000 }).rows;
        licenses.forEach((license, i) => {
          if (i % 4 === 3) return;
          const code = CODES[i % 4];
          const where = { licenseId: license.id as string };
          server.store.update("licenses", { id: license.id as string }, { purchaseCurrency: code });
          server.store.update("license_costs", where, { currency: code });
          server.store.update("license_cost_summaries", where, { currency: code });
        });
        const run = await runReportForTest({ server, report, formats: ["json", "csv", "xlsx"] });
        const ids: string[] = run.json.sections.map((s: { id: string }) => s.id);
        assert.equal(new Set(ids.map((id) => id.toLowerCase())).size, ids.length, ids.join(" "));
        const csv = run.files.filter((f) => f.endsWith(".csv"));
        assert.equal(csv.length, ids.length, "one CSV file per section");
        assert.equal(new Set(csv.map((f) => f.toLowerCase())).size, csv.length);
        for (const id of ids) run.file("csv", id);
        assert.deepEqual(
          csv.map((f) => f.slice(f.lastIndexOf("/") + 1)).sort(),
          ids.map((id) => reportFileName(report.id, "csv", id)).sort(),
        );
        // The per-currency sections of each family: one for each code that has figures.
        const families = new Map<string, string[]>();
        for (const id of ids) {
          const family = /^(by-publisher|top-applications|exposure|purchase)-/.exec(id)?.[1];
          if (family) families.set(family, [...families.get(family) ?? [], id]);
        }
        assert.ok(families.size > 0, ids.join(" "));
        for (const [family, members] of families) {
          const titles = run.json.sections.filter((s: { id: string }) => members.includes(s.id))
            .map((s: { title: string }) => s.title).join(" | ");
          for (const code of CODES) {
            assert.ok(titles.includes(`(${code})`), `${family}: no section for ${code}: ${titles}`);
          }
        }
      });
    });
  }
});
