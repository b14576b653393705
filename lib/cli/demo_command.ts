/**
 * `samkit demo`: the flagship reports in HTML, PDF and XLSX from the embedded reference server,
 * on a fresh machine with no account.
 *
 * @module
 */

import { intFlag, parseArgs, stringFlag } from "./args.ts";
import { openDemoSource } from "./source.ts";
import { clientEvents, Progress } from "./progress.ts";
import { reportError } from "./errors.ts";
import { printErr, printOut } from "./terminal_text.ts";
import { findReport } from "./catalogue.ts";
import { FLAGSHIP_REPORTS } from "../../reports/mod.ts";
import { resolveParams } from "../report/params.ts";
import { rereadNote, runReport } from "../report/runner.ts";
import { ensureWritableDir } from "../report/output_dir.ts";
import { backOffOnPressure, createQueryContext } from "../query/context.ts";
import { createRenderers } from "../render/registry.ts";
import { launchBrowser } from "../render/browser.ts";
import { VERSION } from "../version.ts";
import type { Format } from "../render/renderer.ts";
import { parseFormats } from "./report_command.ts";
import { inTurn } from "./demo_turns.ts";
import { themeFlag } from "./theme_flag.ts";

/**
 * Reports the demo runs at once: the second one's reading, HTML and XLSX (samkit's work) fill
 * the time Chrome prints the first one's PDF (Chrome's).
 */
const DEMO_REPORTS_AT_ONCE = 2;

/** The help text of `samkit demo`. */
export const DEMO_HELP = `Usage: deno task demo [options]

Starts the embedded reference server with a generated estate and writes the flagship reports
(${FLAGSHIP_REPORTS.join(", ")}) in HTML, PDF and XLSX, each labelled "demo data"
on its cover and in its file metadata. It never reads a tenant, whatever the environment sets.

Options:
  --out DIR        Output folder (default: ./out/demo)
  --format LIST    Formats (default: html,pdf,xlsx)
  --computers N    Estate size (default 400)
  --seed N         Estate seed (default 1)
  --theme FILE     Your own look: a theme file (company, logo, colours, font, footer, templates)
  --quiet          No progress on stderr
  -h, --help       This help`;

/**
 * Runs `samkit demo` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { demoCommand } from "./demo_command.ts";
 * Deno.exit(await demoCommand(["--out", "./out/demo"]));
 * ```
 */
export async function demoCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values } = parseArgs(argv, {
      out: { type: "string" },
      format: { type: "string" },
      computers: { type: "string" },
      seed: { type: "string" },
      theme: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      console.log(DEMO_HELP);
      return 0;
    }
    const outDir = stringFlag(values, "out") ?? "./out/demo";
    const formats: Format[] = parseFormats(stringFlag(values, "format") ?? "html,pdf,xlsx");
    const computers = intFlag(values, "computers", 400, { min: 0, max: 1_000_000 });
    const seed = intFlag(values, "seed", 1);
    const theme = await themeFlag(stringFlag(values, "theme"));
    // Created now to prove it writable; removed again, while empty, if the demo writes nothing.
    await using _out = await ensureWritableDir(outDir);
    const progress = new Progress({ enabled: values.quiet ? false : undefined });
    const query = createQueryContext();
    // Chrome starts while the estate is generated and the first report is read.
    const browser = formats.includes("pdf") ? launchBrowser() : undefined;
    browser?.start();
    try {
      progress.status(`generating a demo estate of ${computers} computers`);
      const api = await openDemoSource({
        computers,
        seed,
        onEvent: backOffOnPressure(query.limiter, clientEvents(progress)),
      });
      const renderers = createRenderers();
      try {
        // Two reports at a time: the next one is read while Chrome prints the one before.
        await inTurn(FLAGSHIP_REPORTS, DEMO_REPORTS_AT_ONCE, async (id, signal) => {
          const definition = findReport(id);
          progress.status(`${id}: fetching`);
          const { files } = await runReport({
            definition,
            client: api.client,
            query,
            params: resolveParams(definition, {}),
            formats,
            renderers,
            outDir,
            source: api.source,
            version: VERSION,
            browser,
            theme,
            signal,
            onEvent: (e) => {
              if (e.type === "render") progress.status(`${id}: writing ${e.format}`);
              if (e.type === "reread") printErr(`samkit: note: ${rereadNote(e)}`);
            },
          });
          return files;
        }, (_id, files) => {
          progress.done();
          for (const file of files) printOut(file);
        });
        return 0;
      } finally {
        progress.done();
        await api.close();
      }
    } finally {
      await browser?.close();
    }
  } catch (error) {
    return reportError(error);
  }
}
