/**
 * The CFO summary of a pack run, read as the recipient reads it: the annual run rate per
 * currency equals a recount from the raw license list (separate code), the text and HTML parts
 * carry the same figures under the same labels, the pack's title heads it, the change column is
 * labelled with the compared run, and the unpriced shortfalls are named.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { api, getToken, TEST_NOW } from "../helpers/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { type PackRunResult, runPack } from "../../lib/pack/run_pack.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { type PackFixture, startPackFixture } from "../helpers/pack_fixture.ts";
import { htmlVisibleText, mailParts, testEmail } from "../helpers/pack_summary.ts";

const TOKEN = "cfo-summary-token";
const TITLE = "Quarterly CFO pack";
const EMAIL = testEmail("cfo@example.test");

const parts = (run: PackRunResult) => mailParts(run.eml!);

/** Every figure shown, in order: amounts, counts, signed changes, dates. */
const figures = (text: string) => text.match(/[+-]?[€$£]?\d[\d,]*(?:\.\d+)?/g) ?? [];

const money = (value: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(value);

/** The raw license list of the server, every page. */
async function rawLicenses(srv: RunningServer): Promise<Record<string, unknown>[]> {
  const token = await getToken(srv);
  const out: Record<string, unknown>[] = [];
  for (let page = 1;; page++) {
    const res = await api(srv, `/api/sam/v1/licenses?page_size=500&page_number=${page}`, {
      token,
    });
    assert.equal(res.status, 200);
    out.push(...res.body.items);
    if (res.body.items.length < 500) return out;
  }
}

/**
 * The run rate recounted from the raw list: per currency, the list's current maintenance and
 * support plus every subscription running on `asOf` at its purchase value × 12 ÷ its term in
 * months (days ÷ 30.4375, rounded), in cents.
 */
function recountRunRate(licenses: Record<string, unknown>[], asOf: Date): Map<string, number> {
  const cents = new Map<string, number>();
  const add = (code: string, amount: number) => cents.set(code, (cents.get(code) ?? 0) + amount);
  for (const l of licenses) {
    const code = String(l.purchaseCurrency ?? "");
    const recurring = Math.round(Number(l.activeMaintenanceCost ?? 0) * 100) +
      Math.round(Number(l.activeSupportCost ?? 0) * 100);
    let subscription = 0;
    if (l.isSubscription === true && l.subscriptionValidFrom && l.subscriptionValidTo) {
      const from = Date.parse(String(l.subscriptionValidFrom));
      const to = Date.parse(String(l.subscriptionValidTo));
      if (from <= asOf.getTime() && asOf.getTime() <= to && l.purchaseValue !== null) {
        const months = Math.max(1, Math.round((to - from) / 86_400_000 / 30.4375));
        subscription = Math.round(Math.round(Number(l.purchaseValue) * 100) * 12 / months);
      }
    }
    if (recurring || subscription) add(code, recurring + subscription);
  }
  return new Map([...cents].map(([code, c]) => [code, c / 100]));
}

describe("the CFO summary of a pack", () => {
  let first: PackRunResult;
  let second: PackRunResult;
  let licenses: Record<string, unknown>[] = [];
  let fx: PackFixture;
  /** Both runs print their summary.pdf with one browser. */
  let browser: BrowserHandle;

  before(async () => {
    fx = await startPackFixture({ prefix: "cfo-", token: TOKEN, dialect: "real" });
    browser = launchBrowser();
    const pack = validatePack({
      name: "cfo-quarterly",
      title: TITLE,
      reports: [
        { id: "license-position", formats: ["json"] },
        { id: "license-cost-summary", formats: ["json"], params: { top: 5 } },
      ],
      email: EMAIL,
    }, { file: "cfo.json", reports: REPORTS });
    const source = fx.source;
    const at = (minutes: number) => () => new Date(TEST_NOW.getTime() + minutes * 60_000);
    const run = (minutes: number) =>
      runPack({ pack, reports: REPORTS, outRoot: fx.dir, source, now: at(minutes), browser });
    first = await run(0);
    second = await run(1);
    licenses = await rawLicenses(fx.server);
  });

  after(async () => {
    await browser?.close();
    await fx?.close();
  });

  it("shows the annual run rate per currency, equal to a recount from the raw license list", async () => {
    assert.ok(first.ok && second.ok, JSON.stringify(second.manifest.reports));
    const expected = recountRunRate(licenses, new Date(second.manifest.started));
    assert.ok(expected.size >= 2, `several currencies: ${[...expected.keys()]}`);
    const summary = JSON.parse(await Deno.readTextFile(`${second.dir}/summary.json`));
    const shown = Object.fromEntries(
      summary.figures.filter((f: { key: string }) =>
        f.key.startsWith("license-cost-summary|fact|Annual run rate (")
      ).map((f: { currency: string; value: number }) => [f.currency, f.value]),
    );
    assert.deepEqual(shown, Object.fromEntries(expected));
    assert.deepEqual(summary.headline.runRate, Object.fromEntries(expected));
    const { text, html } = await parts(second);
    for (const [code, value] of expected) {
      const row = text.split("\n").find((l) => l.trim().startsWith(`${code} `));
      assert.ok(row?.trimEnd().endsWith(money(value, code)), `${code} row: ${row}\n${text}`);
      assert.ok(html.includes(money(value, code)), code);
    }
    // Some subscription is running on the day, so subscriptions are in the rate.
    assert.ok(
      licenses.some((l) =>
        l.isSubscription === true && Date.parse(String(l.subscriptionValidTo)) >= TEST_NOW.getTime()
      ),
    );
  });

  it("labels the cost to date as such, beside the run rate", async () => {
    const { text, html } = await parts(second);
    for (const body of [text, html]) {
      assert.ok(
        body.includes("Cost to date (purchase + maintenance + support since purchase)"),
        body,
      );
      assert.ok(body.includes("Annual run rate (maintenance + support + subscriptions per year)"));
      assert.ok(!body.includes("Total spend"));
    }
  });

  it("gives the text and HTML parts the same figures and labels, in the same order", async () => {
    for (const run of [first, second]) {
      const { text, html } = await parts(run);
      const visible = htmlVisibleText(html);
      assert.deepEqual(figures(visible), figures(text));
      assert.ok(figures(text).length > 30, text);
      for (const label of text.split("\n").map((l) => l.trim()).filter((l) => /^[A-Z]/.test(l))) {
        for (const phrase of label.split(/ {2,}/)) {
          assert.ok(visible.includes(phrase), `"${phrase}" missing from the HTML part`);
        }
      }
    }
  });

  it("heads the summary with the pack's title, not its name", async () => {
    const { text, html } = await parts(first);
    assert.equal(text.split("\n")[0], TITLE);
    assert.match(html, new RegExp(`<h1[^>]*>${TITLE}</h1>`));
    const shown = text.split("\n").filter((l) => !l.includes("Evidence folder"));
    assert.ok(!shown.join("\n").includes("cfo-quarterly"), text);
  });

  it("labels the change column with the run it is compared with", async () => {
    const since = `Change since ${first.manifest.started.slice(0, 10)} ${
      first.manifest.started.slice(11, 16)
    } UTC`;
    const { text, html } = await parts(second);
    const header = text.split("\n").find((l) => l.trim().startsWith("Figure"));
    assert.ok(header?.includes(since), `${header}\n${text}`);
    assert.ok(html.includes(`>${since}</th>`), "a column header in the HTML part");
    const firstParts = await parts(first);
    assert.ok(!firstParts.text.includes("Change since"), "no change column when not compared");
  });

  it("names the unpriced shortfalls (application × metric), not only their count", async () => {
    const lp = JSON.parse(await Deno.readTextFile(`${second.dir}/license-position.json`));
    type Position = { application: string; metric: string; shortfall: number };
    const unpriced: Position[] = lp.sections.find((s: { id: string }) => s.id === "positions")
      .rows.filter((p: { shortfall: number; shortfallCost: number | null }) =>
        p.shortfall > 0 && p.shortfallCost === null
      );
    assert.ok(unpriced.length > 0, "the estate has unpriced shortfalls");
    const { text, html } = await parts(second);
    const visible = htmlVisibleText(html);
    const named = [...unpriced].sort((a, b) => b.shortfall - a.shortfall).slice(0, 10);
    for (const p of named) {
      const line = text.split("\n").find((l) => l.includes(p.application) && l.includes(p.metric));
      assert.ok(line?.trimEnd().endsWith(String(p.shortfall)), `${p.application}: ${line}`);
      assert.ok(visible.includes(p.application), p.application);
    }
    assert.match(text, new RegExp(`Unpriced shortfalls +${unpriced.length}\\b`));
  });

  it("states each report's scope: its parameters and filter", async () => {
    const { text, html } = await parts(second);
    assert.match(text, /License cost summary +ok +top = 5; .*filter: none \(every license\)/);
    assert.ok(htmlVisibleText(html).includes("top = 5;"));
  });
});
