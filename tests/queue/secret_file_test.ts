import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readSecretFile, secretDirs } from "../../lib/tenants/secret_file.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

describe("secret files a worker reads", () => {
  it("looks a bare name up in /run/secrets, then SAMKIT_SECRET_DIRS", async () => {
    assert.deepEqual(secretDirs(() => " /a, /b ,,"), ["/run/secrets", "/a", "/b"]);
    const first = await Deno.makeTempDir({ prefix: "samkit-secret-a-" });
    const second = await Deno.makeTempDir({ prefix: "samkit-secret-b-" });
    try {
      await Deno.writeTextFile(`${second}/acme_token`, "t0ken");
      assert.equal(await readSecretFile("acme_token", [first, second]), "t0ken");
      await assert.rejects(
        () => readSecretFile("missing_token", [first, second]),
        new RegExp(`missing_token is in none of the secret folders ${first}, ${second}`),
      );
    } finally {
      await Deno.remove(first, { recursive: true });
      await Deno.remove(second, { recursive: true });
    }
  });

  it("says when Deno's permissions deny the read: the path, the cause and the set to change", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-secret-denied-" });
    try {
      await Deno.writeTextFile(`${dir}/acme_token`, "never-shown");
      // A child allowed to read only the project: the secret's folder is outside its set.
      const script = `import { readSecretFile } from "file://${ROOT}lib/tenants/secret_file.ts";
        try { await readSecretFile(${JSON.stringify(`${dir}/acme_token`)}); }
        catch (e) { console.log(e.message); }
        try { await readSecretFile("acme_token", [${JSON.stringify(dir)}]); }
        catch (e) { console.log(e.message); }`;
      const main = await Deno.makeTempFile({ prefix: "samkit-secret-probe-", suffix: ".ts" });
      await Deno.writeTextFile(main, script);
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", `--allow-read=${ROOT}`, main],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      await Deno.remove(main);
      const [byPath, byName] = new TextDecoder().decode(out.stdout).trim().split("\n");
      const said = `${byPath}\n${byName}\n${new TextDecoder().decode(out.stderr)}`;
      for (const line of [byPath, byName]) {
        assert.ok(line.includes(`${dir}/acme_token`), said);
        assert.match(line, /outside this task's Deno permissions/, said);
        assert.match(line, /Requires read access/, said);
        assert.match(line, /permissions\.worker\.read/, said);
        assert.ok(!line.includes("never-shown"), said);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

describe("a secret file behind a link", () => {
  it("is not read when the link leads outside the secret folders and the task's roots", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-secret-link-" });
    try {
      await new Deno.Command("ln", { args: ["-s", "/etc/passwd", `${dir}/acme_token`] }).output();
      const error = await readSecretFile("acme_token", [dir]).then(() => undefined, (e) => e);
      assert.ok(error instanceof Error, "refused");
      assert.match(error.message, /acme_token/);
      assert.match(error.message, /\/etc\/passwd/);
      assert.doesNotMatch(error.message, /root:x:0/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
