/**
 * What each entry point loads at start-up: the entry points a script imports to read the API,
 * query it, apply the SAM rules or write a report load no renderer, browser, database or mail
 * package and not the reference server; the CLI's report and list commands load no renderer
 * package, browser, database or mail package before a run needs one (they may start the
 * embedded reference server, their default source).
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { startupGraph } from "./module_graph.ts";

/** Packages that are heavy to load, read the environment at load time, or open connections. */
const HEAVY = [
  "exceljs",
  "puppeteer-core",
  "pg",
  "pg-boss",
  "nodemailer",
  "pdf-lib",
  "handlebars",
  "smtp-server",
  "mailparser",
];

const exportsOf = async (): Promise<Record<string, string>> =>
  JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url))).exports;

async function assertLight(entry: string, label: string, withServer = false): Promise<void> {
  const graph = await startupGraph(entry);
  for (const name of HEAVY) {
    assert.ok(
      !graph.npm.includes(name),
      `${label} loads ${name} at start-up: ${graph.chain(name)}`,
    );
  }
  if (withServer) return;
  const server = graph.local.find((m) => m.startsWith("lib/server/"));
  assert.equal(server, undefined, `${label} loads the reference server: ${graph.chain(server!)}`);
  assert.ok(!graph.builtins.includes("node:sqlite"), `${label} loads node:sqlite`);
}

describe("entry points load what their concern needs", () => {
  it("deno.json exports the root and every concern", async () => {
    assert.deepEqual(Object.keys(await exportsOf()).sort(), [
      ".",
      "./client",
      "./pack",
      "./query",
      "./render",
      "./report",
      "./reports",
      "./sam",
      "./server",
    ]);
  });

  for (const name of [".", "./client", "./query", "./sam", "./report"]) {
    it(`${name} loads no renderer, browser, database or mail package`, async () => {
      await assertLight((await exportsOf())[name], name);
    });
  }

  it("./client loads no npm package at all", async () => {
    const graph = await startupGraph((await exportsOf())["./client"]);
    assert.deepEqual(graph.npm, []);
  });

  it("./render loads Handlebars, Puppeteer, pdf-lib and exceljs only when a format needs them", async () => {
    await assertLight((await exportsOf())["./render"], "./render");
  });

  for (const command of ["lib/cli/report_command.ts", "lib/cli/list_command.ts", "main.ts"]) {
    it(`${command} starts without a renderer package, the browser or the database`, async () => {
      await assertLight(command, command, true);
    });
  }

  for (
    const command of [
      "lib/cli/pack_command.ts",
      "lib/cli/schedule_command.ts",
      "lib/cli/worker_command.ts",
      "lib/cli/enqueue_command.ts",
    ]
  ) {
    it(`${command} loads its runner, queue and reports only once its input is good`, async () => {
      await assertLight(command, command, true);
      const graph = await startupGraph(command);
      const report = graph.local.find((m) => m.startsWith("reports/"));
      assert.equal(report, undefined, `${command} loads a report: ${graph.chain(report!)}`);
    });
  }

  it("the report command loads no report module before it knows which one runs", async () => {
    const graph = await startupGraph("lib/cli/report_command.ts");
    const report = graph.local.find((m) => m.startsWith("reports/"));
    assert.equal(report, undefined, `report loads ${report}: ${graph.chain(report!)}`);
  });
});
