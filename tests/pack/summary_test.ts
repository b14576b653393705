import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { simpleParser } from "mailparser";
import { Buffer } from "node:buffer";
import { withServer } from "../helpers/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { topRisks } from "../../lib/pack/risks.ts";
import { chooseAttachments } from "../../lib/pack/attachments.ts";
import { outTestDir } from "../helpers/files.ts";
import { testEmail } from "../helpers/pack_summary.ts";

const EMAIL = testEmail("cfo@example.test");
const tempDir = () => outTestDir("summary-");

async function readEml(path: string) {
  return await simpleParser(Buffer.from(await Deno.readFile(path)));
}

const escape = (s: string) => s.replace(/[$.+()]/g, "\\$&");

const money = (value: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value);

describe("pack summary", () => {
  /** The runs print their PDFs with one browser. */
  let browser: BrowserHandle;
  before(() => {
    browser = launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it("leads with exposure per currency and the top risks, under 200 KB on a 3,000-computer pack", async () => {
    await withServer({ computers: 3000, seed: 2, token: "summary-token" }, async (srv) => {
      const dir = await tempDir();
      const pack = validatePack({
        name: "cfo",
        reports: [
          { id: "license-cost-summary", formats: ["json"] },
          { id: "entitlement-state-by-computer", formats: ["json"] },
          { id: "license-position", formats: ["json"] },
          { id: "stale-computers", formats: ["json"] },
        ],
        email: EMAIL,
      }, { file: "cfo.json", reports: REPORTS });
      const run = await runPack({
        pack,
        reports: REPORTS,
        outRoot: dir,
        source: { baseUrl: srv.url, token: "summary-token" },
        browser,
      });
      assert.ok(run.ok, JSON.stringify(run.manifest.reports));
      const mail = await readEml(run.eml!);
      const html = String(mail.html);
      const text = mail.text ?? "";
      assert.ok(new TextEncoder().encode(html).length < 200_000, `${html.length} bytes`);

      // Exposure per currency equals the license-position rows' sums, and comes first.
      const lp = JSON.parse(await Deno.readTextFile(`${run.dir}/license-position.json`));
      type Position = { shortfall: number; shortfallCost: number | null; currency: string | null };
      const positions: Position[] = lp.sections.find((s: { id: string }) => s.id === "positions")
        .rows;
      const exposure = new Map<string, number>();
      for (const p of positions) {
        if (p.currency && p.shortfallCost) {
          exposure.set(p.currency, (exposure.get(p.currency) ?? 0) + p.shortfallCost);
        }
      }
      assert.ok(exposure.size >= 2, "several currencies");
      const order = [
        text.indexOf("Compliance exposure"),
        ...[...exposure].sort().map(([currency, cost]) =>
          text.search(
            new RegExp(`Shortfall cost \\(${currency}\\) +${escape(money(cost, currency))}`),
          )
        ),
        text.indexOf("Top risks by shortfall cost"),
        text.indexOf("Software cost"),
        text.indexOf("What moved"),
        text.indexOf("Reports"),
      ];
      assert.ok(order.every((at) => at >= 0), `${order} in\n${text}`);
      assert.deepEqual(order, [...order].sort((a, b) => a - b), text);
      const unpriced = positions.filter((p) => p.shortfall > 0 && p.shortfallCost === null);
      assert.match(text, new RegExp(`Unpriced shortfalls +${unpriced.length}\n`));
      for (const [currency, cost] of exposure) assert.ok(html.includes(money(cost, currency)));

      // Top five risks per currency: the positions rows with the largest shortfall cost.
      const expected = topRisks(positions);
      const summary = JSON.parse(await Deno.readTextFile(`${run.dir}/summary.json`));
      assert.deepEqual(summary.risks, expected);
      for (const [currency, risks] of Object.entries(expected)) {
        assert.ok(risks.length <= 5 && risks.length > 0, currency);
        const sorted = positions.filter((p) => p.currency === currency && p.shortfallCost! > 0)
          .map((p) => p.shortfallCost!).sort((a, b) => b - a);
        assert.deepEqual(risks.map((r) => r.shortfallCost), sorted.slice(0, 5));
        for (const r of risks) {
          assert.ok(html.includes(money(r.shortfallCost, currency)), `${r.application} shown`);
        }
      }
      // Cost to date shown once per currency, on its currency's row.
      const spend = summary.figures.filter((f: { key: string }) =>
        f.key.startsWith("license-cost-summary|fact|Cost to date (")
      );
      for (const f of spend) {
        const shown = money(f.value, f.currency);
        assert.equal(text.split(shown).length - 1, 1, shown);
        assert.match(text, new RegExp(`\n {2}${f.currency} +${escape(shown)} `));
      }
      // Default attachments: summary.pdf only.
      assert.deepEqual(mail.attachments.map((a: { filename?: string }) => a.filename), [
        "summary.pdf",
      ]);
    });
  });

  it("attaches what the pack chooses, and links the evidence folder over the size cap", async () => {
    await withServer({ computers: 40, seed: 3, token: "attach-token" }, async (srv) => {
      const dir = await tempDir();
      const reports = [
        { id: "license-cost-summary", formats: ["pdf", "json"] },
        { id: "stale-computers", formats: ["csv", "json"] },
      ];
      const source = { baseUrl: srv.url, token: "attach-token" };
      const chosen = validatePack({
        name: "chosen",
        reports,
        email: { ...EMAIL, attach: ["license-cost-summary", "stale-computers.csv"] },
      }, { file: "chosen.json", reports: REPORTS });
      const a = await runPack({ pack: chosen, reports: REPORTS, outRoot: dir, source, browser });
      const mailA = await readEml(a.eml!);
      const csv = a.manifest.reports[1].files.filter((f) => f.endsWith(".csv"));
      assert.ok(csv.length >= 1);
      assert.deepEqual(mailA.attachments.map((x: { filename?: string }) => x.filename), [
        "summary.pdf",
        "license-cost-summary.pdf",
        ...csv,
      ]);
      assert.ok(!String(mailA.html).includes("Not attached"));
      // No evidenceUrl: the folder is named as where it lies, never a link a recipient cannot open.
      assert.ok(!String(mailA.html).includes("file://"), "no file:// link in the HTML part");
      assert.ok(!String(mailA.text).includes("file://"), "no file:// link in the text part");
      assert.ok(!/<a [^>]*>[^<]*Evidence folder|Evidence folder: <a/.test(String(mailA.html)));
      assert.ok(
        String(mailA.text).includes(`Evidence folder on the machine that ran the pack`) &&
          String(mailA.text).includes(a.dir),
        String(mailA.text),
      );

      const capped = validatePack({
        name: "capped",
        reports,
        email: {
          ...EMAIL,
          attach: ["license-cost-summary", "stale-computers.csv"],
          maxAttachmentBytes: 150_000,
          evidenceUrl: "https://files.example.test/packs/",
        },
      }, { file: "capped.json", reports: REPORTS });
      const b = await runPack({ pack: capped, reports: REPORTS, outRoot: dir, source, browser });
      const mailB = await readEml(b.eml!);
      const names = mailB.attachments.map((x: { filename?: string }) => x.filename);
      const sizes = Object.fromEntries(b.manifest.files.map((f) => [f.path, f.bytes]));
      const choice = chooseAttachments(capped.email!.attach, b.manifest, 150_000);
      assert.deepEqual(names, choice.attached.map((f) => f.filename));
      assert.ok(
        !names.includes("license-cost-summary.pdf"),
        `${sizes["license-cost-summary.pdf"]}`,
      );
      const total = choice.attached.reduce((n, f) => n + f.bytes, 0);
      assert.ok(total <= 150_000, `${total}`);
      const html = String(mailB.html);
      assert.match(
        html,
        /Not attached \(together over the 0\.2 MB limit\), in the evidence folder: license-cost-summary\.pdf/,
      );
      const run = b.dir.split("/").pop();
      assert.ok(html.includes(`href="https://files.example.test/packs/capped/${run}/"`), html);
      assert.match(mailB.text ?? "", /Not attached \(together over the 0\.2 MB limit\)/);
    });
  });

  it("refuses attach entries the pack cannot give", () => {
    const doc = (attach: unknown) => ({
      name: "p",
      reports: [{ id: "stale-computers", formats: ["json"] }],
      email: { ...EMAIL, attach },
    });
    assert.throws(
      () => validatePack(doc(["stale-computers"]), { file: "p.json", reports: REPORTS }),
      /email\.attach: report stale-computers does not write a PDF/,
    );
    assert.throws(
      () => validatePack(doc(["stale-computers.xlsx"]), { file: "p.json", reports: REPORTS }),
      /does not write xlsx/,
    );
    assert.throws(
      () => validatePack(doc(["license-position"]), { file: "p.json", reports: REPORTS }),
      /"license-position" is not a report of this pack/,
    );
    const ok = validatePack(doc(["summary.pdf", "stale-computers.json"]), {
      file: "p.json",
      reports: REPORTS,
    });
    assert.equal(ok.email!.maxAttachmentBytes, 5_000_000);
    assert.deepEqual(
      validatePack(doc(undefined), { file: "p.json", reports: REPORTS }).email!.attach,
      [],
    );
  });
});
