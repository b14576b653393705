/**
 * Data cannot pick where samkit writes: an estate whose currency codes and application names are
 * hostile (`../x`, `/etc/x`, NUL, `..`, `.`, very long, unicode, `CON`) is rendered in every
 * format, and every file lands inside `--out`.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { relative } from "node:path";
import { withServer } from "../helpers/server.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { REPORTS } from "../../reports/mod.ts";
import type { Format } from "../../lib/render/renderer.ts";

const HOSTILE = [
  "x/../../../pwned",
  "../x",
  "/etc/x",
  "a\u0000b",
  "..",
  ".",
  "Y".repeat(300),
  "日本円/..",
  "CON",
  "..\\..\\win",
  "a\u202Eb",
];

/** Every file below `dir`, relative to it. */
async function walk(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(`${dir}/${prefix}`)) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    out.push(rel);
    if (e.isDirectory) out.push(...await walk(dir, rel));
  }
  return out;
}

const FORMATS: Format[] = ["json", "csv", "xlsx", "html", "pdf"];

describe("hostile currency codes and application names", () => {
  after(closeTestBrowser);

  for (const id of ["license-cost-summary", "license-position"]) {
    it(`${id}: every file of every format stays inside --out`, async () => {
      const base = await Deno.makeTempDir({ prefix: "samkit-hostile-" });
      const out = `${base}/deep/er/out`;
      await Deno.mkdir(out, { recursive: true });
      await withServer({ computers: 20 }, async (server) => {
        const licenses = server.store.query({ resource: "License", limit: 1000 }).rows;
        licenses.forEach((license, i) => {
          const code = HOSTILE[i % HOSTILE.length];
          const where = { licenseId: license.id as string };
          server.store.update("licenses", { id: license.id as string }, { purchaseCurrency: code });
          server.store.update("license_costs", where, { currency: code });
          server.store.update("license_cost_summaries", where, { currency: code });
        });
        HOSTILE.forEach((name, i) => {
          const appId = `APP${String(i + 1).padStart(4, "0")}`;
          server.store.update("registry_applications", { id: appId }, { name });
          server.store.update("registry_metrics", { applicationId: appId }, {
            licenseCostCurrency: name,
          });
        });
        const report = REPORTS.find((r) => r.id === id)!;
        const run = await runReportForTest({ server, report, formats: FORMATS, dir: out });
        for (const file of run.files) {
          const rel = relative(out, file);
          assert.ok(!rel.startsWith("..") && !rel.startsWith("/"), `${file} is outside ${out}`);
          assert.match(rel, /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, rel);
        }
      });
      const outside = (await walk(base)).filter((f) => !`${f}/`.startsWith("deep/er/out/"))
        .filter((f) => !["deep", "deep/er", "deep/er/out"].includes(f));
      assert.deepEqual(outside, [], "files written outside --out");
      const files = await walk(out);
      assert.ok(files.some((f) => f.endsWith(".csv")), files.join(" "));
      assert.ok(files.some((f) => /[0-9a-f]{10}\.csv$/.test(f)), `a hostile section: ${files}`);
      await Deno.remove(base, { recursive: true });
    });
  }
});
