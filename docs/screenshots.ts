/**
 * Makes the README's screenshots from the demo estate: the weekly audit pack's summary email
 * (`docs/pack-summary-email.png`) and two charts (`docs/chart-entitlement-states.png`,
 * `docs/chart-connector-heat-map.png`). It runs the README's own commands (`deno task pack
 * packs/weekly_audit.json`, into its default folder `out/packs/`, and `deno task report …` into a
 * temp folder) and photographs the results in the browser samkit prints PDFs with.
 *
 * Usage: `deno task screenshots`.
 *
 * @module
 */

import { simpleParser } from "mailparser";
import { launchBrowser } from "../lib/render/browser.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Runs `deno run -P=<set> main.ts …` in the project; throws with its stderr when it fails. */
async function samkit(set: string, args: string[]): Promise<void> {
  const out = await new Deno.Command("deno", {
    args: ["run", `-P=${set}`, "--no-prompt", "main.ts", ...args, "--quiet"],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new Error(`samkit ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** The summary.eml of the newest run of the weekly audit pack in its default output folder. */
async function summaryEml(): Promise<string> {
  const dir = `${ROOT}out/packs/weekly-audit`;
  const runs: string[] = [];
  for await (const run of Deno.readDir(dir)) {
    if (run.isDirectory && !run.name.startsWith(".")) runs.push(run.name);
  }
  if (runs.length === 0) throw new Error(`no pack run in ${dir}`);
  return `${dir}/${runs.sort().at(-1)}/summary.eml`;
}

const tmp = await Deno.makeTempDir({ prefix: "samkit-screenshots-" });
const browser = launchBrowser();
try {
  await samkit("pack", ["pack", "packs/weekly_audit.json"]);
  for (const id of ["connector-health", "entitlement-state-by-computer"]) {
    await samkit("report", ["report", id, "--format", "html", "--out", tmp]);
  }
  const page = await browser.newPage();
  const mail = await simpleParser(await Deno.readTextFile(await summaryEml()));
  await page.setViewport({ width: 760, height: 900, deviceScaleFactor: 1 });
  await page.setContent(String(mail.html), { waitUntil: "load" });
  await page.screenshot({ path: `${ROOT}docs/pack-summary-email.png`, fullPage: true });
  const charts = [
    ["connector-health", "chart-connector-heat-map"],
    ["entitlement-state-by-computer", "chart-entitlement-states"],
  ];
  for (const [report, name] of charts) {
    await page.setViewport({ width: 1100, height: 900, deviceScaleFactor: 1 });
    await page.setContent(await Deno.readTextFile(`${tmp}/${report}.html`), { waitUntil: "load" });
    const chart = await page.$("svg");
    if (!chart) throw new Error(`${report}: no chart in its HTML`);
    await chart.screenshot({ path: `${ROOT}docs/${name}.png` });
  }
  console.log(
    "docs/pack-summary-email.png, docs/chart-connector-heat-map.png, docs/chart-entitlement-states.png",
  );
} finally {
  await browser.close();
  await Deno.remove(tmp, { recursive: true });
}
