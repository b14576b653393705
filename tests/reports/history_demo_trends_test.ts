/**
 * Reports over samkit's run history say "demo data" when the runs they read are demo runs, in
 * every output as a demo run's own outputs do (JSON source, HTML and PDF cover and header, XLSX
 * title), and name the source their runs read. Runs of a tenant and demo runs in one history are
 * kept apart (trends shows one source and lists the others as left out) or refused (run-diff).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startServer } from "../../lib/server/server.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { pdfText } from "../helpers/run_report.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

const PACK = validatePack({
  name: "demo-history",
  reports: [
    { id: "license-cost-summary", formats: ["json"] },
    { id: "license-position", formats: ["json"] },
  ],
  diff: { formats: ["json", "html"] },
}, { file: "demo-history.json", reports: REPORTS });

/** `deno task report <id>` as a user runs it, from the project folder. */
async function report(id: string, args: string[]) {
  const cmd = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=report", "--no-prompt", "main.ts", "report", id, ...args, "--quiet"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: cmd.code,
    stderr: new TextDecoder().decode(cmd.stderr) + new TextDecoder().decode(cmd.stdout),
  };
}

/** The text of an XLSX's title cell and its core properties. */
async function xlsxTitles(path: string): Promise<string> {
  const { default: ExcelJS } = await import("exceljs");
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const first = book.worksheets[0];
  return `${book.title} | ${book.subject} | ${book.keywords} | ${first.getCell("A1").text}`;
}

describe("reports over run history of demo runs", () => {
  it("trends and run-diff say demo data in every output; tenant runs are kept apart", async () => {
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    const dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "history-demo-" });
    try {
      let clock = Date.parse("2026-10-05T06:00:00Z");
      const now = () => new Date(clock);
      const runs = [];
      for (let i = 0; i < 2; i++) {
        runs.push(
          await runPack({
            pack: PACK,
            reports: REPORTS,
            outRoot: dir,
            source: { computers: 40 },
            now,
          }),
        );
        clock += 24 * 3600_000;
      }
      assert.ok(runs.every((r) => r.ok), JSON.stringify(runs.map((r) => r.manifest.reports)));
      const history = `${dir}/demo-history`.slice(ROOT.length);
      const out = `${dir}/trends-demo`;
      const run = await report("trends", [
        "--param",
        `history=${history}`,
        "--format",
        "json,html,xlsx,pdf",
        "--out",
        out,
      ]);
      assert.equal(run.code, 0, run.stderr);
      const json = JSON.parse(await Deno.readTextFile(`${out}/trends.json`));
      assert.match(
        json.source,
        /^samkit run history \(runs of embedded demo estate: 40 computers, seed 1\)/,
      );
      assert.match(json.source, /demo data/);
      const html = await Deno.readTextFile(`${out}/trends.html`);
      assert.match(html, /<title>[^<]*demo data[^<]*<\/title>/);
      const pdf = await pdfText(`${out}/trends.pdf`);
      assert.ok((pdf.match(/demo data/g) ?? []).length >= 2, pdf.slice(0, 600));
      assert.match(
        await xlsxTitles(`${out}/trends.xlsx`),
        /demo data.*demo data.*demo data.*demo data/,
      );

      // The pack's own run-diff between the two demo runs says demo data too.
      const second = runs[1].dir;
      const diffJson = JSON.parse(await Deno.readTextFile(`${second}/run-diff.json`));
      assert.match(diffJson.source, /demo data/);
      assert.match(await Deno.readTextFile(`${second}/run-diff.html`), /<title>[^<]*demo data/);

      // A tenant run in the same history: the trend of the latest (tenant) source shows only it,
      // says no demo data and lists the demo runs as left out; asked for the demo source, demo data.
      const srv = await startServer({
        port: 0,
        computers: 30,
        seed: 2,
        now: TEST_NOW,
        quiet: true,
        token: "t",
      });
      let tenantRun;
      try {
        tenantRun = await runPack({
          pack: PACK,
          reports: REPORTS,
          outRoot: dir,
          source: { baseUrl: srv.url, token: "t" },
          now,
        });
      } finally {
        await srv.close();
      }
      assert.ok(tenantRun.ok);
      const mixed = `${dir}/trends-mixed`;
      assert.equal(
        (await report("trends", [
          "--param",
          `history=${history}`,
          "--format",
          "json,html",
          "--out",
          mixed,
        ])).code,
        0,
      );
      const tenant = JSON.parse(await Deno.readTextFile(`${mixed}/trends.json`));
      assert.equal(tenant.source, `samkit run history (runs of ${srv.url.replace(/\/$/, "")})`);
      // Only the left-out runs' reasons name the demo source; title and cover do not say demo data.
      assert.doesNotMatch(await Deno.readTextFile(`${mixed}/trends.html`), /<title>[^<]*demo data/);
      const runsSection = tenant.sections.find((s: { id: string }) => s.id === "runs");
      assert.equal(runsSection.rows.length, 1);
      const skipped = tenant.sections.find((s: { id: string }) => s.id === "skipped");
      assert.equal(skipped.rows.length, 2);

      // run-diff of a demo run and the tenant run is refused, naming both runs and sources.
      const refused = await report("run-diff", [
        "--param",
        `before=${second.slice(ROOT.length)}`,
        "--param",
        `after=${tenantRun.dir.slice(ROOT.length)}`,
        "--format",
        "json",
        "--out",
        `${dir}/diff-mixed`,
      ]);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /embedded demo estate: 40 computers, seed 1/);
      assert.match(refused.stderr, /runs of different sources are not compared/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
