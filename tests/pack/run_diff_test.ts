/**
 * What changed between two audits: two pack runs of one source (the same address, a proxy in
 * front of two reference servers of the same seed) between which the estate changed — a
 * computer removed, installs added, a license added — and `deno task diff` (offline, its own
 * permission set without network) finds each of those ids, explains the position they moved,
 * states money per currency, writes nothing into the runs, and refuses two runs of different
 * sources, a run without a snapshot and a snapshot changed since its run (exit 2).
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import { sha256File } from "../../lib/pack/manifest.ts";
import { outTestDir } from "../helpers/files.ts";
import { runCli } from "../helpers/cli.ts";
import { TEST_NOW } from "../helpers/server.ts";
import {
  ADDED_LICENSE,
  changeEstate,
  GONE_COMPUTER,
  type SwitchingProxy,
  switchingProxy,
} from "./estate_change.ts";

const TOKEN = "run-diff-token";
const ESTATE = { port: 0, computers: 120, seed: 7, now: TEST_NOW, quiet: true, token: TOKEN };

type Row = Record<string, unknown>;
const section = (json: { sections: { id: string; rows: Row[] }[] }, id: string) =>
  json.sections.find((s) => s.id === id)!.rows;

async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    out.push(`${e.name} ${await sha256File(join(dir, e.name))}`);
  }
  return out.sort();
}

describe("deno task diff between two pack runs", () => {
  let dir: string, a: RunningServer, b: RunningServer, other: RunningServer;
  let proxy: SwitchingProxy;
  let runA: string, runB: string, runOther: string, added: string[];
  const pack = validatePack({
    name: "diffed",
    reports: [{ id: "license-position", formats: ["json"] }],
  }, { file: "diffed.json", reports: REPORTS });
  const at = (minutes: number) => () => new Date(TEST_NOW.getTime() + minutes * 60_000);

  before(async () => {
    dir = await outTestDir("run-diff-");
    [a, b, other] = await Promise.all([
      startServer(ESTATE),
      startServer(ESTATE),
      startServer(ESTATE),
    ]);
    // Before: one more computer, with an install of CHANGED_APP; after: it is gone, five
    // installs of CHANGED_APP on computers that had none, and a license of 2 more units.
    added = changeEstate(a, b, 5).map((c) => c.id);
    proxy = switchingProxy(a.url);
    const source = { baseUrl: proxy.url, token: TOKEN };
    const first = await runPack({
      pack,
      reports: REPORTS,
      outRoot: dir,
      source,
      snapshot: true,
      now: at(0),
    });
    proxy.to(b.url);
    const second = await runPack({
      pack,
      reports: REPORTS,
      outRoot: dir,
      source,
      snapshot: true,
      now: at(60),
    });
    const third = await runPack({
      pack,
      reports: REPORTS,
      outRoot: join(dir, "other"),
      source: { baseUrl: other.url, token: TOKEN },
      snapshot: true,
      now: at(120),
    });
    assert.ok(first.ok && second.ok && third.ok);
    [runA, runB, runOther] = [first.dir, second.dir, third.dir];
  });

  after(async () => {
    await proxy?.close();
    await Promise.all([a, b, other].map((s) => s?.close()));
    if (dir) await Deno.remove(dir, { recursive: true });
  });

  const diff = (args: string[]) => runCli(["diff", ...args], { set: "diff" });

  it("finds the computer removed, the installs added and the license added, and the position they moved", async () => {
    const untouched = [await listing(runA), await listing(runB)];
    const out = join(dir, "diff-out");
    const r = await diff([runA, runB, "--format", "json,csv,xlsx,html", "--out", out, "--quiet"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual([await listing(runA), await listing(runB)], untouched, "runs unchanged");
    const json = JSON.parse(await Deno.readTextFile(join(out, "run-diff.json")));

    const computers = section(json, "computers");
    assert.deepEqual(
      computers.filter((c) => c.change === "removed").map((c) => c.computerId),
      [GONE_COMPUTER],
    );
    assert.equal(computers.filter((c) => c.change === "added").length, 0);

    const installs = section(json, "installs");
    assert.deepEqual(
      installs.filter((i) => i.change === "appeared").map((i) => i.computerId).sort(),
      [...added].sort(),
    );
    assert.deepEqual(
      installs.filter((i) => i.change === "disappeared").map((i) => i.computerId),
      [GONE_COMPUTER],
    );
    assert.ok(installs.every((i) => i.change === "appeared" || i.change === "disappeared"));

    const licenses = section(json, "licenses");
    assert.deepEqual(licenses.map((l) => [l.license, l.change, l.units]), [[
      ADDED_LICENSE,
      "added",
      2,
    ]]);

    // The position of CHANGED_APP: requirement +5 −1 = +4, purchased +2: 2 units worse.
    const positions = section(json, "positions");
    assert.equal(positions.length, 1, JSON.stringify(positions));
    const [p] = positions;
    assert.equal(
      p.shortfallAfter as number - (p.shortfallBefore as number) -
        ((p.surplusAfter as number) - (p.surplusBefore as number)),
      2,
    );
    assert.equal((p.requirementAfter as number) - (p.requirementBefore as number), 4);
    assert.equal((p.entitlementsAfter as number) - (p.entitlementsBefore as number), 2);
    const why = p.movedBy as string;
    assert.match(
      why,
      /requirement \+4 \(5 installs added \(\+5\) on [^;]*; 1 install removed \(−1\) on GONE-PC-01\)/,
    );
    assert.match(why, new RegExp(`purchased \\+2 \\(1 license added: ${ADDED_LICENSE} \\+2\\)`));
    const names = added.map((id) => b.store.first("Computer", { id })!.hostName as string);
    for (const name of names) assert.ok(why.includes(name), `${name} named in: ${why}`);

    const money = section(json, "money");
    assert.ok(money.length > 0, "money per currency");
    for (const m of money) {
      assert.equal(
        Math.round((m.shortfallCostAfter as number) * 100) -
          Math.round((m.shortfallCostBefore as number) * 100),
        Math.round((m.shortfallCostChange as number) * 100),
        `${m.currency}: change = after − before`,
      );
    }
    const usd = money.find((m) =>
      m.currency === b.store.first("License", { id: ADDED_LICENSE })!.purchaseCurrency
    );
    assert.ok(usd && (usd.licensesAdded as number) > 0, "the added license's purchase value");
  });

  it("refuses two runs of different sources, exit 2, nothing written", async () => {
    const out = join(dir, "refused-out");
    const r = await diff([runA, runOther, "--format", "json", "--out", out, "--quiet"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /runs of different sources are not compared/);
    assert.equal(await Deno.stat(out).then(() => true, () => false), false, "no output folder");
  });

  it("refuses a run without a snapshot, or with a snapshot changed since the run, exit 2", async () => {
    const copy = join(dir, "copied", "run");
    await Deno.mkdir(join(dir, "copied"), { recursive: true });
    assert.ok((await new Deno.Command("cp", { args: ["-a", runB, copy] }).output()).success);
    const bytes = await Deno.readFile(join(copy, "snapshot.sqlite"));
    bytes[bytes.length - 1] ^= 1;
    await Deno.writeFile(join(copy, "snapshot.sqlite"), bytes);
    const changed = await diff([
      runA,
      copy,
      "--format",
      "json",
      "--out",
      join(dir, "o1"),
      "--quiet",
    ]);
    assert.equal(changed.code, 2, changed.stderr);
    assert.match(changed.stderr, /snapshot\.sqlite whose SHA-256 is not the manifest's/);
    await Deno.remove(join(copy, "snapshot.sqlite"));
    const missing = await diff([
      runA,
      copy,
      "--format",
      "json",
      "--out",
      join(dir, "o2"),
      "--quiet",
    ]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /has no snapshot\.sqlite/);
  });

  it("never writes into a run folder it reads", async () => {
    const r = await diff([runA, runB, "--out", join(runB, "diff")]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /inside the run folder/);
  });
});
