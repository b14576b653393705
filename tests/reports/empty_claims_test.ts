/**
 * When a report's section is empty because nothing was read or nothing matched, its empty text
 * claims nothing about the items that are not there: no "every computer was scanned", "every
 * tenant has a previous run" or "every shortfall is priced" over no computers, tenants or
 * shortfalls. Every built-in report that reads the API runs on an empty store and, when it
 * filters, on a demo estate with a filter matching nothing; trends runs over an empty history.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { REPORTS } from "../../reports/mod.ts";
import { clientFor, TEST_NOW } from "../helpers/run_report.ts";
import { runReport } from "../../lib/report/runner.ts";
import { resolveParams } from "../../lib/report/params.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { createRenderers } from "../../lib/render/registry.ts";
import { withServer } from "../helpers/server.ts";
import { freshDatabase, testDatabaseUrl } from "../queue/test_database.ts";
import type { ReportDefinition } from "../../lib/report/model.ts";
import type { RenderDocument } from "../../lib/render/renderer.ts";

/** A filter that matches nothing, per filter resource. */
const NOTHING: Record<string, string> = {
  Computer: "hostName -eq nothing-here",
  License: "id -eq nothing-here",
  RegistryApplication: "name -eq nothing-here",
  ComputerApplication: "computerId -eq nothing-here",
};

/** A sentence that says something of every item, or that some items agree or are none. */
const UNIVERSAL = /\b(every|each|all|none|equals|agrees)\b/i;

/** The empty texts of a document's empty sections, each with its section's id. */
async function emptyTexts(doc: RenderDocument): Promise<string[]> {
  const out: string[] = [];
  for (const section of doc.sections) {
    let rows = 0;
    for await (const _ of section.rows()) rows++;
    if (rows === 0) out.push(`${doc.report.id}/${section.id}: ${section.emptyText ?? ""}`);
  }
  return out;
}

// deno-lint-ignore no-explicit-any
type AnyReport = ReportDefinition<any, any>;

/** The empty texts of a report's empty sections, run against `srv` (JSON only). */
async function emptyOf(
  report: AnyReport,
  srv: Parameters<typeof clientFor>[0] | null,
  filter?: string,
  params: Record<string, string> = {},
): Promise<string[]> {
  const outDir = await Deno.makeTempDir({ prefix: "samkit-empty-claims-" });
  let texts: string[] = [];
  try {
    await runReport({
      definition: report,
      client: srv ? clientFor(srv) : null,
      query: createQueryContext(),
      params: resolveParams(report, params),
      filter,
      formats: ["json"],
      renderers: createRenderers(),
      outDir,
      source: srv?.url ?? "samkit run history",
      version: "0.0.0-test",
      now: TEST_NOW,
      inspect: async (doc) => {
        texts = await emptyTexts(doc);
      },
    });
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
  return texts;
}

const API_REPORTS = REPORTS.filter((r) => r.reads !== "history") as AnyReport[];

describe("empty sections claim nothing about nothing", () => {
  it("on an empty store, every report's empty sections make no universal claim", async () => {
    const claims: string[] = [];
    let checked = 0;
    await withServer({ computers: 0 }, async (srv) => {
      srv.store.clear();
      for (const report of API_REPORTS) {
        const texts = await emptyOf(report, srv);
        checked += texts.length;
        claims.push(...texts.filter((t) => UNIVERSAL.test(t.split(": ").slice(1).join(": "))));
      }
    });
    assert.ok(checked >= API_REPORTS.length, `only ${checked} empty sections`);
    assert.deepEqual(claims, []);
  });

  it("with a filter matching nothing, no report's empty sections make a universal claim", async () => {
    const claims: string[] = [];
    const filtered = API_REPORTS.filter((r) => r.filterResource);
    assert.ok(filtered.length >= 8);
    await withServer({ computers: 30 }, async (srv) => {
      for (const report of filtered) {
        const filter = NOTHING[report.filterResource!];
        assert.ok(filter, `no filter for ${report.filterResource}`);
        const texts = await emptyOf(report, srv, filter);
        claims.push(...texts.filter((t) => UNIVERSAL.test(t.split(": ").slice(1).join(": "))));
      }
    });
    assert.deepEqual(claims, []);
  });

  it("over an empty run history, trends and portfolio make no universal claim", async () => {
    const history = await Deno.makeTempDir({ prefix: "samkit-empty-history-" });
    const claims: string[] = [];
    try {
      const trends = REPORTS.find((r) => r.id === "trends")! as AnyReport;
      const texts = await emptyOf(trends, null, undefined, { history });
      assert.ok(texts.length >= 3, texts.join("\n"));
      claims.push(...texts.filter((t) => UNIVERSAL.test(t.split(": ").slice(1).join(": "))));
    } finally {
      await Deno.remove(history, { recursive: true });
    }
    const admin = testDatabaseUrl("empty-claims");
    if (admin) {
      const db = await freshDatabase(admin);
      const before = Deno.env.get("SAMKIT_DATABASE_URL");
      Deno.env.set("SAMKIT_DATABASE_URL", db.url);
      try {
        const portfolio = REPORTS.find((r) => r.id === "portfolio")! as AnyReport;
        const texts = await emptyOf(portfolio, null);
        assert.ok(texts.length >= 5, texts.join("\n"));
        claims.push(...texts.filter((t) => UNIVERSAL.test(t.split(": ").slice(1).join(": "))));
      } finally {
        if (before === undefined) Deno.env.delete("SAMKIT_DATABASE_URL");
        else Deno.env.set("SAMKIT_DATABASE_URL", before);
        await db.drop();
      }
    }
    assert.deepEqual(claims, []);
  });
});
