/**
 * A manifest's record of a user's report module is checked before anything is loaded from it:
 * its path must be a plain path inside the project folder (no absolute path, no `.`/`..` step)
 * and its SHA-256 a hex digest, or verify calls the manifest "not a manifest" naming the field.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { verifyRunFolder } from "../../lib/pack/verify_run.ts";

const SHA = "a".repeat(64);

/** A run folder whose manifest lists no file and one report with `module`. */
async function runWith(module: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-manifest-module-" });
  const manifest = {
    pack: "p",
    status: "complete",
    started: "2026-11-28T00:00:00.000Z",
    finished: "2026-11-28T00:01:00.000Z",
    source: "x",
    samkitVersion: "0.1.0",
    parameters: {},
    reports: [{ id: "mine", module, status: "ok", params: {}, formats: [], files: [] }],
    files: [],
  };
  await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

describe("a manifest's report module", () => {
  for (
    const [module, detail] of [
      [{ path: "/etc/mine.ts", sha256: SHA }, /reports\[0\]\.module\.path is not a path inside/],
      [{ path: "../elsewhere/mine.ts", sha256: SHA }, /reports\[0\]\.module\.path is not a path/],
      [{ path: "reports/./mine.ts", sha256: SHA }, /reports\[0\]\.module\.path is not a path/],
      [{ path: "reports/mine.ts", sha256: "ABC" }, /reports\[0\]\.module\.sha256 is not a hex/],
      [{ path: 7, sha256: SHA }, /reports\[0\]\.module\.path is not a path/],
      [null, /reports\[0\]\.module\.path is not a path/],
    ] as const
  ) {
    it(`refuses ${JSON.stringify(module)}`, async () => {
      const dir = await runWith(module);
      try {
        const result = await verifyRunFolder({ dir });
        assert.equal(result.ok, false);
        const finding = result.findings.find((f) => f.file === "manifest.json");
        assert.equal(finding?.problem, "not a manifest", JSON.stringify(result.findings));
        assert.match(finding.detail, detail);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  }

  it("takes a plain path inside the project folder", async () => {
    const dir = await runWith({ path: "reports/mine.ts", sha256: SHA });
    try {
      const result = await verifyRunFolder({ dir });
      assert.equal(result.ok, true, JSON.stringify(result.findings));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
