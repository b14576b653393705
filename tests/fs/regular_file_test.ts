import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkfifo, spawnBounded } from "../helpers/bounded.ts";
import {
  NotRegularFileError,
  readProblem,
  readRegularFile,
  readRegularTextFile,
} from "../../lib/fs/regular_file.ts";

const MODULE = new URL("../../lib/fs/regular_file.ts", import.meta.url).href;

/**
 * Reads each path with every reader of regular_file.ts in a child process (a read that blocks
 * would hang the test runner itself); the guard kills a child that hangs.
 */
async function readInChild(paths: readonly string[]) {
  const script = `import * as r from ${JSON.stringify(MODULE)};
    const out = [];
    for (const path of ${JSON.stringify(paths)}) {
      for (const [name, read] of [
        ["readRegularTextFile", (p) => r.readRegularTextFile(p)],
        ["readRegularFile", (p) => r.readRegularFile(p)],
        ["readRegularTextFileSync", (p) => r.readRegularTextFileSync(p)],
        ["openRegularFile", async (p) => (await r.openRegularFile(p)).close()],
      ]) {
        try {
          await read(path);
          out.push({ path, name, ok: true });
        } catch (e) {
          out.push({ path, name, error: e.name, message: e.message, kind: e.kind });
        }
      }
    }
    console.log(JSON.stringify(out));`;
  const run = spawnBounded(
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }),
    30,
  );
  const r = await run.result();
  assert.equal(r.timedOut, false, `a read blocked (killed after 30 s): ${r.stderr}`);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    path: string;
    name: string;
    ok?: true;
    error?: string;
    message?: string;
    kind?: string;
  }[];
}

/** A symbolic link, made with `ln` (Deno.symlink needs every permission). */
async function link(target: string, path: string): Promise<void> {
  const { code } = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(code, 0, `ln -s ${target} ${path}`);
}

/** Leaves a Unix socket file at `path` (made by a child: the test set has no unix net). */
async function makeSocket(path: string): Promise<void> {
  const script = `Deno.listen({ transport: "unix", path: ${JSON.stringify(path)} }); Deno.exit(0);`;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", script] }).output();
  assert.ok(out.success && Deno.lstatSync(path).isSocket, `no socket at ${path}`);
}

describe("reading only regular files", () => {
  it("refuses a FIFO, a character device, a socket and a folder without blocking, naming each", async () => {
    const dir = await Deno.makeTempDir({ prefix: "regular-file-" });
    try {
      await makeSocket(`${dir}/sock`);
      await mkfifo(`${dir}/fifo`);
      await link(`${dir}/fifo`, `${dir}/link-to-fifo`);
      await Deno.mkdir(`${dir}/folder`);
      await Deno.writeTextFile(`${dir}/file.txt`, "\ufeffhello");
      const results = await readInChild([
        `${dir}/fifo`,
        `${dir}/link-to-fifo`,
        "/dev/zero",
        `${dir}/sock`,
        `${dir}/folder`,
        `${dir}/file.txt`,
      ]);
      const expected: Record<string, string> = {
        [`${dir}/fifo`]: "FIFO",
        [`${dir}/link-to-fifo`]: "FIFO",
        "/dev/zero": "character device",
        [`${dir}/sock`]: "socket",
        [`${dir}/folder`]: "folder",
      };
      for (const r of results) {
        const kind = expected[r.path];
        if (kind === undefined) {
          assert.equal(r.ok, true, `${r.name} ${r.path}: ${r.message}`);
          continue;
        }
        assert.equal(r.error, "NotRegularFileError", `${r.name} ${r.path}`);
        assert.equal(r.kind, kind, `${r.name} ${r.path}`);
        assert.equal(r.message, `${r.path} is a ${kind}, not a regular file`);
      }
      assert.equal(results.length, 24);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("reads a regular file as Deno.readTextFile does (a byte-order mark kept), and keeps Deno's own errors", async () => {
    const dir = await Deno.makeTempDir({ prefix: "regular-file-" });
    try {
      const path = `${dir}/prices.csv`;
      await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x0a]));
      assert.equal(await readRegularTextFile(path), await Deno.readTextFile(path));
      assert.deepEqual(await readRegularFile(path), await Deno.readFile(path));
      await assert.rejects(() => readRegularTextFile(`${dir}/missing`), Deno.errors.NotFound);
      await assert.rejects(
        () => readRegularTextFile(path, { maxBytes: 3 }),
        /prices\.csv is larger than 3 bytes \(6\)/,
      );
      assert.equal(
        readProblem(new NotRegularFileError("/x", "FIFO")),
        "is a FIFO, not a regular file",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
