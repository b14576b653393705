import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { simpleParser } from "mailparser";
import { Buffer } from "node:buffer";
import { withServer } from "../helpers/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import { compareFigures } from "../../lib/pack/figures.ts";
import { headlineFigures } from "../../lib/pack/headline.ts";
import { sourceIdentity } from "../../lib/pack/source_identity.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function tempDir(): Promise<string> {
  await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
  return await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "compare-" });
}

const EMAIL = { host: "127.0.0.1", from: "a@example.test", to: ["b@example.test"], tls: "none" };

/** The pack; mailed (summary.eml and summary.pdf) only for the runs whose mail is read. */
const pack = (days: number, mailed: boolean) =>
  validatePack({
    name: "compare",
    reports: [
      { id: "license-cost-summary", formats: ["json"] },
      { id: "stale-computers", formats: ["json"], params: { days } },
    ],
    ...(mailed ? { email: EMAIL } : {}),
  }, { file: "compare.json", reports: REPORTS });

describe("comparisons between pack runs", () => {
  it("refuses to compare runs of different sources and says why; compares the same source", async () => {
    const dir = await tempDir();
    let clock = Date.parse("2026-11-02T06:00:00Z");
    const now = () => new Date(clock += 3600_000);
    const runOn = (url: string, token: string, days = 30, mailed = false) =>
      runPack({
        pack: pack(days, mailed),
        reports: REPORTS,
        outRoot: dir,
        source: { baseUrl: url, token },
        now,
      });
    let otherUrl = "";
    // Two servers, two sources: their addresses differ, whatever their estates (small ones, as
    // other pack tests use, so the estate cache holds them already).
    await withServer({ computers: 120, seed: 7, token: "small" }, async (small) => {
      otherUrl = small.url;
      const first = await runOn(small.url, "small");
      assert.equal(first.comparison?.previous, null);
    });
    await withServer({ computers: 300, seed: 7, token: "big" }, async (big) => {
      const second = await runOn(big.url, "big", 30, true);
      assert.equal(second.comparison?.previous, null);
      assert.deepEqual(second.comparison?.notes, [
        `the previous run read ${otherUrl}; not compared`,
      ]);
      assert.ok(second.changes.every((c) => c.previous === null && c.delta === null));
      const mail = await simpleParser(Buffer.from(await Deno.readFile(second.eml!)));
      assert.ok(String(mail.html).includes(`the previous run read ${otherUrl}; not compared`));
      assert.match(mail.text ?? "", /What moved\n {2}Not compared\./);
      assert.ok(!/[+]\$|[+]€|[+]£/.test(mail.text ?? ""), "no money change shown");
      const summary = JSON.parse(await Deno.readTextFile(`${second.dir}/summary.json`));
      assert.equal(summary.comparison.previous, null);

      // The same source again: compared with the second run, not the first.
      const [cost] = big.store.query({ resource: "LicenseCostSummary", limit: 1, offset: 0 }).rows;
      const grown = Number(cost.totalCost) + 1000;
      big.store.update("license_cost_summaries", { licenseId: cost.licenseId }, {
        totalCost: grown,
      });
      big.store.update("licenses", { id: cost.licenseId }, { totalLicenseCost: grown });
      const third = await runOn(big.url, "big", 30, true);
      assert.equal(third.comparison?.previous?.run, second.dir.split("/").pop());
      assert.deepEqual(third.comparison?.compared, ["license-cost-summary", "stale-computers"]);
      assert.ok(third.changes.some((c) => c.delta !== null && c.delta !== 0), "something moved");
      assert.ok(third.changes.every((c) => c.previous !== null), "every figure compared");
      const mail3 = await simpleParser(Buffer.from(await Deno.readFile(third.eml!)));
      assert.match(mail3.text ?? "", /What moved since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      assert.match(
        mail3.text ?? "",
        /Cost to date \((EUR|USD|GBP)\) +[€$£][\d,.]+ +[€$£][\d,.]+ +\+[€$£]1,000\.00/,
      );

      // Other parameters for one report: that report is not compared, with its reason.
      const fourth = await runOn(big.url, "big", 60);
      assert.deepEqual(fourth.comparison?.compared, ["license-cost-summary"]);
      assert.deepEqual(fourth.comparison?.notes, [
        'stale-computers: parameters differ ({"days":30} then, {"days":60} now); not compared',
      ]);
      assert.ok(
        fourth.changes.filter((c) => c.report === "stale-computers").every((c) =>
          c.previous === null
        ),
      );
      assert.ok(
        fourth.changes.filter((c) => c.report === "license-cost-summary").every((c) =>
          c.previous !== null
        ),
      );
    });
  });

  it("a comparison never crosses currencies", () => {
    const figure = (currency: string, value: number) => ({
      key: `license-position|fact|Shortfall cost (${currency})`,
      report: "license-position",
      label: `Shortfall cost (${currency})`,
      value,
      type: "currency",
      currency,
    });
    const changes = compareFigures([figure("USD", 500)], [figure("EUR", 400)]);
    const lines = headlineFigures(changes);
    assert.deepEqual(
      lines.map((l) => [l.currency, l.value, l.previous, l.delta]),
      [["EUR", 0, 400, -400], ["USD", 500, null, null]],
    );
  });

  it("a source's identity: base URL, or the demo estate's size and seed", () => {
    assert.equal(sourceIdentity("https://SAM.example.com/api/"), "https://sam.example.com/api");
    const demo = (size: number, seed: number, day: string) =>
      `embedded reference server (demo estate: ${size} computers, seed ${seed}, as of ${day})`;
    assert.equal(
      sourceIdentity(demo(400, 1, "2026-11-01")),
      sourceIdentity(demo(400, 1, "2026-11-08")),
    );
    assert.notEqual(
      sourceIdentity(demo(400, 1, "2026-11-01")),
      sourceIdentity(demo(3000, 1, "2026-11-01")),
    );
    assert.notEqual(
      sourceIdentity("http://127.0.0.1:4000"),
      sourceIdentity("http://127.0.0.1:4001"),
    );
  });
});
