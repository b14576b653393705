import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  cleanSheetText,
  readableSheetName,
  SHEET_NAME_MAX,
  sheetName,
} from "../../lib/render/xlsx_sheet_names.ts";
import { API_REPORTS } from "../../reports/mod.ts";
import { withServer } from "../helpers/server.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import type { RenderSection } from "../../lib/render/renderer.ts";
import { type RawSheet, readSheetXml } from "./xlsx_sheet_xml.ts";
import { evaluateTotals } from "./xlsx_formula_eval.ts";
import { shownTotal } from "../../lib/render/totals_cells.ts";

/**
 * Section titles of the reports (and the scopes they can carry) → the sheet name they get. Those
 * within 31 characters keep their title.
 */
const NAMES: Readonly<Record<string, [id: string, name: string]>> = {
  "Applications per entitlement state, by computer": ["computers", "Apps per entitlement state"],
  "Entitlement state of each application": ["detail", "Entitlement state of each app"],
  "Servers and virtualisation hosts": ["hosts", "Servers & virtualisation hosts"],
  "Compliance by publisher and metric": ["publishers", "Compliance by publisher"],
  "Reconciliation with entitlement states": ["reconciliation", "Reconciliation"],
  "Cross-check with the service's compliance summary": ["cross-check", "Cross check"],
  "Licenses and transfers that make the entitlements": ["licenses", "Licenses & transfers"],
  "Retrieval status per connector and month": ["status", "Retrieval status per connector"],
  "Unused installations per application": ["applications", "Unused installs per app"],
  "Installations unused for 30 days or more": ["installations", "Installs unused for 30+ days"],
  "Reclaimable license value per currency": ["reclaim-value", "Reclaim value"],
  "End-of-life installations per organization and computer": [
    "computers",
    "End-of-life installs per org",
  ],
  "End-of-life applications installed (organization Contoso EMEA / IT, id ORG07)": [
    "applications",
    "End-of-life apps installed",
  ],
  "Effective license position (organization ORG99)": ["positions", "Effective license position"],
  "Stale and quarantined computers per organization": ["organizations", "Organizations"],
  "Stale and quarantined computers": ["computers", "Stale and quarantined computers"],
  "Top applications by cost (EUR)": ["top-applications-eur", "Top applications by cost (EUR)"],
  "Retrievals per calendar month": ["months", "Retrievals per calendar month"],
  // A comma ends a phrase: the range after it goes whole or not at all (not "… month 2025-06").
  "Renewals by month, 2025-06 to 2026-06": ["months", "Renewals by month"],
};

/** A readable name: fits, nothing Excel forbids, no dangling `per`/`by`/`&`, no cut word. */
function assertReadable(name: string, title: string, id: string): void {
  assert.ok(name.length > 0 && name.length <= SHEET_NAME_MAX, name);
  assert.doesNotMatch(name, /[\[\]:*?/\\]|^'|'$/, name);
  assert.doesNotMatch(name, /\s(per|by|&|and|of|with|the)$/i, name);
  const words = new Set(
    `${cleanSheetText(title)} ${id.replace(/[-_]/g, " ")}`.toLowerCase().split(/[\s,]+/),
  );
  const known = ["&", "app", "apps", "org", "orgs", "installs", "install", "virt."];
  for (const word of name.replace(/ \(\d+\)$/, "").toLowerCase().split(" ")) {
    const plain = word.replace(/^\d+\+$/, "");
    if (plain === "") continue;
    assert.ok(words.has(plain) || known.includes(plain), `"${word}" of "${name}" cut or made up`);
  }
}

describe("readableSheetName", () => {
  for (const [title, [id, name]] of Object.entries(NAMES)) {
    it(`names "${title}" "${name}"`, () => {
      assert.equal(readableSheetName(title, { id }), name);
      assertReadable(name, title, id);
    });
  }

  it("cuts a word only when a single word is longer than the limit", () => {
    assert.equal(
      readableSheetName("Supercalifragilisticexpialidocious-licences"),
      "Supercalifragilisticexpialidoci",
    );
    assert.equal(readableSheetName("Alpha beta gamma delta", { limit: 12 }), "Alpha beta");
  });

  it("keeps leading words only where a phrase ends, never cutting one short", () => {
    const cases: [string, string][] = [
      ["Reconciliation with entitlement states", "Reconciliation"],
      ["Cross-check with the service's compliance summary", "Cross-check"],
      ["Licenses and transfers that make the entitlements", "Licenses & transfers"],
      [
        "Installations waiting for approval by the licence manager",
        "Installs waiting for approval",
      ],
      ["Requirement of every device in the data centre cluster", "Requirement of every device"],
    ];
    for (const [title, name] of cases) {
      assert.equal(readableSheetName(title), name, title);
      // The word after the name in the title opens a phrase (or there is none).
      const words = title.replace(/\band\b/g, "&").replace(/installations/gi, "Installs")
        .split(" ");
      const kept = name.split(" ").length;
      const next = words[kept]?.toLowerCase();
      assert.ok(
        next === undefined || ["with", "that", "by", "for", "in", "of", "per", "&"].includes(next),
        `"${name}" ends before "${next}"`,
      );
    }
  });

  it("is deterministic and leaves a fitting title alone but for forbidden characters", () => {
    assert.equal(readableSheetName("Cost: [EU] */?"), "Cost - (EU) -");
    assert.equal(readableSheetName("Licences by vendor"), "Licences by vendor");
    const title = "Stale and quarantined computers per organization";
    assert.equal(
      readableSheetName(title, { id: "orgs" }),
      readableSheetName(title, { id: "orgs" }),
    );
  });
});

describe("sheetName", () => {
  it("makes duplicates unique with a suffix, shortening again to leave it room", () => {
    const taken = new Set<string>();
    const title = "Applications per entitlement state, by computer";
    const first = sheetName(title, taken, "", "computers");
    const second = sheetName(title, taken, "", "computers");
    assert.equal(first, "Apps per entitlement state");
    assert.equal(second, "Apps per entitlement state (2)");
    const third = sheetName("Reconciliation with entitlement states", taken, " (2)");
    assert.equal(third, "Reconciliation (2)");
    assert.equal(taken.size, 3);
  });
});

/** The cells of a section's totals lines and the formulas' values, checked against its totals. */
function checkTotals(section: RenderSection, sheetName: string, sheet: RawSheet): number {
  if (!section.totalsSpec || section.rowCount === 0) return 0;
  const lines = Object.entries(section.totals);
  let formulas = 0;
  lines.forEach(([label, values], i) => {
    const row = section.rowCount + 3 + i;
    section.columns.forEach((column, c) => {
      if (!section.totalsSpec!.sum.includes(column.key)) return;
      const cell = sheet.cells.get(`${String.fromCharCode(65 + c)}${row}`);
      const where = `${sheetName} ${label} ${column.key}`;
      if (shownTotal(column, label, values[column.key]) === undefined) {
        // Money of rows without a currency code: none to show, not a 0.
        assert.equal(cell?.value, undefined, where);
        return;
      }
      assert.ok(Math.abs(Number(cell?.value) - values[column.key]) < 0.005, where);
      if (cell?.formula === undefined) return;
      formulas++;
      assert.ok(
        Math.abs(
          evaluateTotals(cell.formula, sheetName, new Map([[sheetName, sheet]])) -
            values[column.key],
        ) < 0.005,
        where,
      );
    });
  });
  return formulas;
}

describe("every report's workbook", () => {
  it("has unique, readable sheet names and totals that are formulas of their rows", async () => {
    await withServer({}, async (srv) => {
      const query = createQueryContext(); // one run's reads, shared as a pack's reports share them
      for (const report of API_REPORTS) {
        const run = await runReportForTest({ server: srv, report, formats: ["xlsx"], query });
        const sheets = await readSheetXml(run.file("xlsx"));
        const names = [...sheets.keys()];
        const sections = run.result.document.sections;
        assert.equal(names[0], "Summary");
        assert.equal(names.length, sections.length + 1, report.id);
        assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length, report.id);
        let formulas = 0;
        sections.forEach((section, i) => {
          const name = names[i + 1];
          assertReadable(name, section.title, section.id);
          if (NAMES[section.title]) assert.equal(name, NAMES[section.title][1]);
          if (section.title.length <= SHEET_NAME_MAX && !/[\[\]:*?/\\]/.test(section.title)) {
            assert.equal(name.replace(/ \(\d+\)$/, ""), section.title);
          }
          const sheet = sheets.get(name)!;
          assert.equal(sheet.pane?.state, "frozen", name);
          assert.equal(sheet.pane?.ySplit, "1", name);
          formulas += checkTotals(section, name, sheet);
        });
        const summed = sections.some((s) => s.rowCount > 0 && (s.totalsSpec?.sum.length ?? 0) > 0);
        if (summed) assert.ok(formulas > 0, `${report.id}: totals as formulas`);
      }
    });
  });
});
