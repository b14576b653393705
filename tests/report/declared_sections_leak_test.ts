/**
 * The declared-sections check of a report whose data function starts several reads at once
 * (unused-software: lookups, installs and the license position in one Promise.all) ends
 * quietly: the reads its refusing client rejected, which nothing awaits any more, do not stop
 * the run as unhandled rejections (`deno task report unused-software` exited 1 with
 * "Uncaught (in promise) NeedsService" before any request).
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { runCli } from "../helpers/cli.ts";

describe("the declared-sections check", () => {
  it("lets a report that reads several collections at once run from the command line", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const run = await runCli([
        "report",
        "unused-software",
        "--computers",
        "40",
        "--format",
        "json",
        "--out",
        dir,
        "--quiet",
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /NeedsService/);
      await Deno.lstat(`${dir}/unused-software.json`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
