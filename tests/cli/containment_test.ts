/**
 * The CLI refuses a file or folder a user names that leads, through a symbolic link, outside the
 * task's roots: exit 2, the message names the path and where it points, nothing read or written.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ROOT, runCli } from "../helpers/cli.ts";

async function link(target: string, path: string): Promise<void> {
  // Deno.symlink needs unscoped read and write; the test set is scoped, so `ln` it is.
  const { code } = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(code, 0);
}

const samkit = (set: string, args: string[]) => runCli(args, { set });

describe("inputs named through a symbolic link under /tmp or ./out", () => {
  const cases: [string, string, (path: string) => [string, string[]]][] = [
    ["pack file", "/etc/passwd", (p) => ["pack", ["pack", p]]],
    ["pack file", "/root", (p) => ["pack", ["pack", p]]],
    ["snapshot file", "/etc/passwd", (p) => [
      "report",
      ["report", "license-cost-summary", "--from-snapshot", p, "--out", "/tmp/never"],
    ]],
    ["tenants file", "/etc/passwd", (p) => [
      "enqueue",
      ["enqueue", "packs/weekly_audit.json", "--tenants", p],
    ]],
  ];
  for (const [what, target, command] of cases) {
    it(`${what} -> ${target}: exit 2, names the path and its target, echoes nothing`, async () => {
      // The enqueue set reads only the project folder: its link is planted under ./out.
      await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
      const dir = await Deno.makeTempDir(what === "tenants file" ? { dir: `${ROOT}out/test` } : {});
      const path = `${dir}/input.json`;
      await link(target, path);
      const [set, args] = command(path);
      const { code, stderr, stdout } = await samkit(set, args);
      assert.equal(code, 2, stderr);
      assert.ok(stderr.includes(path), stderr);
      assert.ok(stderr.includes(`symbolic link to ${target}`), stderr);
      assert.ok(!/root:x:0:0/.test(stderr + stdout), stderr);
      await Deno.remove(dir, { recursive: true });
    });
  }
});

describe("a pack whose folder is a symbolic link planted in its output root", () => {
  it("writes nothing through it: exit 2, the target folder stays empty", async () => {
    const dir = await Deno.makeTempDir();
    const elsewhere = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/runs`);
    await link(elsewhere, `${dir}/runs/hostile`);
    await Deno.writeTextFile(
      `${dir}/pack.json`,
      JSON.stringify({
        name: "hostile",
        output: `${dir}/runs`,
        reports: [{ id: "stale-computers", formats: ["json"] }],
      }),
    );
    const { code, stderr } = await samkit("pack", ["pack", `${dir}/pack.json`]);
    assert.equal(code, 2, stderr);
    assert.ok(stderr.includes(`${dir}/runs/hostile`), stderr);
    assert.deepEqual([...Deno.readDirSync(elsewhere)], []);
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(elsewhere, { recursive: true });
  });
});
