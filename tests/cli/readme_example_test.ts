import { describe, it } from "node:test";
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

/** The body of the first ```ts block after `heading` in the README. */
function tsBlockAfter(readme: string, heading: string): string {
  const at = readme.indexOf(heading);
  assert.ok(at >= 0, `README has no "${heading}"`);
  const open = readme.indexOf("```ts\n", at);
  const close = readme.indexOf("\n```\n", open);
  assert.ok(open >= 0 && close > open, `no ts block after "${heading}"`);
  return readme.slice(open + "```ts\n".length, close);
}

describe("the README's own-project example", () => {
  it("is the report deno task init writes, character for character", async () => {
    const readme = await Deno.readTextFile(new URL("README.md", root));
    const written = await Deno.readTextFile(
      new URL("lib/cli/project_template/reports/servers_by_os.ts.txt", root),
    );
    const shown = tsBlockAfter(readme, "## Use samkit from your own project");
    assert.equal(shown, written.trimEnd());
  });
});
