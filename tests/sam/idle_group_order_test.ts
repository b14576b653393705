import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { IdleList, type ListedInstall } from "../../lib/sam/idle_list.ts";
import {
  idleCounts,
  type IdleInstall,
  idleInstalls,
  readIdleInstalls,
} from "../../lib/sam/idle_installs.ts";
import { licensedInstalls } from "../../lib/sam/reclaimable.ts";
import { compareGroupValues } from "../../lib/report/totals.ts";
import type { Row } from "../../lib/report/model.ts";
import { withReferenceContext } from "../../lib/server/reference_context.ts";
import { unusedSoftware } from "../../reports/unused_software.ts";

const install = (computerId: string | null, applicationId: string, idleDays: number) => ({
  computerId,
  applicationId,
  lastUsed: null,
  firstDiscovered: null,
  idleDays,
  bucketLabel: "Never used",
  licensed: false,
  candidate: true,
} satisfies ListedInstall);

/** Whether each group value comes in one run (none comes back after another). */
function scattered(values: readonly unknown[]): boolean {
  const seen = new Set<unknown>();
  return values.some((v, i) => i > 0 && v !== values[i - 1] && (seen.has(v) || !seen.add(v)));
}

describe("idle installs grouped as a report's spool orders a grouped section", () => {
  it("gives each group in compareGroupValues order, each in computer then application order, as a stable sort by group would", () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // Names a natural sort and a code-unit sort order differently ("Org 10" after "Org 9").
    const orgs = ["Org 9", "Org 10", "org 9", "Ärzte", "(no organization)", "Zeta", "Org 9 "];
    const groupOf = (c: string | null) => c === null ? orgs[4] : orgs[Number(c.slice(1)) % 7];
    const list = new IdleList();
    const pushed: ListedInstall[] = [];
    for (let i = 0; i < 5_000; i++) {
      const c = random(40) === 0 ? null : `C${random(700)}`;
      const one = install(c, `A${random(60)}`, i);
      pushed.push(one);
      list.push(one);
    }
    const byComputer = [...list.inComputerOrder()];
    const expected = byComputer.toSorted((a, b) =>
      compareGroupValues(groupOf(a.computerId), groupOf(b.computerId))
    );
    const grouped = [...list.inGroupOrder(groupOf)];
    assert.deepEqual(grouped.map((i) => i.idleDays), expected.map((i) => i.idleDays));
    assert.equal(scattered(grouped.map((i) => groupOf(i.computerId))), false);
  });

  it("unused-software hands its installations to the spool already grouped by organization, in the order the spool sorts groups (so it never sorts them)", async () => {
    await withReferenceContext({ computers: 300, seed: 3 }, async (ctx) => {
      const data = await unusedSoftware.data(ctx as never);
      const section = data.sections.find((s) => s.id === "installations")!;
      const rows: Row[] = [];
      for await (const row of section.rows as AsyncIterable<Row>) rows.push(row);
      assert.ok(rows.length > 500, `${rows.length} idle installs`);
      const organizations = rows.map((r) => r.organization as string);
      assert.ok(new Set(organizations).size > 3, "several organizations");
      assert.equal(scattered(organizations), false, "each organization in one run");
      const order = [...new Set(organizations)];
      assert.deepEqual(order, order.toSorted(compareGroupValues));
    });
  });
});

describe("reading installs a page at a time", () => {
  it("counts, keeps and hands on what the install-by-install pipeline did, over a paged read", async () => {
    await withReferenceContext({ computers: 300, seed: 5 }, async (ctx) => {
      const rules = { thresholds: [30, 90, 180], isLicensed: await licensedInstalls(ctx) };
      const handed: IdleInstall[] = [];
      const { counts, idle } = await readIdleInstalls(ctx, rules, (i) => handed.push(i));
      const all = await Array.fromAsync(idleInstalls(ctx, rules));
      assert.ok(all.length > 1000, `${all.length} installs`);
      assert.deepEqual(handed, all);
      assert.deepEqual(counts, await idleCounts(all, rules.thresholds));
      assert.deepEqual(
        [...idle.inComputerOrder()],
        await Array.fromAsync(idleInstalls(ctx, rules, true)),
      );
    });
  });

  it("counts with other thresholds as with the defaults: one bucket per threshold, never-used apart", async () => {
    const installs = [
      { applicationId: "A", recent: true, bucket: -1, never: false, candidate: false },
      { applicationId: "B", recent: false, bucket: 1, never: false, candidate: true },
      { applicationId: "A", recent: false, bucket: -1, never: true, candidate: true },
      { applicationId: "A", recent: false, bucket: 0, never: false, candidate: false },
    ] as IdleInstall[];
    assert.deepEqual(await idleCounts(installs, [7, 14]), [
      { id: "A", installations: 3, recent: 1, idle7: 1, idle14: 0, never: 1, candidates: 1 },
      { id: "B", installations: 1, recent: 0, idle7: 0, idle14: 1, never: 0, candidates: 1 },
    ]);
  });
});
