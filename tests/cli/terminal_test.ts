/**
 * Tasks as a person types them: in a terminal. Deno asks for a missing permission only when a
 * terminal is attached, and then waits for an answer forever; scripts and CI, with no terminal,
 * never see the question. These run tasks under a pseudo-terminal (`script`) whose input stays
 * open and never answers, and fail at once if Deno asks anything. The README's demo, weekly pack
 * and snapshot re-render run the same way, in a fresh clone, in readme_commands_test.ts.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { taskEnvProblems } from "../../lib/cli/task_env.ts";
import { HAS_SCRIPT, inTerminal } from "../helpers/terminal.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const dec = new TextDecoder();

describe("in a terminal, no task asks a question", { skip: !HAS_SCRIPT && "no `script`" }, () => {
  it("a PDF report finishes", async () => {
    const out = "out/test-terminal/report";
    // A small estate: the point is the browser's launch and print under the report's permissions.
    const { code, text } = await inTerminal(
      ["deno", "task", "report", "license-position", "--format", "pdf", "--computers", "20"]
        .concat(["--out", out, "--quiet"]),
    );
    assert.equal(code, 0, text);
    assert.ok((await Deno.stat(`${ROOT}${out}/license-position.pdf`)).size > 1000);
  });

  it("a tenant task with its host variable unset says which and what to put in it", async () => {
    const { code, text } = await inTerminal(
      ["deno", "task", "report:tenant", "license-cost-summary"],
      { limitMs: 60_000 },
    );
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
