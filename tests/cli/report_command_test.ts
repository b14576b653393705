import { describe, it } from "node:test";
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { withServer } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";
import { outTestDir } from "../helpers/files.ts";

const samkit = (args: string[], set = "report") => runCli(args, { set });

const outDir = () => outTestDir("cli-");

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) names.push(e.name);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return names.sort();
}

describe("samkit report", () => {
  it("writes every format from the embedded server and prints the paths", async () => {
    const dir = await outDir();
    const r = await samkit([
      "report",
      "stale-computers",
      "--format",
      "html,pdf,xlsx,csv,json",
      "--out",
      dir,
      "--computers",
      "80",
      "--param",
      "days=45",
      "--quiet",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "", "quiet: nothing on stderr");
    const files = await entries(dir);
    for (const ext of ["html", "pdf", "xlsx", "json"]) {
      assert.ok(files.includes(`stale-computers.${ext}`), `${ext} in ${files}`);
    }
    assert.ok(files.some((f) => /^stale-computers-.+\.csv$/.test(f)), "a CSV per section");
    assert.ok(files.every((f) => !f.includes(".tmp-")), "no temp files left");
    const printed = r.stdout.trim().split("\n");
    assert.equal(printed.length, files.length);
    const json = JSON.parse(await Deno.readTextFile(`${dir}/stale-computers.json`));
    assert.equal(json.report, "stale-computers");
    assert.equal(json.params.days, 45);
    assert.match(json.generatedAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(`${dir}/stale-computers.xlsx`);
    assert.ok(workbook.worksheets.length >= 2, "summary sheet plus a sheet per section");
    const pdfText = await new Deno.Command("pdftotext", {
      args: [`${dir}/stale-computers.pdf`, "-"],
      stdout: "piped",
    })
      .output();
    assert.match(new TextDecoder().decode(pdfText.stdout), /Page 1 of \d+/);
  });

  it("reads a running server given by --base-url and --token", async () => {
    await withServer({ computers: 40, token: "cli-test-token" }, async (srv) => {
      const dir = await outDir();
      const r = await samkit([
        "report",
        "connector-health",
        "--format",
        "json",
        "--out",
        dir,
        "--base-url",
        srv.url,
        "--token",
        "cli-test-token",
        "--quiet",
      ]);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(await Deno.readTextFile(`${dir}/connector-health.json`));
      assert.equal(json.source, srv.url);
      assert.ok(!r.stdout.includes("cli-test-token") && !r.stderr.includes("cli-test-token"));
      assert.ok(srv.stats.total > 0, "the CLI read the given server");
    });
  });

  const badInput: [string, string[], RegExp][] = [
    [
      "an unknown report",
      ["report", "no-such-report"],
      /unknown report "no-such-report"; known reports: license-cost-summary/,
    ],
    [
      "an unknown parameter",
      ["report", "stale-computers", "--param", "colour=red"],
      /parameter "colour": not a parameter of stale-computers; its parameters are/,
    ],
    [
      "a bad parameter value",
      ["report", "stale-computers", "--param", "days=soon"],
      /parameter "days": expected a number, got "soon"/,
    ],
    ["a bad filter", [
      "report",
      "stale-computers",
      "--filter",
      "(status -eq Active) -and hostName -eq x",
    ], /filter error at column \d+/],
    [
      "an unknown format",
      ["report", "stale-computers", "--format", "docx"],
      /unknown format "docx"/,
    ],
    ["a missing snapshot", [
      "report",
      "stale-computers",
      "--from-snapshot",
      "/tmp/samkit-no-such-snapshot.sqlite",
    ], /snapshot ".*no-such-snapshot\.sqlite": no such file/],
    ["an unknown flag", ["report", "stale-computers", "--fromat", "pdf"], /unknown flag --fromat/],
  ];
  it("with --allow-unknown-fields sends a field samkit does not know, with a warning; the server's 400 ends the run writing nothing", async () => {
    const dir = await outDir();
    const r = await samkit([
      "report",
      "stale-computers",
      "--allow-unknown-fields",
      "--filter",
      "colour -eq red",
      "--format",
      "json", // the 400 comes before any rendering: no browser to launch for it
      "--out",
      `${dir}/reports`,
      "--quiet",
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /warning: estate\.computers: Computer has no field "colour" in samkit's catalogue; sending it for the server to judge/,
    );
    assert.match(r.stderr, /→ 400: Invalid filter: .*Computer has no field "colour"/);
    assert.deepEqual(await entries(`${dir}/reports`), [], "no file written");
  });

  for (const [what, args, message] of badInput) {
    it(`exits 2 with a clear message and writes nothing for ${what}`, async () => {
      const dir = await outDir();
      const r = await samkit([...args, "--out", `${dir}/reports`, "--quiet"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.deepEqual(await entries(dir), [], "nothing written");
    });
  }

  it("shows the filter's column under the bad spot", async () => {
    const r = await samkit(["report", "stale-computers", "--filter", "status -eq", "--quiet"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /column 11/);
    assert.match(r.stderr, /\^/);
  });

  it("exits 2 for an output folder it cannot write, naming it", async () => {
    const dir = await outDir();
    await Deno.writeTextFile(`${dir}/blocker`, "a file where a folder should be");
    const r = await samkit([
      "report",
      "stale-computers",
      "--out",
      `${dir}/blocker/reports`,
      "--quiet",
    ]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /output folder ".*blocker\/reports" cannot be written/);
    assert.deepEqual(await entries(dir), ["blocker"]);
    const outside = await samkit([
      "report",
      "stale-computers",
      "--out",
      "/var/samkit-not-allowed",
      "--quiet",
    ]);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /permission set does not allow writing there/);
  });

  it("refuses a tenant host the permission set does not allow, before any request", async () => {
    const r = await samkit([
      "report",
      "stale-computers",
      "--base-url",
      "https://eu.sam.example",
      "--token",
      "t",
      "--quiet",
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /does not allow network access to eu\.sam\.example/);
    assert.ok(!r.stderr.includes(" t "), "no token echoed");
  });
});

describe("samkit list and help", () => {
  it("lists every report with its parameters", async () => {
    const r = await samkit(["list"], "list");
    assert.equal(r.code, 0, r.stderr);
    for (
      const id of [
        "license-cost-summary",
        "entitlement-state-by-computer",
        "hardware-socket-map",
        "stale-computers",
      ]
    ) {
      assert.ok(r.stdout.includes(id), id);
    }
    assert.match(r.stdout, /--param minCoresPerProcessor=/);
    const json = await samkit(["list", "--json"], "list");
    assert.ok(JSON.parse(json.stdout).length >= 8);
  });

  // Every command's --help (exit 0, its usage on stdout) is task_help_test.ts's, through its task.
  it("exits 2 for an unknown command", async () => {
    const unknown = await samkit(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });
});
