/**
 * Where the demo's CPU goes, Chrome's apart from samkit's: the demo's reports run in this
 * process against an embedded server of the demo's estate, with one browser, as the demo runs
 * them. samkit's CPU is this process's own (`process.cpuUsage`: reading, the server answering,
 * HTML, XLSX, and the PDF's HTML, merge and stamp); Chrome's is what its processes report
 * themselves (DevTools `SystemInfo.getProcessInfo`, per process: the browser, its renderers, GPU,
 * network, the print compositor), read before and after each step.
 *
 * @module
 */

import process from "node:process";
import { createClient } from "../lib/api/client.ts";
import { createQueryContext } from "../lib/query/context.ts";
import { createRenderers } from "../lib/render/registry.ts";
import { type BrowserHandle, launchBrowser } from "../lib/render/browser.ts";
import type { Format } from "../lib/render/renderer.ts";
import { resolveParams } from "../lib/report/params.ts";
import { runReport } from "../lib/report/runner.ts";
import { findReport } from "../lib/cli/catalogue.ts";
import { FLAGSHIP_REPORTS } from "../reports/mod.ts";

/** CPU seconds of one step: samkit's own and Chrome's, per Chrome process type. */
export interface StepCpu {
  /** What ran. */
  readonly step: string;
  /** Wall-clock seconds. */
  readonly wallS: number;
  /** This process's user + system CPU seconds. */
  readonly samkitS: number;
  /** Chrome's CPU seconds, all its processes. */
  readonly chromeS: number;
  /** Chrome's CPU seconds by process type (`browser`, `renderer`, `GPU`, …). */
  readonly chromeByType: Readonly<Record<string, number>>;
}

/** Chrome's CPU seconds so far per process (`type:id`), read through one idle tab. */
type ChromeReading = Map<string, [string, number]>;

/**
 * Opens a DevTools session on the browser (launching it) through one idle tab kept open, so a
 * reading starts no renderer of its own; returns the reader and its closer.
 */
async function chromeMeter(browser: BrowserHandle) {
  const page = await browser.newPage();
  const session = await page.browser().target().createCDPSession();
  return {
    async read(): Promise<ChromeReading> {
      const { processInfo } = await session.send("SystemInfo.getProcessInfo");
      return new Map(processInfo.map((p) => [`${p.type}:${p.id}`, [p.type, p.cpuTime]]));
    },
    async close() {
      await session.detach().catch(() => {});
      await page.close().catch(() => {});
    },
  };
}

/**
 * Chrome's CPU between two readings, by process type. A process gone by the second reading (a
 * closed tab's renderer) is left out: its share is lost, not guessed.
 */
function chromeDelta(before: ChromeReading, after: ChromeReading): Record<string, number> {
  const byType: Record<string, number> = {};
  for (const [key, [type, cpu]] of after) {
    const delta = cpu - (before.get(key)?.[1] ?? 0);
    if (delta > 0) byType[type] = (byType[type] ?? 0) + delta;
  }
  return byType;
}

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Runs the demo's reports and times each step's CPU, samkit's and Chrome's (see the module doc).
 *
 * @example
 * ```ts ignore
 * import { demoCpu } from "./chromium_cpu.ts";
 * for (const s of await demoCpu()) console.log(s.step, s.samkitS, s.chromeS);
 * ```
 */
export async function demoCpu(
  options: { computers?: number; seed?: number } = {},
): Promise<StepCpu[]> {
  const { startServer } = await import("../lib/server/server.ts");
  const steps: StepCpu[] = [];
  let wall = performance.now();
  let cpu = cpuSeconds();
  const server = await startServer({
    port: 0,
    computers: options.computers ?? 400,
    seed: options.seed ?? 1,
    quiet: true,
  });
  const browser = launchBrowser();
  try {
    steps.push(lap("demo estate (server start)", {}));
    const meter = await chromeMeter(browser); // launches Chrome
    let chrome = await meter.read();
    steps.push(lap("browser launch", chromeDelta(new Map(), chrome)));
    const chromeLap = async (step: string) => {
      const after = await meter.read();
      steps.push(lap(step, chromeDelta(chrome, after)));
      chrome = after;
    };
    const client = createClient({
      baseUrl: server.url,
      clientId: "demo",
      clientSecret: "demo-secret",
    });
    const query = createQueryContext();
    const renderers = createRenderers();
    const outDir = await Deno.makeTempDir({ prefix: "samkit-bench-chromium-" });
    try {
      for (const id of FLAGSHIP_REPORTS) {
        const definition = findReport(id);
        const run = (formats: Format[]) =>
          runReport({
            definition,
            client,
            query,
            params: resolveParams(definition, {}),
            formats,
            renderers,
            outDir,
            source: "bench",
            version: "bench",
            browser,
          });
        await run(["html", "xlsx"]);
        await chromeLap(`${id}: read, HTML, XLSX`);
        await run(["pdf"]);
        await chromeLap(`${id}: read, PDF`);
      }
    } finally {
      await meter.close();
      await Deno.remove(outDir, { recursive: true }).catch(() => {});
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return steps;

  function lap(step: string, byType: Record<string, number>): StepCpu {
    const now = performance.now();
    const used = cpuSeconds();
    const chromeS = Object.values(byType).reduce((a, b) => a + b, 0);
    const result = {
      step,
      wallS: (now - wall) / 1000,
      samkitS: used - cpu,
      chromeS,
      chromeByType: byType,
    };
    wall = now;
    cpu = used;
    return result;
  }
}

/**
 * The table of {@link demoCpu}'s steps with totals, as the bench prints it.
 *
 * @example
 * ```ts
 * import { cpuLines } from "./chromium_cpu.ts";
 * const step = { step: "x", wallS: 1, samkitS: 0.5, chromeS: 1.5, chromeByType: { renderer: 1.5 } };
 * console.log(cpuLines([step]).length); // 3
 * ```
 */
export function cpuLines(steps: readonly StepCpu[]): string[] {
  const row = (label: string, wall: number, samkit: number, chrome: number, detail = "") =>
    `  ${label.padEnd(46)} ${wall.toFixed(2).padStart(6)} s ${samkit.toFixed(2).padStart(6)} s ${
      chrome.toFixed(2).padStart(6)
    } s${detail}`;
  const lines = [
    `  ${"step".padEnd(46)} ${"wall".padStart(8)} ${"samkit".padStart(8)} ${
      "Chrome".padStart(8)
    }  (CPU; Chrome's by process)`,
  ];
  for (const s of steps) {
    const types = Object.entries(s.chromeByType).filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]).map(([t, v]) => `${t} ${v.toFixed(2)}`).join(", ");
    lines.push(row(s.step, s.wallS, s.samkitS, s.chromeS, types ? `  (${types})` : ""));
  }
  const sum = (f: (s: StepCpu) => number) => steps.reduce((a, s) => a + f(s), 0);
  lines.push(row("total", sum((s) => s.wallS), sum((s) => s.samkitS), sum((s) => s.chromeS)));
  return lines;
}
