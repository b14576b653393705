/**
 * A pack's "theme": a path from the pack file's folder (or from the folder a queued job carries,
 * so a worker running elsewhere finds the same file), made absolute; anything but a non-empty
 * path is refused naming the field.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { loadPack, PackFileError, validatePack } from "../../lib/pack/pack_file.ts";
import { REPORTS } from "../../reports/mod.ts";

const doc = (theme: unknown) => ({ name: "weekly", reports: [{ id: "stale-computers" }], theme });

describe("a pack's theme", () => {
  it("is resolved from the pack file's folder", () => {
    const pack = validatePack(doc("../theme/theme.json"), {
      file: "/srv/packs/weekly.json",
      reports: REPORTS,
    });
    assert.equal(pack.theme, "/srv/theme/theme.json");
  });

  it("is resolved from a job's pack folder when one is given", async () => {
    const pack = await loadPack(doc("./theme.json"), {
      file: "packs/weekly.json",
      base: "/var/jobs/acme",
      reports: REPORTS,
    });
    assert.equal(pack.theme, "/var/jobs/acme/theme.json");
  });

  it("is absent when not given, and refused when not a path", () => {
    const plain = validatePack(doc(undefined), { file: "weekly.json", reports: REPORTS });
    assert.equal(plain.theme, undefined);
    for (const bad of ["", 7, { file: "x" }]) {
      assert.throws(
        () => validatePack(doc(bad), { file: "weekly.json", reports: REPORTS }),
        (e: Error) =>
          e instanceof PackFileError && /^weekly\.json: theme: expected the path/.test(e.message),
      );
    }
  });
});
