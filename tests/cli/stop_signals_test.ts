/**
 * The stop mechanism itself, in child processes that signal themselves (a signal to the test
 * runner would stop the runner): the first signal aborts, a second one (or the grace after the
 * first, when the work never ends) runs the last resort and exits with 130/143.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnBounded } from "../helpers/bounded.ts";

const MODULE = new URL("../../lib/cli/stop_signals.ts", import.meta.url).href;

/** Runs `body` in a child with `stopOnSignals` imported; its stdout lines and exit code. */
async function inChild(body: string) {
  const script = `import { stopOnSignals } from ${JSON.stringify(MODULE)};\n${body}`;
  const r = await spawnBounded(
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }),
    60,
  ).result();
  assert.equal(r.timedOut, false, `the child did not end (killed after 60 s)\n${r.stderr}`);
  return { code: r.code, lines: r.stdout.trim().split("\n"), stderr: r.stderr };
}

describe("stopping on SIGINT and SIGTERM", () => {
  it("the first signal aborts with a StoppedError; the command returns its exit code", async () => {
    const r = await inChild(`
      using stop = stopOnSignals({ log: (l) => console.log("log: " + l) });
      const work = new Promise(() => {}); // never ends
      Deno.kill(Deno.pid, "SIGINT");
      try {
        await stop.until(work);
      } catch (e) {
        console.log(e.name, e.message, stop.signal.aborted, stop.exitCode);
      }
      console.log("stopped", (await stop.stopped).exitCode);`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.lines[0], /^log: SIGINT: stopping/);
    assert.deepEqual(r.lines.slice(1), ["StoppedError stopped by SIGINT true 130", "stopped 130"]);
  });

  it("a second signal runs the last resort and exits at once with 143", async () => {
    const r = await inChild(`
      const stop = stopOnSignals({ lastResort: () => console.log("last resort") });
      Deno.kill(Deno.pid, "SIGTERM");
      await new Promise((resolve) => stop.signal.addEventListener("abort", resolve));
      console.log("aborted");
      Deno.kill(Deno.pid, "SIGTERM");
      await new Promise(() => setInterval(() => {}, 1000)); // a command that never ends`);
    assert.equal(r.code, 143, r.stderr);
    assert.deepEqual(r.lines, ["aborted", "last resort"]);
  });

  it("after the grace, a command that does not end is ended: last resort, exit 143", async () => {
    const r = await inChild(`
      stopOnSignals({ graceMs: 50, lastResort: () => console.log("last resort") });
      Deno.kill(Deno.pid, "SIGTERM");
      await new Promise(() => setInterval(() => {}, 1000)); // stuck, whatever the signal`);
    assert.equal(r.code, 143, r.stderr);
    assert.deepEqual(r.lines, ["last resort"]);
  });

  it("once disposed, it no longer listens: the signal's default ends the process", async () => {
    const r = await spawnBounded(
      new Deno.Command(Deno.execPath(), {
        args: [
          "eval",
          `import { stopOnSignals } from ${JSON.stringify(MODULE)};
          { using _stop = stopOnSignals(); }
          Deno.kill(Deno.pid, "SIGTERM");
          await new Promise(() => setInterval(() => {}, 1000));`,
        ],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }),
      60,
    ).result();
    assert.equal(r.timedOut, false, r.stderr);
    assert.equal(r.signal, "SIGTERM");
  });
});
