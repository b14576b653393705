import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { checkContained, checkSubfolder, ContainmentError } from "../../lib/fs/containment.ts";
import { readPackFile } from "../../lib/pack/pack_file.ts";
import { readTenantsFile } from "../../lib/tenants/tenants_file.ts";
import { readPriceFile } from "../../lib/query/elp/price_file.ts";
import { REPORTS } from "../../reports/mod.ts";
import { removeTempDirs, tempDir } from "../render/helpers.ts";

/** A symbolic link, made with `ln` (Deno.symlink needs every permission). */
export async function link(target: string, path: string): Promise<void> {
  const { code } = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(code, 0, `ln -s ${target} ${path}`);
}

after(removeTempDirs);

const PASSWD_LIKE = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/bin/sh\n";

describe("checkContained", () => {
  it("refuses a /tmp link to /etc/passwd, naming the path and where it really points", async () => {
    const dir = await tempDir();
    await link("/etc/passwd", `${dir}/pack.json`);
    assert.throws(() => checkContained(`${dir}/pack.json`, { what: "pack file" }), (e) => {
      assert.ok(e instanceof ContainmentError);
      assert.match(e.message, new RegExp(`pack file ${dir}/pack.json`));
      assert.match(e.message, /leads through a symbolic link to \/etc\/passwd/);
      return true;
    });
  });

  it("refuses a folder link to /root, and a path below it that does not exist yet", async () => {
    const dir = await tempDir();
    await link("/root", `${dir}/history`);
    assert.throws(() => checkContained(`${dir}/history`, { what: "history" }), ContainmentError);
    assert.throws(
      () => checkContained(`${dir}/history/new/deeper`, { what: "--out", access: "write" }),
      /to \/root\/new\/deeper/,
    );
  });

  it("follows a dangling link to where a write would create it", async () => {
    const dir = await tempDir();
    await link("/etc/samkit-not-there", `${dir}/out`);
    assert.throws(
      () => checkContained(`${dir}/out`, { what: "--out", access: "write" }),
      /\/etc\/samkit-not-there/,
    );
  });

  it("judges `link/..` where a read of it would really go", async () => {
    const dir = await tempDir();
    await Deno.mkdir(`${dir}/a`);
    await link("/etc/ssl", `${dir}/a/l`);
    const path = `${dir}/a/l/../passwd`;
    let refused = false;
    try {
      checkContained(path, { what: "price file" });
    } catch (e) {
      refused = e instanceof ContainmentError;
    }
    const reached = await Deno.readTextFile(path).then((t) => t.includes("root:"), () => false);
    assert.ok(refused || !reached, "passed the check, and the read reached /etc/passwd");
  });

  it("accepts a link that stays inside the roots, returning its real path", async () => {
    const dir = await tempDir();
    await Deno.writeTextFile(`${dir}/real.json`, "{}");
    await link(`${dir}/real.json`, `${dir}/alias.json`);
    const real = checkContained(`${dir}/alias.json`, { what: "pack file" });
    assert.equal(real, Deno.realPathSync(`${dir}/real.json`));
  });

  it("leaves a path with no link on its way to Deno's own permission check", () => {
    assert.equal(checkContained("/etc/hostname", { what: "pack file" }), "/etc/hostname");
  });
});

describe("checkSubfolder", () => {
  it("refuses a sub-folder planted as a link out of its parent", async () => {
    const dir = await tempDir();
    const other = await tempDir();
    await link(other, `${dir}/run`);
    assert.throws(() => checkSubfolder(dir, `${dir}/run`, "run folder"), ContainmentError);
    await Deno.mkdir(`${dir}/real`);
    assert.equal(
      checkSubfolder(dir, `${dir}/real`, "run folder"),
      `${Deno.realPathSync(dir)}/real`,
    );
  });
});

describe("files a user names", () => {
  const readers: [string, (path: string) => Promise<unknown>, string][] = [
    ["pack file", (p) => readPackFile(p, REPORTS), "json"],
    ["tenants file", readTenantsFile, "json"],
    ["price file", readPriceFile, "json"],
  ];
  for (const [what, read, ext] of readers) {
    it(`${what}: a link to /etc/passwd is refused before it is read`, async () => {
      const dir = await tempDir();
      await link("/etc/passwd", `${dir}/input.${ext}`);
      await assert.rejects(() => read(`${dir}/input.${ext}`), (e: Error) => {
        assert.equal(e.name, "ContainmentError");
        assert.ok(e.message.includes(`${dir}/input.${ext}`), e.message);
        assert.ok(!e.message.includes("root:x"), e.message);
        return true;
      });
    });

    it(`${what}: a file that is not JSON fails at line and column, its text not echoed`, async () => {
      const dir = await tempDir();
      await Deno.writeTextFile(`${dir}/input.${ext}`, PASSWD_LIKE);
      await assert.rejects(() => read(`${dir}/input.${ext}`), (e: Error) => {
        assert.match(e.message, /not valid JSON at line 1, column 1/);
        assert.ok(!e.message.includes("root"), e.message);
        return true;
      });
    });
  }

  it("price file as CSV: a parse error names the line, not the text", async () => {
    const dir = await tempDir();
    await Deno.writeTextFile(`${dir}/prices.csv`, 'application,metric\n"secret-value,x\n');
    await assert.rejects(() => readPriceFile(`${dir}/prices.csv`), (e: Error) => {
      assert.ok(!e.message.includes("secret-value"), e.message);
      assert.match(e.message, /not valid CSV/);
      return true;
    });
  });
});
