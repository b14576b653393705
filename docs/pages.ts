/**
 * Makes the README's page images "as people read them": for license-position,
 * license-cost-summary (in EUR) and renewals at 3,000 computers, seed 7 of the embedded reference
 * server, the printed PDF's cover (page 1), one table page (and for renewals the page that shows
 * renewals over time), and the XLSX Summary sheet as LibreOffice prints it. Each is a PNG in
 * `docs/pages/`, named `<report>-<view>.<label>.png` (`license-position-cover.after.png`).
 *
 * It runs a samkit checkout's own CLI (`deno run -P=report main.ts report …` in that folder), so
 * the same command photographs an older commit: `--project /tmp/before --label before` with
 * `git worktree add /tmp/before <commit>`. A table page is found by its text (`pdftotext`), not by
 * its number, so it is the same table in both. PDF pages are rendered whole at 72 dpi (the running
 * footer is part of what is shown); the Summary sheet is printed by LibreOffice at its own size
 * on one page, as a spreadsheet shows it, and its top (down to "Sections") is rendered at 72 dpi. Needs `pdftoppm`, `pdftotext` (poppler-utils) and `soffice` (LibreOffice).
 *
 * Usage: `deno task pages` (`--help` prints this and writes nothing).
 *
 * @module
 */

const ROOT = new URL("../", import.meta.url).pathname;

const HELP = `Usage: deno task pages [--project DIR] [--label NAME]

Renders license-position, license-cost-summary (--reporting-currency EUR) and renewals from the
embedded reference server (3000 computers, seed 7) to PDF and XLSX, and writes page images:
  docs/pages/<report>-cover.<label>.png    the PDF's first page
  docs/pages/<report>-table.<label>.png    one table page (found by its text)
  docs/pages/renewals-by-month.<label>.png renewals over time (the first chart page)
  docs/pages/<report>-summary.<label>.png  the XLSX Summary sheet as LibreOffice prints it

Options:
  --project DIR  The samkit checkout whose CLI renders the reports (default: this one)
  --label NAME   The label in the file names (default: after)
  -h, --help     This help (nothing is run or written)`;

/** The pages photographed of one report: its id, extra CLI flags and how to find each page. */
interface PageSet {
  /** The report id. */
  readonly id: string;
  /** Flags after `--format pdf,xlsx` (paths relative to the checkout). */
  readonly flags: readonly string[];
  /** View name → whether a page (its `pdftotext -layout` text) is that view; the first wins. */
  readonly pages: Readonly<Record<string, (text: string) => boolean>>;
}

/** Lines of a renewals table row: an end date, the days left and the kind. */
const RENEWAL_ROW = /\b\d{4}\s+\d+\s+(Maintenance|Support|Subscription)\b/g;

const SETS: readonly PageSet[] = [
  {
    id: "license-position",
    flags: [],
    pages: {
      cover: () => true,
      table: (text) => text.includes("Uncovered") && text.includes("Adobe"),
    },
  },
  {
    id: "license-cost-summary",
    flags: ["--reporting-currency", "EUR", "--fx-rates", "packs/fx_rates.example.csv"],
    pages: {
      cover: () => true,
      // Licenses by vendor where the first vendor's subtotals end and the next vendor begins.
      table: (text) => text.includes("Subtotal") && text.includes("VENDOR Autodesk"),
    },
  },
  {
    id: "renewals",
    flags: [],
    pages: {
      cover: () => true,
      "by-month": (text) => /Now \(|by month and kind/.test(text),
      table: (text) => (text.match(RENEWAL_ROW) ?? []).length >= 8,
    },
  },
];

/** Runs a program; throws naming it and its stderr when it fails. Returns its stdout. */
async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (out.code !== 0) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
    throw new Error(`${cmd} ${args.slice(0, 4).join(" ")} failed (exit ${out.code}): ${err}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** The number of the first page of `pdf` that `isView` accepts (pages read with pdftotext). */
async function findPage(pdf: string, view: string, isView: (text: string) => boolean) {
  const info = await run("pdfinfo", [pdf]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
  for (let page = 1; page <= pages; page++) {
    const text = await run("pdftotext", ["-layout", "-f", `${page}`, "-l", `${page}`, pdf, "-"]);
    if (isView(text)) return page;
  }
  throw new Error(`${pdf}: no page of its ${pages} shows the ${view} view`);
}

/** Writes page `page` of `pdf` to `png` at `dpi`, cropped to `crop` (points) when given. */
async function renderPage(
  pdf: string,
  page: number,
  png: string,
  options: { dpi: number; crop?: { width: number; height: number } },
): Promise<void> {
  const { dpi, crop } = options;
  const size = crop
    ? ["-x", "0", "-y", "0", "-W", `${px(crop.width, dpi)}`, "-H", `${px(crop.height, dpi)}`]
    : [];
  const args = ["-png", "-r", `${dpi}`, "-f", `${page}`, "-l", `${page}`, "-singlefile", ...size];
  await run("pdftoppm", [...args, pdf, png.replace(/\.png$/, "")]);
}

/** Points to pixels at `dpi`. */
function px(points: number, dpi: number): number {
  return Math.ceil(points * dpi / 72);
}

/** The widest part of a Summary sheet shown (points): its labels, values and notes. */
const SUMMARY_WIDTH = 900;

/**
 * The part of the Summary sheet (page 1 of `pdf`) shown, in points: from the top down to its
 * "Sections" heading (title, source, parameters and key figures), at most 900 wide and 700 high.
 */
async function summaryCrop(pdf: string): Promise<{ width: number; height: number }> {
  const xml = await run("pdftotext", ["-bbox", "-f", "1", "-l", "1", pdf, "-"]);
  const page = /<page width="([\d.]+)" height="([\d.]+)"/.exec(xml);
  const [pageWidth, pageHeight] = [Number(page?.[1] ?? 612), Number(page?.[2] ?? 792)];
  const sections = /<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>Sections<\/word>/.exec(xml);
  const top = sections && Number(sections[1]) < 20 ? Number(sections[2]) - 4 : pageHeight;
  return { width: Math.min(pageWidth, SUMMARY_WIDTH), height: Math.min(top, 700) };
}

/**
 * Prints the XLSX's sheets to PDF with LibreOffice (its profile in `tmp`), each sheet on one page
 * at its own size, as a spreadsheet shows it (not shrunk to a paper width); returns the PDF.
 */
async function xlsxToPdf(xlsx: string, tmp: string): Promise<string> {
  const outdir = `${tmp}/xlsx-pdf`;
  const onePage = '{"SinglePageSheets":{"type":"boolean","value":"true"}}';
  await run("soffice", [
    `-env:UserInstallation=file://${tmp}/libreoffice`,
    "--headless",
    "--convert-to",
    `pdf:calc_pdf_Export:${onePage}`,
    "--outdir",
    outdir,
    xlsx,
  ]);
  return `${outdir}/${xlsx.split("/").at(-1)!.replace(/\.xlsx$/, ".pdf")}`;
}

/** Renders one report with the checkout's CLI and writes its page images; returns their paths. */
async function photograph(set: PageSet, options: Options, tmp: string): Promise<string[]> {
  const out = `${tmp}/${set.id}`;
  await run("deno", [
    "run",
    "-P=report",
    "--no-prompt",
    "main.ts",
    "report",
    set.id,
    "--computers",
    "3000",
    "--seed",
    "7",
    "--format",
    "pdf,xlsx",
    ...set.flags,
    "--out",
    out,
    "--quiet",
  ], options.project);
  const name = (view: string) => `${ROOT}docs/pages/${set.id}-${view}.${options.label}.png`;
  const made: string[] = [];
  const pdf = `${out}/${set.id}.pdf`;
  for (const [view, isView] of Object.entries(set.pages)) {
    await renderPage(pdf, await findPage(pdf, view, isView), name(view), { dpi: 72 });
    made.push(name(view));
  }
  const sheets = await xlsxToPdf(`${out}/${set.id}.xlsx`, tmp);
  await renderPage(sheets, 1, name("summary"), { dpi: 72, crop: await summaryCrop(sheets) });
  return [...made, name("summary")];
}

/** What the command line asks for. */
interface Options {
  /** The samkit checkout to run. */
  readonly project: string;
  /** The label in the file names. */
  readonly label: string;
}

/** Reads the command line; exits 0 after --help and 2 on an unknown or incomplete option. */
function parseOptions(args: readonly string[]): Options {
  let project = ROOT, label = "after";
  for (let i = 0; i < args.length; i++) {
    const [arg, value] = [args[i], args[i + 1]];
    if (arg === "-h" || arg === "--help") {
      console.log(HELP);
      Deno.exit(0);
    }
    if ((arg === "--project" || arg === "--label") && value && !value.startsWith("-")) {
      if (arg === "--project") project = value;
      else label = value;
      i++;
      continue;
    }
    console.error(`samkit pages: unknown or incomplete option ${arg}\n\n${HELP}`);
    Deno.exit(2);
  }
  if (!/^[a-z0-9-]+$/.test(label)) {
    console.error(`samkit pages: --label ${label}: use lower-case letters, digits and -`);
    Deno.exit(2);
  }
  return { project, label };
}

const options = parseOptions(Deno.args);
await Deno.mkdir(`${ROOT}docs/pages`, { recursive: true });
const tmp = await Deno.makeTempDir({ prefix: "samkit-pages-" });
try {
  const made: string[] = [];
  for (const set of SETS) made.push(...await photograph(set, options, tmp));
  console.log(made.map((path) => path.replace(ROOT, "")).join("\n"));
} finally {
  await Deno.remove(tmp, { recursive: true });
}
