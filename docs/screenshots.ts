/**
 * Makes the README's screenshots from the demo estate: the first screen of the three flagship
 * reports of `deno task demo` (`docs/license-cost-summary.png`,
 * `docs/entitlement-state-by-computer.png`, `docs/hardware-socket-map.png`), the weekly audit
 * pack's summary email (`docs/pack-summary-email.png`) and two charts
 * (`docs/chart-entitlement-states.png`, `docs/chart-connector-heat-map.png`). It runs the README's
 * own commands (`deno task demo` into a temp folder, `deno task pack packs/weekly_audit.json` into
 * its default folder `out/packs/`, `deno task report …` into a temp folder) and photographs the
 * results in the browser samkit prints PDFs with. The email's evidence folder is shown relative
 * to the project (`./out/packs/…`), so no path of the machine that made it is in the picture.
 *
 * Usage: `deno task screenshots` (`--help` prints this and writes nothing).
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

const HELP = `Usage: deno task screenshots

Remakes the README's screenshots from the demo estate (overwrites the PNGs in docs/):
  docs/license-cost-summary.png, docs/entitlement-state-by-computer.png,
  docs/hardware-socket-map.png     the first screen of each demo report (deno task demo)
  docs/pack-summary-email.png      the weekly pack's summary email (deno task pack
                                   packs/weekly_audit.json: a run in out/packs/weekly-audit)
  docs/chart-entitlement-states.png, docs/chart-connector-heat-map.png   two charts

Options:
  -h, --help  This help (nothing is run or written)`;

if (Deno.args.length > 0) {
  const help = Deno.args.every((a) => a === "--help" || a === "-h");
  if (help) console.log(HELP);
  else console.error(`samkit screenshots: unknown option ${Deno.args[0]}\n\n${HELP}`);
  Deno.exit(help ? 0 : 2);
}

/** The demo reports photographed for the README's first screen. */
const DEMO_SHOTS = ["license-cost-summary", "entitlement-state-by-computer", "hardware-socket-map"];

const tmp = await Deno.makeTempDir({ prefix: "samkit-screenshots-" });
const browser = launchBrowser();
try {
  await samkit("report", ["demo", "--out", `${tmp}/demo`]);
  await samkit("pack", ["pack", "packs/weekly_audit.json"]);
  for (const id of ["connector-health", "entitlement-state-by-computer"]) {
    await samkit("report", ["report", id, "--format", "html", "--out", tmp]);
  }
  const page = await browser.newPage();
  const mail = await simpleParser(await Deno.readTextFile(await summaryEml()));
  for (const id of DEMO_SHOTS) {
    // The first screen of the report's first table (its cover says less about what it shows).
    await page.setViewport({ width: 1100, height: 900, deviceScaleFactor: 1 });
    await page.setContent(await Deno.readTextFile(`${tmp}/demo/${id}.html`), { waitUntil: "load" });
    let top = 0;
    for (const section of await page.$$(".report-section")) {
      if (!(await section.$("table tbody tr"))) continue;
      top = (await section.boundingBox())?.y ?? 0;
      break;
    }
    await page.screenshot({
      path: `${ROOT}docs/${id}.png`,
      clip: { x: 0, y: top, width: 1100, height: 620 },
      captureBeyondViewport: true,
    });
  }
  await page.setViewport({ width: 760, height: 900, deviceScaleFactor: 1 });
  // The evidence folder as the project sees it, not as this machine's absolute path.
  await page.setContent(
    String(mail.html).replaceAll(ROOT, "./"),
    { waitUntil: "load" },
  );
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
  const made = [...DEMO_SHOTS, "pack-summary-email", "chart-connector-heat-map"]
    .concat("chart-entitlement-states");
  console.log(made.map((name) => `docs/${name}.png`).join(", "));
} finally {
  await browser.close();
  await Deno.remove(tmp, { recursive: true });
}
