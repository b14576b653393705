/**
 * `deno task <any> --help` prints its usage, exits 0 and runs nothing: a person trying a task for
 * the first time must not start a job (the screenshots task used to rewrite tracked PNGs).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;
const dec = new TextDecoder();
const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
const TASKS = Object.keys(config.tasks as Record<string, string>).filter((t) => t !== "test");

/** Host variables set, so the :tenant/:remote tasks get past their environment check. */
const HOSTS = {
  SAM_API_HOST: "localhost",
  SAM_API_HOSTS: "localhost",
  SAMKIT_SMTP_HOST: "localhost",
  SAMKIT_SMTP_HOSTS: "localhost",
  SAMKIT_DB_HOST: "localhost",
};

async function status(): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["status", "--porcelain", "--", "docs", "packs", "out/packs"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  return dec.decode(out.stdout);
}

describe("deno task <name> --help", () => {
  for (const task of TASKS) {
    it(`${task}: prints its usage and exits 0`, async () => {
      const before = await status();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", task, "--help"],
        cwd: ROOT,
        env: { NO_COLOR: "1", ...HOSTS },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = dec.decode(out.stdout);
      assert.equal(out.code, 0, dec.decode(out.stderr));
      assert.match(stdout, /^Usage: /m, stdout.slice(0, 300));
      assert.equal(await status(), before, "nothing written");
    });
  }
});
