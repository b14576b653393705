import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { filterStatement, reportScope } from "../../lib/report/scope.ts";
import { licenseCostSummary, staleComputers } from "../../reports/mod.ts";
import { readXlsx, runReportForTest } from "../helpers/run_report.ts";
import { withServer } from "../helpers/server.ts";

describe("reportScope", () => {
  it("lists every declared parameter with its origin, and the filter", () => {
    const scope = reportScope(licenseCostSummary, { top: 5, organization: "ORG02" }, "x -eq 1");
    const byName = Object.fromEntries(scope.parameters.map((p) => [p.name, p]));
    assert.deepEqual(
      Object.keys(byName).sort(),
      Object.keys(licenseCostSummary.params).sort(),
    );
    assert.equal(byName.organization.origin, "given");
    assert.equal(byName.purchasedFrom.origin, "unset");
    assert.equal(
      byName.top.origin,
      licenseCostSummary.params.top.default === 5 ? "default" : "given",
    );
    assert.equal(scope.filter, "x -eq 1");
  });

  it("says 'None: every …' for a report that takes a filter and got none", () => {
    assert.equal(
      filterStatement({ parameters: [], filterResource: "ComputerApplication" }),
      "None: every computer application",
    );
    assert.equal(filterStatement({ parameters: [] }), undefined);
  });
});

describe("a filtered report states its scope", () => {
  it("on the cover, in the XLSX Summary and in the JSON", async () => {
    await withServer({}, async (server) => {
      const filter = "vendor -ne Adobe";
      const run = await runReportForTest({
        server,
        report: licenseCostSummary,
        filter,
        params: { organization: "ORG01" },
        formats: ["json", "html", "xlsx"],
      });
      try {
        assert.equal(run.json.scope.filter, filter);
        const parameters = Object.fromEntries(
          run.json.scope.parameters.map((p: { name: string }) => [p.name, p]),
        );
        // The organisation is named beside its id wherever the scope is stated.
        assert.deepEqual(parameters.organization, {
          name: "organization",
          value: "ORG01",
          origin: "given",
          label: "Contoso",
        });
        assert.equal(parameters.purchasedFrom.origin, "unset");
        assert.equal(parameters.purchasedFrom.value, null);

        const html = await Deno.readTextFile(run.file("html"));
        assert.match(html, /<dt>Filter<\/dt><dd><code>vendor -ne Adobe<\/code>/);
        assert.match(html, /Not set: [^<]*purchasedFrom/);
        assert.match(html, /<th scope="row">organization<\/th><td>Contoso \(ORG01\)<\/td>/);
        assert.doesNotMatch(html, /takes no parameters/);

        const summary = (await readXlsx(run.file("xlsx")))["Summary"];
        const row = (name: string) => summary.find((r) => r[0] === name);
        assert.deepEqual(row("Filter")?.slice(0, 2), ["Filter", filter]);
        assert.deepEqual(row("organization")?.slice(0, 2), ["organization", "Contoso (ORG01)"]);
        assert.deepEqual(row("purchasedFrom")?.slice(0, 2), ["purchasedFrom", "not set"]);
      } finally {
        await Deno.remove(run.dir, { recursive: true });
      }
    });
  });

  it("an unfiltered report says it has no filter; its parameters are never 'none'", async () => {
    await withServer({}, async (server) => {
      const run = await runReportForTest({
        server,
        report: staleComputers,
        formats: ["json", "html"],
      });
      try {
        assert.equal(run.json.scope.filter, null);
        const html = await Deno.readTextFile(run.file("html"));
        if (staleComputers.filterResource) assert.match(html, /<dt>Filter<\/dt><dd>None: every /);
        assert.doesNotMatch(html, /takes no parameters/);
        for (const name of Object.keys(staleComputers.params)) assert.match(html, new RegExp(name));
      } finally {
        await Deno.remove(run.dir, { recursive: true });
      }
    });
  });
});
