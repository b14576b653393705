/**
 * The browsers samkit looks for ({@link SYSTEM_BROWSERS}) are written in three places besides
 * `lib/render/browser.ts`: `bin/samkit-chromium`'s allow-list, the read list of every permission
 * set that may run it (`deno.json`) and the README. A browser added to one and not the others is
 * found and then refused, or refused a read Deno would otherwise prompt for: this keeps them one
 * list.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SYSTEM_BROWSERS } from "../../lib/render/browser.ts";
import { ROOT } from "../helpers/cli.ts";

describe("the browsers samkit looks for", () => {
  it("are each allowed by bin/samkit-chromium", async () => {
    const script = await Deno.readTextFile(`${ROOT}bin/samkit-chromium`);
    const allowed = /case "\$browser" in\n([\s\S]*?)\) ;;/.exec(script)?.[1] ?? "";
    const listed = allowed.split(/[|\\\s]+/).filter((p) => p.startsWith("/"));
    assert.deepEqual(listed, [...SYSTEM_BROWSERS]);
  });

  it("are each readable by every permission set that runs bin/samkit-chromium", async () => {
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
    const sets = Object.entries(config.permissions as Record<string, Record<string, unknown>>)
      .filter(([, set]) => Array.isArray(set.run) && set.run.includes("./bin/samkit-chromium"));
    assert.ok(sets.length >= 5, `sets that print: ${sets.map(([name]) => name).join(", ")}`);
    for (const [name, set] of sets) {
      const read = set.read as string[];
      for (const path of SYSTEM_BROWSERS) assert.ok(read.includes(path), `${name} reads ${path}`);
    }
  });

  it("are each named in the README's security notes", async () => {
    const readme = await Deno.readTextFile(`${ROOT}README.md`);
    for (const path of SYSTEM_BROWSERS) assert.ok(readme.includes(`\`${path}\``), path);
  });
});
