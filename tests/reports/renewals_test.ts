import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runReportForTest, TEST_NOW } from "../helpers/run_report.ts";
import { renewals } from "../../reports/renewals.ts";
import { licenseCostSummary } from "../../reports/license_cost_summary.ts";
import { ESTATE, LICENSES, rawAll, type RawApi, type RawItem } from "./support/raw_api.ts";
import { serverFixture } from "./support/fixture.ts";

const TOKEN = "renewals-test-token";
const DAY = 86_400_000;
const cents = (x: number) => Math.round(x * 100);

/** Whole months of a term as finance counts them: days ÷ (365.25 ÷ 12), rounded. */
const months = (from: string, to: string) =>
  Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / DAY / (365.25 / 12)));
/** Cents a year; NaN when the term has no cost (unknown, not 0). */
const perYearCents = (amount: unknown, from: string, to: string) =>
  amount === null || amount === undefined
    ? NaN
    : Math.round(Math.round(Number(amount) * 100) * 12 / months(from, to));

/** The renewals due, recomputed from the raw API: `licenseId|kind` → what the row must say. */
async function expected(api: RawApi, now: Date, horizonDays: number) {
  const [licenses, periods, installs] = await Promise.all([
    rawAll(api, `${LICENSES}/licenses`),
    rawAll(api, `${LICENSES}/licenses/maintenance-periods`),
    rawAll(api, `${ESTATE}/computers-applications`),
  ]);
  const installed = new Set(
    installs.filter((i) => i.isInstalled === true).map((i) => i.applicationId),
  );
  const last = now.getTime() + horizonDays * DAY;
  const out = new Map<
    string,
    { daysLeft: number; cents: number; expired: boolean; currency: string }
  >();
  for (const l of licenses) {
    const to = l.subscriptionValidTo;
    if (!to) continue;
    const t = Date.parse(to);
    const expired = t < now.getTime();
    if (t > last || (expired && !installed.has(l.applicationId))) continue;
    out.set(`${l.id}|Subscription`, {
      daysLeft: Math.floor((t - now.getTime()) / DAY),
      cents: perYearCents(l.purchaseValue, l.subscriptionValidFrom, to),
      expired,
      currency: l.purchaseCurrency,
    });
  }
  const ids = new Set(licenses.map((l) => l.id));
  for (const [kind, field] of [["Maintenance", "maintenanceCost"], ["Support", "supportCost"]]) {
    const latest = new Map<string, RawItem>();
    for (const p of periods) {
      const costs = Number(p[field]) !== 0 || (kind === "Maintenance" && !Number(p.supportCost));
      const seen = latest.get(p.licenseId);
      if (costs && (!seen || Date.parse(p.validTo) > Date.parse(seen.validTo))) {
        latest.set(p.licenseId, p);
      }
    }
    for (const [id, p] of latest) {
      const t = Date.parse(p.validTo);
      if (!ids.has(id) || t < now.getTime() || t > last) continue;
      out.set(`${id}|${kind}`, {
        daysLeft: Math.floor((t - now.getTime()) / DAY),
        cents: perYearCents(p[field], p.validFrom, p.validTo),
        expired: false,
        currency: p.purchaseCurrency,
      });
    }
  }
  return out;
}

/**
 * The annual run rate recounted from the raw license list, in cents per currency: each
 * license's current maintenance and support, plus each subscription running on `now` at its
 * purchase value × 12 ÷ its term in months.
 */
async function expectedRunRate(api: RawApi, now: Date): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const l of await rawAll(api, `${LICENSES}/licenses`)) {
    let c = Math.round(Number(l.activeMaintenanceCost ?? 0) * 100) +
      Math.round(Number(l.activeSupportCost ?? 0) * 100);
    const from = Date.parse(l.subscriptionValidFrom), to = Date.parse(l.subscriptionValidTo);
    if (l.isSubscription === true && from <= now.getTime() && now.getTime() <= to) {
      const year = perYearCents(l.purchaseValue, l.subscriptionValidFrom, l.subscriptionValidTo);
      if (!Number.isNaN(year)) c += year;
    }
    if (c !== 0) out.set(l.purchaseCurrency, (out.get(l.purchaseCurrency) ?? 0) + c);
  }
  return out;
}

/** The renewals list (after the months). */
// deno-lint-ignore no-explicit-any
const list = (json: any) => json.sections.find((s: RawItem) => s.id === "renewals");

// deno-lint-ignore no-explicit-any
function assertSameRenewals(rows: any[], want: Awaited<ReturnType<typeof expected>>) {
  const keys = rows.map((r) => `${r.licenseId}|${r.kind}`);
  assert.equal(new Set(keys).size, keys.length, "each license and kind once");
  assert.deepEqual(keys.toSorted(), [...want.keys()].toSorted());
  for (const r of rows) {
    const w = want.get(`${r.licenseId}|${r.kind}`)!;
    const key = `${r.licenseId} ${r.kind}`;
    assert.equal(r.daysLeft, w.daysLeft, key);
    if (Number.isNaN(w.cents)) assert.equal(r.annualCost, null, key);
    else assert.equal(Math.round(r.annualCost * 100), w.cents, key);
    assert.equal(r.currency, w.currency, key);
    // The status says what differs: ended in use, due within 30 or 90 days, later; cost unknown.
    const when = w.expired
      ? "Expired, in use"
      : w.daysLeft <= 30
      ? "Due within 30 days"
      : w.daysLeft <= 90
      ? "Due within 90 days"
      : "Due later";
    assert.equal(
      r.status,
      Number.isNaN(w.cents) && !w.expired ? `${when}, cost unknown` : when,
      key,
    );
  }
}

describe("renewals", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });

  it("lists every subscription, maintenance and support renewal within the horizon once, at its annual cost", async () => {
    const run = await runReportForTest({ server: fixture.srv, report: renewals });
    const section = list(run.json);
    const want = await expected(fixture.api, TEST_NOW, 365);
    assert.ok(want.size > 20, `a meaningful estate (${want.size} renewals)`);
    assert.ok([...want.keys()].some((k) => k.endsWith("|Subscription")));
    assert.ok([...want.keys()].some((k) => k.endsWith("|Support")));
    assertSameRenewals(section.rows, want);
    const dates = section.rows.map((r: RawItem) => r.endDate);
    assert.deepEqual(dates, dates.toSorted(), "earliest end first");
  });

  it("shows the annual run rate per currency beside the renewals, as recounted from the raw list and as license-cost-summary gives it", async () => {
    const run = await runReportForTest({ server: fixture.srv, report: renewals });
    const rate = run.json.sections.find((s: RawItem) => s.id === "run-rate");
    const want = await expectedRunRate(fixture.api, TEST_NOW);
    assert.ok(want.size >= 2, "several currencies");
    assert.deepEqual(
      new Map(rate.rows.map((r: RawItem): [string, number] => [r.currency, cents(r.total)])),
      want,
    );
    for (const [currency, c] of want) {
      const fact = run.result.document.summary.find((f) =>
        f.label === `Annual run rate (${currency})`
      );
      assert.equal(cents(fact?.value as number), c, currency);
    }
    const costs = await runReportForTest({ server: fixture.srv, report: licenseCostSummary });
    const same = costs.json.sections.find((s: RawItem) => s.id === "run-rate");
    assert.deepEqual(rate.rows, same.rows, "the same figures in both reports");
  });

  it("adds the list up by month for planning: every month of the horizon, each month's count and annual cost by kind the list's, per currency", async () => {
    const run = await runReportForTest({ server: fixture.srv, report: renewals });
    const months = run.json.sections.find((s: RawItem) => s.id === "months");
    assert.equal(run.json.sections[0].id, "months", "the months come first, the list after");
    const rows = list(run.json).rows;
    // Every month from the run's month to the horizon's, in order (none left out).
    const want: string[] = [];
    const end = new Date(TEST_NOW.getTime() + 365 * DAY);
    for (let d = new Date(TEST_NOW); d <= end || d.getUTCMonth() === end.getUTCMonth();) {
      want.push(d.toISOString().slice(0, 7));
      d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
      if (want.length > 14) break;
    }
    const seen = [...new Set(months.rows.map((r: RawItem) => r.month))]
      .filter((m) => m !== "Ended, in use");
    assert.deepEqual(seen, want);
    const month = (r: RawItem) =>
      r.status === "Expired, in use" ? "Ended, in use" : String(r.endDate).slice(0, 7);
    const key = (r: RawItem) => `${month(r)}|${r.currency}`;
    const byCell = new Map<string, { n: number; kinds: Record<string, number> }>();
    for (const r of rows) {
      const cell = byCell.get(key(r)) ?? { n: 0, kinds: {} };
      cell.n++;
      cell.kinds[r.kind] = (cell.kinds[r.kind] ?? 0) + cents(r.annualCost ?? 0);
      byCell.set(key(r), cell);
    }
    let renewalsSeen = 0;
    for (const m of months.rows) {
      const cell = byCell.get(`${m.month}|${m.currency}`) ?? { n: 0, kinds: {} };
      const at = `${m.month} ${m.currency}`;
      assert.equal(m.renewals, cell.n, at);
      assert.equal(cents(m.subscriptions), cell.kinds.Subscription ?? 0, at);
      assert.equal(cents(m.maintenance), cell.kinds.Maintenance ?? 0, at);
      assert.equal(cents(m.support), cell.kinds.Support ?? 0, at);
      assert.equal(cents(m.annualCost), cents(m.subscriptions + m.maintenance + m.support), at);
      renewalsSeen += m.renewals;
    }
    assert.equal(renewalsSeen, rows.length, "every renewal of the list is in a month");
    for (const [code, line] of Object.entries(list(run.json).totals) as [string, RawItem][]) {
      assert.equal(cents(months.totals[code].annualCost), cents(line.annualCost), code);
      assert.equal(months.totals[code].renewals, line.rows, code);
    }
    assert.ok(
      months.rows.some((m: RawItem) => m.renewals === 0),
      "a month with nothing due shows 0",
    );
    assert.ok(new Set(rows.map((r: RawItem) => r.status)).size >= 3, "statuses differ");
  });

  it("narrows to the horizon asked for", async () => {
    const run = await runReportForTest({
      server: fixture.srv,
      report: renewals,
      params: { horizonDays: 90 },
    });
    const want = await expected(fixture.api, TEST_NOW, 90);
    assert.ok(want.size > 0 && want.size < (await expected(fixture.api, TEST_NOW, 365)).size);
    assertSameRenewals(list(run.json).rows, want);
  });

  it("flags subscriptions that ended while their application is still installed", async () => {
    const later = new Date(TEST_NOW.getTime() + 400 * DAY);
    const run = await runReportForTest({ server: fixture.srv, report: renewals, now: later });
    const want = await expected(fixture.api, later, 365);
    const expired = [...want.values()].filter((w) => w.expired).length;
    assert.ok(expired > 0, "some subscriptions ended with installs remaining");
    assertSameRenewals(list(run.json).rows, want);
    const fact = run.result.document.summary.find((f) =>
      f.label === "Expired subscriptions in use"
    );
    assert.equal(fact?.value, expired);
  });
});

/** A service as the spec describes it: no maintenance periods, no subscription fields. */
function specOnlyProxy(upstream: string) {
  const strip = ["subscriptionValidFrom", "subscriptionValidTo", "isSubscription"];
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname.endsWith("/maintenance-periods")) {
      return Response.json({ error: { code: 404, message: "Not found" } }, { status: 404 });
    }
    const res = await fetch(upstream + url.pathname + url.search, {
      method: req.method,
      headers: req.headers,
      body: req.body,
    });
    if (!url.pathname.startsWith(`${LICENSES}/licenses`) || res.status !== 200) return res;
    const body = await res.json();
    for (const item of body.items ?? [body]) for (const f of strip) delete item[f];
    return Response.json(body);
  });
}

describe("renewals on a service without the fields", () => {
  const fixture = serverFixture({ computers: 50, token: TOKEN });

  it("says what it cannot see instead of showing an empty table", async () => {
    const proxy = specOnlyProxy(fixture.srv.url);
    try {
      const run = await runReportForTest({
        server: { url: `http://127.0.0.1:${proxy.addr.port}`, token: TOKEN },
        report: renewals,
        formats: ["json", "html"],
      });
      assert.equal(list(run.json).rows.length, 0);
      const html = await Deno.readTextFile(run.file("html"));
      assert.match(html, /Nothing to show: The service does not serve maintenance and support/);
      assert.match(html, /sends no subscription terms/);
    } finally {
      await proxy.shutdown();
    }
  });
});
