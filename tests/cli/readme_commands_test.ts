/**
 * The README's commands as a person types them, in a fresh clone and in a terminal: the demo, the
 * weekly pack with its relative default output folder and a re-render from the pack's snapshot
 * each finish, writing what the README says, and none asks a question (Deno asks for a missing
 * permission only when a terminal is attached, and then waits for ever: the run fails at once).
 * Without `script` to make a pseudo-terminal the commands still run, with no terminal.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Manifest, sha256File } from "../../lib/pack/manifest.ts";
import { HAS_SCRIPT, inTerminal, type TerminalRun } from "../helpers/terminal.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const dec = new TextDecoder();

/** The README's shell commands that start with `start`, verbatim (comments dropped). */
async function readmeCommand(start: string): Promise<string[]> {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const line = blocks.flatMap((b) => b.split("\n")).find((l) => l.startsWith(start));
  assert.ok(line, `the README shows a command starting "${start}"`);
  return line.replace(/#.*$/, "").trim().split(/\s+/);
}

/** Runs a command (its `deno` is this Deno) in `cwd` with no terminal, output and errors together. */
async function run(cwd: string, command: readonly string[]): Promise<TerminalRun> {
  const [program, ...args] = command;
  const out = await new Deno.Command(program === "deno" ? Deno.execPath() : program, {
    args,
    cwd,
    env: { NO_COLOR: "1", SAM_BASE_URL: "", SAM_REGION: "", SAM_TOKEN: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** Runs a README command in `cwd` as a person does: in a terminal (when `script` is here). */
const typed = (cwd: string, command: readonly string[]) =>
  HAS_SCRIPT ? inTerminal(command, { cwd }) : run(cwd, command);

describe("the README's commands", () => {
  it(
    `demo, pack with its relative default output folder and a re-render from its snapshot work in a fresh clone${
      HAS_SCRIPT ? ", in a terminal that no command asks a question" : ""
    }`,
    async () => {
      const tmp = await Deno.makeTempDir({ prefix: "readme-clone-" });
      const clone = `${tmp}/samkit`;
      try {
        const cloned = await run(ROOT, ["git", "clone", "--quiet", ROOT, clone]);
        assert.equal(cloned.code, 0, cloned.text);

        const demo = await typed(clone, await readmeCommand("deno task demo"));
        assert.equal(demo.code, 0, demo.text);
        const demoFiles: string[] = [];
        for await (const e of Deno.readDir(`${clone}/out/demo`)) demoFiles.push(e.name);
        assert.equal(
          demoFiles.filter((n) => /\.(html|pdf|xlsx)$/.test(n)).length,
          12,
          `${demoFiles}`,
        );
        for (const id of ["license-cost-summary", "hardware-socket-map"]) {
          assert.ok((await Deno.stat(`${clone}/out/demo/${id}.pdf`)).size > 1000, `${id}.pdf`);
        }

        const pack = await typed(
          clone,
          await readmeCommand("deno task pack packs/weekly_audit.json"),
        );
        assert.equal(pack.code, 0, pack.text);
        const runs: string[] = [];
        for await (const e of Deno.readDir(`${clone}/out/packs/weekly-audit`)) {
          if (!e.name.startsWith(".")) runs.push(e.name);
        }
        assert.equal(runs.length, 1, `${runs}`);
        const runDir = `${clone}/out/packs/weekly-audit/${runs[0]}`;
        const manifest = JSON.parse(await Deno.readTextFile(`${runDir}/manifest.json`)) as Manifest;
        assert.equal(manifest.status, "complete");
        const packFile = JSON.parse(await Deno.readTextFile(`${clone}/packs/weekly_audit.json`));
        assert.deepEqual(
          manifest.reports.map((r) => r.status),
          packFile.reports.map(() => "ok"),
          "every report of the pack ran",
        );
        assert.ok(manifest.files.length >= 12, `${manifest.files.length} files`);
        for (const f of manifest.files) {
          assert.ok(!f.path.startsWith("/") && !f.path.includes(".."), `relative: ${f.path}`);
          assert.equal(await sha256File(`${runDir}/${f.path}`), f.sha256, f.path);
          assert.equal((await Deno.stat(`${runDir}/${f.path}`)).size, f.bytes, f.path);
        }
        for (const r of manifest.reports) {
          for (const p of r.files) assert.ok(manifest.files.some((f) => f.path === p), p);
        }

        const again = (await readmeCommand("deno task report license-cost-summary --from-snapshot"))
          .map((a) => a.replace("<run>", runs[0]));
        const rerender = await typed(clone, again);
        assert.equal(rerender.code, 0, rerender.text);
        const pdf = `${clone}/out/license-cost-summary.pdf`;
        assert.ok((await Deno.stat(pdf)).size > 1000, "the re-render prints its PDF");
      } finally {
        await Deno.remove(tmp, { recursive: true });
      }
    },
  );
});
