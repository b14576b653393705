/**
 * A user's own project, as a user makes and runs it: samkit's tree (a copy of this checkout, its
 * own git repository, so that "unchanged" can be checked) gets `deno task init ../project`; in
 * the project, with its own deno.json and tasks, the example report renders in PDF and XLSX with
 * samkit's flags, the example pack mixing a built-in report and the user's runs with a manifest
 * whose checksums verify, a snapshot of it re-renders the user's report, and bad report modules
 * exit 2 naming the file and line before any request, writing nothing. Afterwards samkit's tree
 * has no change (`git status --porcelain` empty).
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import ExcelJS from "exceljs";
import { CLEAN_ENV, ROOT } from "../helpers/cli.ts";
import { exists } from "../helpers/files.ts";
import { type Manifest, sha256File, verifyManifest } from "../../lib/pack/manifest.ts";

const dec = new TextDecoder();

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in `cwd` with no connection settings from the developer's shell. */
async function run(cmd: string, args: readonly string[], cwd: string): Promise<Run> {
  const out = await new Deno.Command(cmd, {
    args: [...args],
    cwd,
    env: { ...CLEAN_ENV },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

const task = (cwd: string, ...args: string[]) => run(Deno.execPath(), ["task", ...args], cwd);
const git = (cwd: string, ...args: string[]) =>
  run("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], cwd);

/** A copy of this checkout's files (tracked and new, not ignored), as its own repository. */
async function copyOfSamkit(to: string): Promise<void> {
  const listed = await run("git", ["ls-files", "-z", "-co", "--exclude-standard"], ROOT);
  assert.equal(listed.code, 0, listed.stderr);
  for (const path of listed.stdout.split("\0").filter(Boolean)) {
    if (!(await exists(join(ROOT, path)))) continue; // deleted in the working tree
    await Deno.mkdir(dirname(join(to, path)), { recursive: true });
    await Deno.copyFile(join(ROOT, path), join(to, path));
  }
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "samkit"]]) {
    const r = await git(to, ...args);
    assert.equal(r.code, 0, r.stderr);
  }
}

/** A service that counts the requests it gets and answers none usefully. */
function countingService(): { url: string; count: () => number; close: () => Promise<void> } {
  let requests = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, () => {
    requests++;
    return new Response("{}", { status: 503 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    count: () => requests,
    close: () => server.shutdown(),
  };
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) out.push(e.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort();
}

describe("a user project made by deno task init", () => {
  let tmp: string;
  let samkit: string;
  let project: string;

  before(async () => {
    tmp = await Deno.makeTempDir({ prefix: "samkit-user-project-" });
    samkit = join(tmp, "samkit");
    project = join(tmp, "sam-reports");
    await copyOfSamkit(samkit);
    const init = await task(samkit, "init", "../sam-reports");
    assert.equal(init.code, 0, init.stderr);
  });

  after(async () => {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  });

  it("has its own deno.json, an example report, a mixed pack, a theme and a README", async () => {
    for (const file of ["deno.json", "reports/servers_by_os.ts", "packs/weekly.json"]) {
      assert.ok(await exists(join(project, file)), file);
    }
    assert.ok(await exists(join(project, "theme/theme.json")));
    const config = JSON.parse(await Deno.readTextFile(join(project, "deno.json")));
    assert.equal(config.imports["samkit/report"], "../samkit/report.ts");
    // Read of the project and samkit's folder; write of the project's ./out and the temp folder.
    assert.deepEqual(config.permissions.report.read.slice(0, 2), [".", "../samkit"]);
    assert.deepEqual(config.permissions.report.write, ["./out", "/tmp"]);
    assert.deepEqual(config.permissions.pack.write, ["./out", "/tmp"]);
    const readme = await Deno.readTextFile(join(project, "README.md"));
    assert.match(readme, /deno task report \.\/reports\/servers_by_os\.ts --format pdf,xlsx/);
    assert.match(readme, /deno task pack \.\/packs\/weekly\.json/);
    const again = await task(samkit, "init", "../sam-reports");
    assert.equal(again.code, 2, "a folder with files is not written over");
    assert.match(again.stderr, /already has files/);
  });

  it("init writes nothing inside samkit's tree, nor through a link leading elsewhere", async () => {
    const inside = await task(samkit, "init", "./reports/mine");
    assert.equal(inside.code, 2, inside.stderr);
    assert.match(inside.stderr, /is inside samkit's folder/);
    const ln = await run("ln", ["-s", "/etc", join(tmp, "etc-link")], tmp);
    assert.equal(ln.code, 0, ln.stderr);
    const linked = await task(samkit, "init", join(tmp, "etc-link/sam-reports"));
    assert.equal(linked.code, 2, linked.stderr);
    assert.match(linked.stderr, /\(really \/etc\/sam-reports\) is not where this task may write/);
  });

  it("type-checks the example report against samkit's report entry point", async () => {
    const r = await task(project, "check");
    assert.equal(r.code, 0, r.stderr);
  });

  it("renders the user's report in PDF and XLSX through samkit's engine", async () => {
    const r = await task(project, "report", "./reports/servers_by_os.ts", "--format", "pdf,xlsx");
    assert.equal(r.code, 0, r.stderr);
    const out = join(project, "out");
    assert.deepEqual(await names(out), ["servers-by-os.pdf", "servers-by-os.xlsx"]);
    const pdf = await run("pdftotext", [join(out, "servers-by-os.pdf"), "-"], project);
    assert.match(pdf.stdout, /Servers by operating system/);
    assert.match(pdf.stdout, /demo data/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(join(out, "servers-by-os.xlsx"));
    const sheet = workbook.worksheets.find((s) => /operating system/i.test(s.name));
    assert.ok(sheet, workbook.worksheets.map((s) => s.name).join(", "));
  });

  it("takes samkit's flags: parameters, filter, formats, quiet", async () => {
    const r = await task(
      project,
      "report",
      "./reports/servers_by_os.ts",
      ...["--format", "json", "--out", "./out/flags", "--quiet"],
      ...["--param", "virtual=false", "--filter", "status -eq Active"],
    );
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(await Deno.readTextFile(join(project, "out/flags/servers-by-os.json")));
    assert.equal(json.params.virtual, false);
    assert.equal(json.scope.filter, "status -eq Active");
    assert.ok(json.sections[0].rows.every((row: { virtual: number }) => row.virtual === 0));
    const bad = await task(
      project,
      "report",
      "./reports/servers_by_os.ts",
      "--filter",
      "nope -eq 1",
    );
    assert.equal(bad.code, 2, "a filter field the report's resource lacks is refused");
  });

  let runDir: string;

  it("runs the pack mixing a built-in report and the user's, with a manifest that verifies", async () => {
    const r = await task(project, "pack", "./packs/weekly.json", "--snapshot");
    assert.equal(r.code, 0, r.stderr);
    const packDir = join(project, "out/packs/weekly");
    const [run] = await names(packDir);
    runDir = join(packDir, run);
    const manifest = JSON.parse(
      await Deno.readTextFile(join(runDir, "manifest.json")),
    ) as Manifest;
    assert.equal(manifest.status, "complete");
    assert.deepEqual(manifest.reports.map((x) => [x.id, x.status]), [
      ["stale-computers", "ok"],
      ["servers-by-os", "ok"],
    ]);
    assert.deepEqual(await verifyManifest(runDir), []);
    const listed = manifest.files.map((f) => f.path).sort();
    assert.deepEqual(listed, (await names(runDir)).filter((n) => n !== "manifest.json"));
    for (const f of manifest.files) {
      assert.equal(await sha256File(join(runDir, f.path)), f.sha256, f.path);
    }
    assert.ok(listed.includes("servers-by-os.pdf") && listed.includes("stale-computers.xlsx"));
  });

  it("re-renders the user's report from the pack's snapshot", async () => {
    const csv = await Deno.readTextFile(join(runDir, "servers-by-os-by-os.csv"));
    const r = await task(
      project,
      "report",
      "./reports/servers_by_os.ts",
      ...[
        "--from-snapshot",
        join(runDir, "snapshot.sqlite"),
        "--format",
        "csv",
        "--out",
        "./out/again",
      ],
    );
    assert.equal(r.code, 0, r.stderr);
    const again = await Deno.readTextFile(join(project, "out/again/servers-by-os-by-os.csv"));
    assert.equal(again, csv, "the same rows from the snapshot");
  });

  it("the project's verify task re-renders the run, the user's report from the code the run loaded", async () => {
    const manifest = JSON.parse(
      await Deno.readTextFile(join(runDir, "manifest.json")),
    ) as Manifest;
    const module = join(project, "reports/servers_by_os.ts");
    const mine = manifest.reports.find((r) => r.id === "servers-by-os");
    assert.deepEqual(mine?.module, {
      path: "reports/servers_by_os.ts",
      sha256: await sha256File(module),
    });
    assert.equal(manifest.reports.find((r) => r.id === "stale-computers")?.module, undefined);
    const rel = runDir.slice(project.length + 1);
    const ok = await task(project, "verify", rel, "--rerender");
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /re-render\s+ok: 3 files byte-identical, 2 XLSX identical/);
    const code = await Deno.readTextFile(module);
    await Deno.writeTextFile(module, code.replace("share: total ?", "share: total > 1 ?"));
    try {
      const changed = await task(project, "verify", rel, "--rerender");
      assert.equal(changed.code, 1, changed.stdout + changed.stderr);
      assert.match(
        changed.stdout,
        /servers-by-os\.pdf: cannot re-render: servers-by-os: reports\/servers_by_os\.ts has changed since the run/,
      );
    } finally {
      await Deno.writeTextFile(module, code);
    }
  });

  it("schedule runs a pack naming the user's report, at its cron time", async () => {
    await Deno.writeTextFile(
      join(project, "packs/every_second.json"),
      JSON.stringify({
        name: "every-second",
        schedule: { cron: "* * * * * *" },
        reports: [{ report: "../reports/servers_by_os.ts", formats: ["json"] }],
      }),
    );
    // The project's schedule task, run directly so that the signal reaches samkit.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--config", "deno.json", "--no-prompt", "-P=pack", "../samkit/main.ts"]
        .concat(["schedule", "./packs/every_second.json"]),
      cwd: project,
      env: { ...CLEAN_ENV },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let log = "";
    let manifestPath: string | undefined;
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      log += chunk;
      manifestPath = log.match(/complete: (\S+\/manifest\.json)/)?.[1];
      if (manifestPath) break;
    }
    child.kill("SIGTERM");
    await child.status;
    assert.ok(manifestPath, log);
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath)) as Manifest;
    assert.deepEqual(manifest.reports.map((x) => [x.id, x.status]), [["servers-by-os", "ok"]]);
    assert.deepEqual(await verifyManifest(dirname(manifestPath)), []);
  });

  describe("bad report modules exit 2 naming the file and line, before any request", () => {
    let service: ReturnType<typeof countingService>;
    after(() => service.close());

    const cases: [string, string, RegExp][] = [
      [
        "bad/no_definition.ts",
        "export const x = 1;\nexport function servers() {}\n",
        /bad\/no_definition\.ts:1: exports no report definition \(its exports: servers, x\)/,
      ],
      [
        "bad/column_type.ts",
        "", // the example with one column's type misspelt (line found below)
        /bad\/column_type\.ts:\d+: servers-by-os: section "by-os", column "servers": unknown type "count"/,
      ],
      [
        "bad/syntax.ts",
        'import { defineReport } from "samkit/report";\nexport default defineReport({\n  id: "x",\n  title: ,\n});\n',
        /bad\/syntax\.ts:4: does not load: SyntaxError/,
      ],
      [
        "bad/elsewhere.ts",
        "", // a link to a module outside the project and samkit
        /bad\/elsewhere\.ts: is outside the folders report modules may come from .*: it leads to /,
      ],
      [
        "../samkit/main.ts", // samkit's code, not a report: importing it would run it
        "",
        /\.\.\/samkit\/main\.ts: is outside the folders report modules may come from/,
      ],
    ];

    before(async () => {
      service = countingService();
      await Deno.mkdir(join(project, "bad"), { recursive: true });
      const example = await Deno.readTextFile(join(project, "reports/servers_by_os.ts"));
      const misspelt = example.replace(
        'integer("servers", "Servers")',
        '{ key: "servers", label: "Servers", type: "count" }',
      );
      assert.notEqual(misspelt, example);
      for (const [file, text] of cases) {
        if (file === "bad/column_type.ts") await Deno.writeTextFile(join(project, file), misspelt);
        else if (text) await Deno.writeTextFile(join(project, file), text);
      }
      await Deno.writeTextFile(join(tmp, "outside.ts"), "export default 1;\n");
      const ln = await run("ln", ["-s", join(tmp, "outside.ts"), "bad/elsewhere.ts"], project);
      assert.equal(ln.code, 0, ln.stderr);
    });

    /** Each case's stderr, for the checks that read more of it. */
    const stderrOf = new Map<string, string>();

    for (const [file, , message] of cases) {
      it(file, async () => {
        const r = await task(
          project,
          "report",
          `./${file}`,
          ...["--base-url", service.url, "--token", "t", "--out", "./out/bad", "--format", "json"],
        );
        stderrOf.set(file, r.stderr);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, message);
        assert.equal(service.count(), 0, "no request");
        assert.equal(await exists(join(project, "out/bad")), false, "nothing written");
      });
    }

    it("the column type's line is the line that holds it", async () => {
      const stderr = stderrOf.get("bad/column_type.ts");
      assert.ok(stderr !== undefined, "bad/column_type.ts ran above");
      const line = Number(stderr.match(/column_type\.ts:(\d+):/)?.[1]);
      const text = await Deno.readTextFile(join(project, "bad/column_type.ts"));
      assert.match(text.split("\n")[line - 1], /type: "count"/);
    });

    it("a pack entry naming a bad module, and one whose id is a built-in's", async () => {
      const pack = (report: string) =>
        JSON.stringify({ name: "bad", reports: [{ id: "stale-computers" }, { report }] });
      await Deno.writeTextFile(join(project, "packs/bad.json"), pack("../bad/column_type.ts"));
      const r = await task(project, "pack", "./packs/bad.json", "--out", "./out/bad");
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /packs\/bad\.json: reports\[1\]\.report: \.\.\/bad\/column_type\.ts:\d+: /,
      );
      const clash = (await Deno.readTextFile(join(project, "reports/servers_by_os.ts")))
        .replace('id: "servers-by-os"', 'id: "stale-computers"');
      await Deno.writeTextFile(join(project, "bad/clash.ts"), clash);
      await Deno.writeTextFile(join(project, "packs/clash.json"), pack("../bad/clash.ts"));
      const c = await task(project, "pack", "./packs/clash.json", "--out", "./out/bad");
      assert.equal(c.code, 2, c.stderr);
      assert.match(
        c.stderr,
        /defines the report id "stale-computers", which a built-in report has/,
      );
      assert.equal(await exists(join(project, "out/bad")), false, "nothing written");
    });
  });

  it("leaves samkit's tree unchanged", async () => {
    const status = await git(samkit, "status", "--porcelain", "--untracked-files=all");
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.stdout, "", "samkit's files are untouched by init and the project's runs");
  });
});
