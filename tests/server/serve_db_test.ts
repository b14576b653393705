import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
const MAIN = `${ROOT}/main.ts`;

/**
 * `samkit serve` in a child Deno with exactly these read and write grants, or with the project's
 * own `serve` permission set (what `deno task serve` uses) when `grants` is `"serve"`.
 */
function serveWith(grants: { read: string[]; write: string[] } | "serve", args: string[]) {
  const permissions = grants === "serve" ? ["-P=serve"] : [
    `--allow-read=${grants.read.join(",")}`,
    `--allow-write=${grants.write.join(",")}`,
    "--allow-env",
    "--allow-net=127.0.0.1,localhost",
  ];
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      ...permissions,
      MAIN,
      "serve",
      "--port",
      "0",
      "--computers",
      "3",
      ...args,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  });
}

/** Read a child's stdout until a line matches, and return the match. */
async function waitForLine(stream: ReadableStream<Uint8Array>, pattern: RegExp) {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    const m = pattern.exec(text);
    if (m) return m;
  }
  throw new Error(`the server ended without printing ${pattern}; it printed:\n${text}`);
}

describe("samkit serve --db and permissions", () => {
  it("exits 2 naming the file and the missing flag when --db may not be read", async () => {
    const dir = await Deno.makeTempDir({ prefix: "samkit-serve-db-" });
    try {
      const db = `${dir}/estate.db`;
      // The serve permission set as it stood: read the project, write ./out and /tmp.
      const out = await serveWith({ read: [ROOT], write: [`${ROOT}/out`, "/tmp"] }, ["--db", db])
        .output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 2, stderr);
      assert.match(stderr, new RegExp(`--db ${db}: the database needs read and write access`));
      assert.match(stderr, /read access is not allowed/);
      assert.match(stderr, new RegExp(`--allow-read=${db}, or pick a file`));
      assert.doesNotMatch(stderr, /--allow-write=/);
      assert.doesNotMatch(stderr, /^\s+at /m);
      assert.doesNotMatch(stderr, /Usage:/);
      await assert.rejects(Deno.stat(db), Deno.errors.NotFound);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("serves from a --db file in /tmp under the serve permission set (WAL siblings too)", async () => {
    const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "samkit-serve-db-" });
    try {
      const db = `${dir}/estate.db`;
      const child = serveWith("serve", ["--db", db]).spawn();
      const errors = new Response(child.stderr).text();
      try {
        const [, url] = await waitForLine(child.stdout, /listening on (\S+)\n/);
        const res = await fetch(`${url}/idp/api/connect/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      } finally {
        child.kill("SIGTERM");
      }
      const status = await child.status;
      assert.equal(status.code, 0, await errors);
      assert.ok((await Deno.stat(db)).size > 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
