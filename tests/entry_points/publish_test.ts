/**
 * samkit is publishable as it stands: `deno publish --dry-run` finds no slow type, licence or
 * packaging problem; `deno doc --lint` over every entry point finds no undocumented export and
 * no reference to a type the package does not export; each entry point's own example runs.
 * Neither run type-checks: `deno task test` has just type-checked every entry point and its
 * examples (`deno check --doc *.ts …`), and the dry run still checks for slow types without it.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

async function deno(args: string[]): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, output: text };
}

/** The files of deno.json's exports. */
async function entryPoints(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  return Object.values(config.exports as Record<string, string>);
}

/** The lines of a deno report that name a problem (`error[…]`), at most 20 for a message. */
const problems = (output: string) =>
  output.split("\n").filter((l) => /^(error|warning)\[/.test(l)).slice(0, 20).join("\n");

describe("samkit as a package", () => {
  it("deno publish --dry-run passes: a licence, no slow types, nothing left out", async () => {
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
    assert.equal(config.license, "MIT");
    assert.match(await Deno.readTextFile(new URL("LICENSE", ROOT)), /^MIT License/);
    // --no-check: the type check is `deno check --doc`'s; slow types are still found without it.
    const run = await deno(["publish", "--dry-run", "--allow-dirty", "--no-check"]);
    assert.equal(run.code, 0, problems(run.output) || run.output.slice(-2000));
    assert.match(run.output, /Dry run complete/);
    assert.doesNotMatch(run.output, /file:\/\/\S+\/(tests|bench|out)\//);
  });

  it("deno doc --lint passes over every entry point", async () => {
    const run = await deno(["doc", "--lint", ...await entryPoints()]);
    assert.equal(run.code, 0, problems(run.output) || run.output.slice(-2000));
  });

  it("every entry point's example runs", async () => {
    const entries = await entryPoints();
    const run = await deno(["test", "-P=test", "--no-prompt", "--no-check", "--doc", ...entries]);
    assert.equal(run.code, 0, run.output.slice(-3000));
    assert.match(run.output, new RegExp(`ok \\| ${entries.length} passed`));
  });
});
