/**
 * Run diff: what changed between two audits — two pack run folders, each read offline from its
 * `snapshot.sqlite` (checked against its manifest) with the parameters its license-position ran
 * with. Computers added, removed and changed, installs that appeared and disappeared, licenses
 * added, removed and changed, every position whose shortfall or surplus changed with what moved
 * it, and money per currency. Runs of different sources are refused. Reading and comparing:
 * `lib/pack/diff_*.ts`. `deno task diff RUN_A RUN_B` runs it.
 *
 * @module
 */

import { datetime, integer, money, number, text } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { computerChanges, installChanges, licenseChanges } from "../lib/pack/diff_compare.ts";
import { moneyChanges, positionChanges } from "../lib/pack/diff_positions.ts";
import { checkRunFolder, readRunState, type RunState } from "../lib/pack/diff_read.ts";
import { RunFolderError } from "../lib/pack/verify_run.ts";
import { historySourceText } from "../lib/report/demo_source.ts";

/** Refuses two runs that are not of one source, or whose license-position ran differently. */
function checkComparable(a: RunState, b: RunState): void {
  if (a.identity !== b.identity) {
    throw new RunFolderError(
      b.dir,
      `read ${b.identity}, but ${a.dir} read ${a.identity}: runs of different sources are ` +
        "not compared",
    );
  }
  const how = (s: RunState) => JSON.stringify([s.params, s.filter ?? null]);
  if (how(a) !== how(b)) {
    throw new RunFolderError(
      b.dir,
      `ran license-position with ${how(b)}, but ${a.dir} with ${how(a)} (parameters, filter): ` +
        "positions of different scopes are not compared",
    );
  }
}

const count = (label: string, change: string) => ({
  label,
  count: true as const,
  where: (r: Record<string, unknown>) => r.change === change,
});

async function data(ctx: ReportContext): Promise<ReportData> {
  // The declared-sections check calls this with a signal already aborted: read nothing then.
  ctx.signal.throwIfAborted();
  // Both folders are checked before either snapshot is opened.
  const first = await checkRunFolder(ctx.params.before as string);
  const second = await checkRunFolder(ctx.params.after as string);
  const a = await readRunState(first);
  const b = await readRunState(second);
  checkComparable(a, b);
  const licenses = licenseChanges(a, b);
  return {
    // One source (checked above): named, and "demo data" when the runs read the demo estate.
    source: historySourceText({ sources: [a.source, b.source] }),
    sections: [
      {
        id: "runs",
        title: `Runs compared: ${a.identity}`,
        description: "The two runs, each read from its own snapshot with the parameters its " +
          "license-position ran with; changes read from the first to the second.",
        columns: [
          text("role", "Role", { width: 8 }),
          text("run", "Run folder", { width: 18 }),
          text("pack", "Pack", { width: 16 }),
          datetime("generatedAt", "Data as of"),
          text("status", "Run status", { width: 10 }),
          text("source", "Source", { width: 40 }),
        ],
        rows: [a, b].map((s, i) => ({
          role: i === 0 ? "Before" : "After",
          run: s.run,
          pack: s.manifest.pack,
          generatedAt: s.generatedAt,
          status: s.manifest.status,
          source: s.source,
        })),
      },
      {
        id: "positions",
        title: "Positions whose shortfall or surplus changed",
        description: "Per application and metric, the shortfall and surplus before and after, " +
          "and what moved them: the device requirements (metric-tracking rows) that appeared, " +
          "disappeared or changed, the license lines added, removed or changed, and transfers. " +
          "Costs are each run's own, in the position's currency.",
        columns: [
          text("application", "Application", { width: 26 }),
          text("metric", "Metric", { width: 12 }),
          integer("shortfallBefore", "Shortfall before"),
          integer("shortfallAfter", "Shortfall after"),
          integer("shortfallChange", "Change"),
          integer("surplusBefore", "Surplus before"),
          integer("surplusAfter", "Surplus after"),
          number("requirementBefore", "Requirement before", { decimals: 0 }),
          number("requirementAfter", "Requirement after", { decimals: 0 }),
          number("entitlementsBefore", "Entitlements before", { decimals: 0 }),
          number("entitlementsAfter", "Entitlements after", { decimals: 0 }),
          money("shortfallCostBefore", "Shortfall cost before"),
          money("shortfallCostAfter", "Shortfall cost after"),
          text("currency", "Currency", { width: 8 }),
          text("movedBy", "What moved it", { width: 60 }),
        ],
        rows: positionChanges(a, b),
        emptyText: "No position's shortfall or surplus changed.",
        facts: [
          { label: "Positions changed", count: true },
          {
            label: "Positions newly short",
            count: true,
            where: (r) => r.shortfallBefore === 0 && (r.shortfallAfter as number) > 0,
          },
        ],
      },
      {
        id: "money",
        title: "Money per currency",
        description: "Shortfall cost and surplus value of all positions in each run, and the " +
          "purchase value of the licenses added and removed; currencies are never added.",
        columns: [
          text("currency", "Currency", { width: 8 }),
          money("shortfallCostBefore", "Shortfall cost before"),
          money("shortfallCostAfter", "Shortfall cost after"),
          money("shortfallCostChange", "Change"),
          money("surplusValueBefore", "Surplus value before"),
          money("surplusValueAfter", "Surplus value after"),
          money("licensesAdded", "Licenses added (purchase value)"),
          money("licensesRemoved", "Licenses removed (purchase value)"),
        ],
        rows: moneyChanges(a, b),
        facts: [{
          label: "Shortfall cost change",
          sum: "shortfallCostChange",
          perCurrency: "currency",
        }],
      },
      {
        id: "computers",
        title: "Computers added, removed and changed",
        description: "A changed computer has a row per field that changed, and a row per " +
          "metric-tracking row whose counted units (cores, processors…) changed: the hardware " +
          "that changes a requirement.",
        columns: [
          text("computer", "Computer", { width: 16 }),
          text("computerId", "Computer id", { width: 10 }),
          text("change", "Change", { width: 9 }),
          text("what", "What", { width: 36 }),
          text("before", "Before", { width: 22 }),
          text("after", "After", { width: 22 }),
        ],
        rows: computerChanges(a, b),
        emptyText: "No computer was added, removed or changed.",
        facts: [
          count("Computers added", "added"),
          count("Computers removed", "removed"),
        ],
      },
      {
        id: "installs",
        title: "Installs that appeared, disappeared or changed",
        description: "An install is a computer × application × metric with an entitlement " +
          "state or a metric-tracking row; a change is its state or its requirement.",
        columns: [
          text("application", "Application", { width: 26 }),
          text("metric", "Metric", { width: 12 }),
          text("computer", "Computer", { width: 16 }),
          text("computerId", "Computer id", { width: 10 }),
          text("change", "Change", { width: 12 }),
          text("stateBefore", "State before", { width: 16 }),
          text("stateAfter", "State after", { width: 16 }),
          number("requirementBefore", "Requirement before", { decimals: 0 }),
          number("requirementAfter", "Requirement after", { decimals: 0 }),
        ],
        rows: installChanges(a, b),
        group: { by: "application", label: "Application" },
        emptyText: "No install appeared, disappeared or changed.",
        facts: [
          count("Installs appeared", "appeared"),
          count("Installs disappeared", "disappeared"),
        ],
      },
      {
        id: "licenses",
        title: "Licenses added, removed and changed",
        description: "By license id; a changed license has a row per field that changed " +
          "(quantity, purchase value and currency, purchase date, validity, organisation). " +
          "Units: the change in quantity.",
        columns: [
          text("license", "License", { width: 10 }),
          text("application", "Application", { width: 26 }),
          text("metric", "Metric", { width: 12 }),
          text("change", "Change", { width: 9 }),
          text("what", "What", { width: 14 }),
          text("before", "Before", { width: 24 }),
          text("after", "After", { width: 24 }),
          number("units", "Units", { decimals: 0 }),
        ],
        rows: licenses,
        emptyText: "No license was added, removed or changed.",
        facts: [
          count("Licenses added", "added"),
          count("Licenses removed", "removed"),
        ],
      },
    ],
  };
}

/**
 * The run-diff report.
 *
 * @example
 * ```ts
 * import { runDiff } from "./run_diff.ts";
 * console.log(runDiff.id, runDiff.reads); // "run-diff" "history"
 * ```
 */
export const runDiff = defineReport({
  id: "run-diff",
  title: "What changed between two audits",
  description: "Two pack runs of one source, from their snapshots (offline): computers, " +
    "installs and licenses added, removed and changed, every position whose shortfall or " +
    "surplus changed with what moved it, and money per currency.",
  params: {
    before: stringParam("The earlier run folder (out/packs/<pack>/<run>, with snapshot.sqlite)", {
      required: true,
    }),
    after: stringParam("The later run folder, of the same source", { required: true }),
  },
  reads: "history",
  landscape: true,
  data,
});
