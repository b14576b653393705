/**
 * The README's commands as a person types them: in a terminal. Deno asks for a missing permission
 * only when a terminal is attached, and then waits for an answer forever; scripts and CI, with no
 * terminal, never see the question. These run each task under a pseudo-terminal (`script`) whose
 * input stays open and never answers, and fail at once if Deno asks anything.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { taskEnvProblems } from "../../lib/cli/task_env.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const dec = new TextDecoder();

/** Whether `script` (util-linux) is here to make a pseudo-terminal. */
const HAS_SCRIPT = await new Deno.Command("script", { args: ["--version"], stdout: "null" })
  .output().then((o) => o.success, () => false);

/**
 * Runs `deno task <args>` under a pseudo-terminal from the project folder. Resolves with the exit
 * code and the terminal's text; rejects as soon as Deno prompts, or after `limitMs`.
 */
async function inTerminal(args: string, limitMs = 240_000) {
  const command = `${Deno.execPath()} task ${args}`;
  const child = new Deno.Command("script", {
    args: ["-q", "-e", "-c", command, "/dev/null"],
    cwd: ROOT,
    env: { NO_COLOR: "1", SAM_BASE_URL: "", SAM_REGION: "", SAM_TOKEN: "" },
    stdin: "piped", // open and silent: a prompt would wait here for ever
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still running after ${limitMs} ms:\n${text}`)),
      limitMs,
    );
  });
  const read = (async () => {
    for await (const chunk of child.stdout) {
      text += dec.decode(chunk, { stream: true });
      if (/Deno requests|Allow\? \[y\/n/.test(text)) {
        throw new Error(`Deno asked for a permission in a terminal:\n${text.slice(-1500)}`);
      }
    }
  })();
  try {
    await Promise.race([read, limit]);
    const status = await Promise.race([child.status, limit]);
    return { code: status.code, text };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    throw error;
  } finally {
    clearTimeout(timer);
    await child.stdin.close().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    await child.status;
  }
}

describe("in a terminal, no task asks a question", { skip: !HAS_SCRIPT && "no `script`" }, () => {
  it("deno task demo finishes, printing its PDFs", async () => {
    const { code, text } = await inTerminal("demo");
    assert.equal(code, 0, text);
    for (const id of ["license-cost-summary", "hardware-socket-map"]) {
      const pdf = await Deno.stat(`${ROOT}out/demo/${id}.pdf`);
      assert.ok(pdf.size > 1000, `${id}.pdf`);
    }
  });

  it("a PDF report finishes", async () => {
    const out = "out/test-terminal/report";
    const { code, text } = await inTerminal(
      `report license-position --format pdf --out ${out} --quiet`,
    );
    assert.equal(code, 0, text);
    assert.ok((await Deno.stat(`${ROOT}${out}/license-position.pdf`)).size > 1000);
  });

  it("the weekly pack finishes with a complete manifest", async () => {
    const out = `out/test-terminal/packs-${crypto.randomUUID().slice(0, 8)}`;
    const { code, text } = await inTerminal(`pack packs/weekly_audit.json --out ${out}`);
    assert.equal(code, 0, text);
    const runs = [...Deno.readDirSync(`${ROOT}${out}/weekly-audit`)].filter((e) => e.isDirectory);
    assert.equal(runs.length, 1);
    const manifest = JSON.parse(
      await Deno.readTextFile(`${ROOT}${out}/weekly-audit/${runs[0].name}/manifest.json`),
    );
    assert.equal(manifest.status, "complete");
    await Deno.remove(`${ROOT}${out}`, { recursive: true });
  });

  it("a tenant task with its host variable unset says which and what to put in it", async () => {
    const { code, text } = await inTerminal("report:tenant license-cost-summary", 60_000);
    assert.equal(code, 2, text);
    assert.match(text, /SAM_API_HOST is not set/);
    assert.match(text, /export SAM_API_HOST=/);
    assert.doesNotMatch(text, /invalid empty host|backtrace/i);
  });
});

describe("taskEnvProblems", () => {
  it("names each unset variable of the task with an example, and accepts host names", () => {
    const unset = taskEnvProblems("worker:remote", ["SAMKIT_DB_HOST", "SAM_API_HOSTS"], () => "");
    assert.equal(unset.length, 2);
    assert.match(unset[0], /^SAMKIT_DB_HOST is not set: `deno task worker:remote`/);
    assert.match(unset[1], /^SAM_API_HOSTS is not set/);
    const hosts = (name: string) =>
      ({ SAM_API_HOSTS: "a.example.com, 10.0.0.7:8443", SAMKIT_DB_HOST: "db" })[name];
    assert.deepEqual(
      taskEnvProblems("worker:remote", ["SAMKIT_DB_HOST", "SAM_API_HOSTS"], hosts),
      [],
    );
  });

  it("refuses a URL, a path or a list where one host is wanted", () => {
    for (const value of ["https://eu.example.com", "eu.example.com/api", "a b", "a,b", "user@h"]) {
      const problems = taskEnvProblems("report:tenant", ["SAM_API_HOST"], () => value);
      assert.equal(problems.length, 1, value);
      assert.match(problems[0], /is not a host name: give the host only/, value);
    }
  });
});

describe("--token", () => {
  it("warns that the command line shows it, without printing it (and a token never gets the demo server)", async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=report", "--no-prompt", "main.ts", "report", "license-cost-summary"]
        .concat(["--format", "json", "--out", "out/test-terminal/token", "--quiet"])
        .concat(["--token", "S3CR3T-TOKEN-VALUE"]),
      cwd: ROOT,
      env: { NO_COLOR: "1", SAM_BASE_URL: "", SAM_REGION: "" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = dec.decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, /a token was given but the API's address is not: set SAM_BASE_URL/);
    assert.match(stderr, /--token puts the token on the command line/);
    assert.match(stderr, /SAM_TOKEN/);
    assert.doesNotMatch(stderr + dec.decode(out.stdout), /S3CR3T-TOKEN-VALUE/);
  });
});
