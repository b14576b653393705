import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { launchArgs } from "../../lib/render/browser.ts";
import { ROOT, runCli } from "../helpers/cli.ts";
import { outTestDir } from "../helpers/files.ts";

const WRAPPER = `${ROOT}bin/samkit-chromium`;
const dec = new TextDecoder();

/** A script that tries one operation and prints "ok" or the error's class name. */
const PROBE = `
const [op, target] = Deno.args;
try {
  if (op === "read") await Deno.readTextFile(target);
  else if (op === "list") for await (const _ of Deno.readDir(target)) break;
  else if (op === "write") await Deno.writeTextFile(target, "x");
  else if (op === "run") await new Deno.Command(target, { args: Deno.args.slice(2) }).output();
  console.log("ok");
} catch (e) {
  console.log(e.constructor.name);
}
`;

let probeDir = "";

/** Runs the probe under a permission set of deno.json, from the project folder. */
async function probe(set: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--config",
      `${ROOT}deno.json`,
      `-P=${set}`,
      "--no-prompt",
      `${probeDir}/probe.ts`,
      ...args,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return dec.decode(out.stdout).trim() || dec.decode(out.stderr);
}

async function wrapper(
  args: string[],
  env: Record<string, string> = {},
  { program = WRAPPER }: { program?: string } = {},
) {
  const out = await new Deno.Command(program, {
    args,
    env: { SAMKIT_CHROMIUM: "/usr/bin/chromium", SAMKIT_CHROMIUM_DRY_RUN: "1", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

before(async () => {
  probeDir = await Deno.makeTempDir({ prefix: "samkit-perm-test-" });
  await Deno.writeTextFile(`${probeDir}/probe.ts`, PROBE);
});
after(async () => {
  await Deno.remove(probeDir, { recursive: true });
});

describe("the report, pack and bench permission sets", () => {
  for (const set of ["report", "pack", "bench"]) {
    it(`${set}: cannot read /etc/passwd or list $HOME, can read the project`, async () => {
      assert.equal(await probe(set, "read", "/etc/passwd"), "NotCapable");
      assert.equal(await probe(set, "list", Deno.env.get("HOME") ?? "/root"), "NotCapable");
      assert.equal(await probe(set, "read", "deno.json"), "ok");
    });

    it(`${set}: cannot run Chromium directly, whatever its arguments`, async () => {
      const result = await probe(set, "run", "/usr/bin/chromium", "--renderer-cmd-prefix=/bin/sh");
      assert.equal(result, "NotCapable");
      assert.equal(await probe(set, "run", "/bin/sh", "-c", "true"), "NotCapable");
    });
  }

  it("report: cannot write into the project outside ./out, nor anywhere but ./out and /tmp", async () => {
    // A checkout inside /tmp (as some CI clones are) is writable through the /tmp grant; the
    // project check only means something elsewhere.
    const inTemp = ROOT.startsWith("/tmp/");
    if (!inTemp) assert.equal(await probe("report", "write", "lib/planted.ts"), "NotCapable");
    assert.equal(await probe("report", "write", "/etc/planted"), "NotCapable");
    const home = Deno.env.get("HOME") ?? "/root";
    assert.equal(await probe("report", "write", `${home}/samkit-planted`), "NotCapable");
  });
});

describe("bin/samkit-chromium", () => {
  it("accepts exactly the command line samkit launches with", async () => {
    const args = launchArgs("/tmp/samkit-chrome-abc123");
    const { code, stdout, stderr } = await wrapper(args);
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.trimEnd().split("\n"), ["/usr/bin/chromium", ...args]);
  });

  for (
    const flag of [
      "--renderer-cmd-prefix=/bin/sh -c id",
      "--utility-cmd-prefix=/tmp/x",
      "--browser-subprocess-path=/tmp/x",
      "--gpu-launcher=/tmp/x",
      "--load-extension=/tmp/x",
      "--remote-debugging-port=9222",
      "https://example.com/",
      "--debug",
    ]
  ) {
    it(`refuses ${flag.split("=")[0]} with exit 64, naming the flag`, async () => {
      const { code, stdout, stderr } = await wrapper([...launchArgs("/tmp/samkit-chrome-a"), flag]);
      assert.equal(code, 64);
      assert.equal(stdout, "");
      assert.ok(stderr.includes(`refused: flag ${flag}`), stderr);
    });
  }

  it("refuses a profile folder that is not a samkit-chrome-* folder or climbs out", async () => {
    for (const dir of ["/home/me/.config/chromium", "/tmp/../etc/samkit-chrome-x", "relative"]) {
      const { code, stderr } = await wrapper([`--user-data-dir=${dir}`]);
      assert.equal(code, 64, dir);
      assert.match(stderr, /refused/);
    }
  });

  it("runs only a system browser or the one in bin/browser-path, never one under /tmp", async () => {
    const other = await wrapper(["--headless"], { SAMKIT_CHROMIUM: "/bin/sh" });
    assert.equal(other.code, 64);
    assert.match(other.stderr, /browser \/bin\/sh is neither a system browser/);
    // An environment variable cannot vouch for a program: /bin/sh named twice is still refused.
    const named = await wrapper(["about:blank"], {
      SAMKIT_CHROMIUM: "/bin/sh",
      PUPPETEER_EXECUTABLE_PATH: "/bin/sh",
    });
    assert.equal(named.code, 64);
    assert.equal(named.stdout, "");
    assert.match(named.stderr, /browser \/bin\/sh is neither a system browser/);

    // Even the browser configured at install time is refused when it lives where samkit writes.
    const install = await Deno.makeTempDir({ prefix: "samkit-install-" });
    const planted = `${install}/chrome`;
    try {
      await Deno.mkdir(`${install}/bin`);
      await Deno.copyFile(WRAPPER, `${install}/bin/samkit-chromium`);
      await Deno.chmod(`${install}/bin/samkit-chromium`, 0o755);
      await Deno.writeTextFile(planted, "#!/bin/sh\n");
      await Deno.chmod(planted, 0o755);
      await Deno.writeTextFile(`${install}/bin/browser-path`, `${planted}\n`);
      const { code, stderr } = await wrapper(["--headless"], { SAMKIT_CHROMIUM: planted }, {
        program: `${install}/bin/samkit-chromium`,
      });
      assert.equal(code, 64);
      assert.match(stderr, /a folder samkit writes to/);
      // The configured browser itself, outside every folder samkit writes to, is started.
      await Deno.writeTextFile(`${install}/bin/browser-path`, "/bin/true\n");
      const configured = await wrapper(["--headless"], { SAMKIT_CHROMIUM: "/bin/true" }, {
        program: `${install}/bin/samkit-chromium`,
      });
      assert.equal(configured.code, 0, configured.stderr);
      assert.equal(configured.stdout, "/bin/true\n--headless\n");
    } finally {
      await Deno.remove(install, { recursive: true });
    }
  });
});

describe("samkit report --out", () => {
  it("refuses a folder that leads out of ./out through a symbolic link, exit 2, writing nothing", async () => {
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    const missing = `/usr/share/samkit-test-missing-${crypto.randomUUID().slice(0, 8)}`;
    // To an existing folder the set may not write, and to one that does not exist yet.
    for (const [target, real] of [["/sys", "/sys"], [missing, missing]]) {
      const link = `out/test/esc-${crypto.randomUUID().slice(0, 8)}`;
      // Deno.symlink needs unscoped read and write; the test set is scoped, so `ln` it is.
      const ln = await new Deno.Command("ln", { args: ["-s", target, `${ROOT}${link}`] }).output();
      assert.equal(ln.code, 0, dec.decode(ln.stderr));
      try {
        for (const [out, where] of [[link, real], [`${link}/sub`, `${real}/sub`]]) {
          const run = await runCli(
            ["report", "license-cost-summary", "--format", "csv", "--out", out],
          );
          const { stderr } = run;
          assert.equal(run.code, 2, stderr);
          assert.ok(stderr.includes(`output folder "${out}"`), stderr);
          assert.ok(stderr.includes(`resolves through a symbolic link to ${where},`), stderr);
          assert.equal(run.stdout, "");
        }
      } finally {
        await Deno.remove(`${ROOT}${link}`);
      }
    }
    await assert.rejects(Deno.lstat(missing), Deno.errors.NotFound);
  });

  it("still writes into a real folder under ./out", async () => {
    const dir = await outTestDir("perm-");
    try {
      const run = await runCli(
        ["report", "license-cost-summary", "--format", "json", "--out", dir, "--computers", "5"],
      );
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [
        "license-cost-summary.json",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
