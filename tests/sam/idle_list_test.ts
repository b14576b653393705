import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { IdleList, type ListedInstall } from "../../lib/sam/idle_list.ts";

const install = (over: Partial<ListedInstall>): ListedInstall => ({
  computerId: "C1",
  applicationId: "A1",
  lastUsed: null,
  firstDiscovered: null,
  idleDays: null,
  bucketLabel: "Never used",
  licensed: false,
  candidate: true,
  ...over,
});

describe("idle list", () => {
  it("gives back every field as it was pushed: dates, missing dates, null idle days, flags", () => {
    const list = new IdleList();
    const pushed = [
      install({}),
      install({
        computerId: "C2",
        lastUsed: new Date("2026-01-02T03:04:05.678Z"),
        firstDiscovered: new Date("2025-01-01T00:00:00Z"),
        idleDays: 42,
        bucketLabel: "30–89 days",
        licensed: true,
        candidate: false,
      }),
      install({ computerId: "C3", lastUsed: undefined!, idleDays: 0, licensed: true }),
      install({ computerId: null, applicationId: null }),
    ];
    for (const i of pushed) list.push(i);
    const back = [...list.inComputerOrder()];
    assert.deepEqual(back, [pushed[3], pushed[0], pushed[1], pushed[2]]);
    assert.ok("lastUsed" in back[3] && back[3].lastUsed === undefined);
  });
  it("orders by computer then application by code unit, keeping arrival order on ties", () => {
    const list = new IdleList();
    const ids = [["b", "A2", 1], ["B", "A1", 2], ["b", "A1", 3], ["a", "Z", 4], ["b", "A1", 5]];
    for (const [c, a, d] of ids) {
      list.push(
        install({ computerId: c as string, applicationId: a as string, idleDays: d as number }),
      );
    }
    const order = [...list.inComputerOrder()].map((i) => i.idleDays);
    assert.deepEqual(order, [2, 4, 3, 5, 1]);
  });
  it("orders many installs as a stable sort by computer then application would", () => {
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const list = new IdleList();
    const pushed: { computerId: string | null; applicationId: string; idleDays: number }[] = [];
    for (let i = 0; i < 20_000; i++) {
      const c = random(50) === 0 ? null : `C${random(3000)}`;
      const one = { computerId: c, applicationId: `A${random(90)}`, idleDays: i };
      pushed.push(one);
      list.push(install(one));
    }
    const text = (v: string | null) => v ?? "";
    const byUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = pushed.toSorted((a, b) =>
      byUnit(text(a.computerId), text(b.computerId)) || byUnit(a.applicationId, b.applicationId)
    ).map((i) => i.idleDays);
    assert.deepEqual([...list.inComputerOrder()].map((i) => i.idleDays), expected);
  });
});
