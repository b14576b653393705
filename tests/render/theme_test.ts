/**
 * Your own look: a theme (company, logo, colours, font, footer text, template folder) applied to
 * HTML, PDF and XLSX as a reader opens them — the PDF read with pdftotext, pdfimages and pdfinfo,
 * the workbook's XML read from the zip — and samkit's own look when no theme is given.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { HtmlRenderer, renderHtmlString } from "../../lib/render/html.ts";
import { PdfRenderer } from "../../lib/render/pdf.ts";
import { XlsxRenderer } from "../../lib/render/xlsx.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { loadTheme, type Theme } from "../../lib/render/theme.ts";
import { memorySection } from "../../lib/report/spool.ts";
import type { Row } from "../../lib/report/model.ts";
import { demoDocument, demoSections } from "./fixtures.ts";
import { readZipText } from "./xlsx_zip.ts";
import {
  ACCENT,
  COMPANY,
  EXTRA_CSS,
  FOOTER,
  GOOD_THEME,
  LOGO_PNG,
  writeTheme,
} from "./theme_fixture.ts";

const decoder = new TextDecoder();

async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} failed: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** The images pdfimages lists: one line each, after its two header lines. */
async function pdfImages(path: string): Promise<string[]> {
  return (await run("pdfimages", ["-list", path])).trim().split("\n").slice(2);
}

let dir: string;
let theme: Theme;

before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-theme-" });
  theme = await loadTheme(await writeTheme(`${dir}/theme`));
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

describe("a theme in HTML", () => {
  it("brings its partial, its CSS, colours, font, logo, company and footer", async () => {
    const [path] = await new HtmlRenderer().render(demoDocument(), { outDir: dir, theme });
    const html = await Deno.readTextFile(path);
    assert.ok(html.includes('<tfoot class="own-totals">'), "the theme's totals partial");
    assert.ok(html.includes(EXTRA_CSS.trim()), "the theme's extra.css");
    assert.ok(html.includes(`--accent: ${ACCENT};`), "the accent colour");
    assert.ok(html.includes(`--head-bg: ${ACCENT};`), "the header colour");
    assert.ok(html.includes("table.data thead th {\n  color: #ffffff;"), "the header text");
    assert.ok(html.includes('--brand-font: "DejaVu Serif", serif;'), "the font");
    assert.match(html, /<img class="brand-logo" src="data:image\/png;base64,iVBOR[^"]*"/);
    assert.ok(html.includes(`<span class="brand-name">${COMPANY}</span>`));
    assert.ok(html.includes(`<span class="theme-footer">${FOOTER}</span>`));
    // The logo is the only thing the policy lets in, and only as data inside the file.
    assert.ok(
      html.includes(
        `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`,
      ),
    );
  });

  it("keeps samkit's look, byte for byte, without a theme", async () => {
    const doc = demoDocument();
    const plain = await renderHtmlString(doc);
    assert.equal(await renderHtmlString(doc, { theme: undefined }), plain);
    assert.ok(plain.includes(`content="default-src 'none'; style-src 'unsafe-inline'">`));
    for (const mark of ["/* theme */", "brand", "own-totals", "theme-footer", "img-src"]) {
      assert.ok(!plain.includes(mark), mark);
    }
    assert.ok(plain.includes("--accent: #1f4e79;"));
  });
});

describe("a theme in a PDF", () => {
  let browser: BrowserHandle;
  before(() => {
    browser = launchBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it("shows the company and footer on every page and the logo on the cover", async () => {
    const renderer = new PdfRenderer();
    const out = `${dir}/pdf`;
    await Deno.mkdir(out);
    const [path] = await renderer.render(demoDocument(), { outDir: out, browser, theme });
    const pages = (await run("pdftotext", ["-layout", path, "-"])).split("\f").slice(0, -1);
    assert.ok(pages.length >= 3, `${pages.length} pages`);
    pages.forEach((text, i) => {
      assert.ok(text.includes(FOOTER), `footer text on page ${i + 1}`);
      assert.ok(text.includes(COMPANY), `company on page ${i + 1}`);
    });
    const images = await pdfImages(path);
    assert.equal(images.length, 1, images.join("\n"));
    assert.match(images[0], /^\s*1\s+0\s+image\s+24\s+8\b/, "the 24 × 8 logo on page 1");
    assert.match(await run("pdfinfo", [path]), new RegExp(`^Author:\\s+${COMPANY}$`, "m"));
    // The logo is inside the document: nothing was fetched, nothing had to be blocked.
    assert.equal(renderer.stats?.blockedRequests, 0);
  });

  it("lets no image in but the theme's logo: a cell spelling a data: image stays text", async () => {
    const logo = btoa(String.fromCharCode(...LOGO_PNG));
    const [first, ...rest] = demoSections();
    const cell = `<img src="data:image/png;base64,${logo}">`;
    const rows = (first.rows as Row[]).map((row) => ({ ...row, product: cell }));
    const hostile = { ...first, rows };
    const doc = demoDocument([hostile, ...rest].map(memorySection));
    const out = `${dir}/pdf-hostile`;
    await Deno.mkdir(out);
    const renderer = new PdfRenderer();
    const [path] = await renderer.render(doc, { outDir: out, browser, theme });
    assert.equal((await pdfImages(path)).length, 1, "only the logo");
    assert.ok((await run("pdftotext", [path, "-"])).includes("<img src="), "the cell as text");
  });
});

describe("a theme in XLSX", () => {
  it("sets the creator, company, header colours, Summary heading and footer", async () => {
    const out = `${dir}/xlsx`;
    await Deno.mkdir(out);
    const [path] = await new XlsxRenderer().render(demoDocument(), { outDir: out, theme });
    const zip = await readZipText(path);
    assert.match(zip.get("docProps/core.xml")!, new RegExp(`<dc:creator>${COMPANY}</dc:creator>`));
    assert.match(zip.get("docProps/app.xml")!, new RegExp(`<Company>${COMPANY}</Company>`));
    const styles = zip.get("xl/styles.xml")!;
    assert.match(styles, /<fill><patternFill patternType="solid"><fgColor rgb="FF0B6E4F"\/>/);
    assert.ok(!styles.includes("FF1F3864"), "no samkit blue left");
    const sheet = zip.get("xl/worksheets/sheet2.xml")!;
    assert.ok(sheet.includes(`&amp;C\n${FOOTER}</oddFooter>`), "the footer text, centred");
    assert.ok(zip.get("xl/worksheets/sheet1.xml")!.includes(COMPANY), "company on the Summary");
  });

  it("prints a long footer whole on a line of its own, and the company and title rows their height", async () => {
    const footer = `Confidential & privileged: ${
      "do not distribute outside the audit team. ".repeat(3)
    }`
      .trim();
    const path = await writeTheme(`${dir}/long-footer`, { company: COMPANY, footer }, {});
    const out = `${dir}/xlsx-long`;
    await Deno.mkdir(out);
    const [xlsx] = await new XlsxRenderer().render(demoDocument(), {
      outDir: out,
      theme: await loadTheme(path),
    });
    const zip = await readZipText(xlsx);
    const escaped = footer.replaceAll("&", "&&");
    for (const name of ["sheet1.xml", "sheet2.xml"]) {
      const xml = zip.get(`xl/worksheets/${name}`)!;
      const text = xml.match(/<oddFooter>([^<]*)<\/oddFooter>/)![1]
        .replaceAll("&amp;", "&");
      assert.ok(text.length <= 255, `${name}: ${text.length} characters`);
      // Left and right on the first line, the footer alone on the second, in every part.
      assert.match(text, /^&L[^\n]+\n&RPage &P of &N\n&C\n/, name);
      assert.equal(text.split("&C\n")[1], escaped, `${name}: the whole footer`);
    }
    const summary = zip.get("xl/worksheets/sheet1.xml")!;
    const heights = [...summary.matchAll(/<row r="([12])"[^>]*?(?: ht="([\d.]+)")?[^>]*>/g)]
      .map((m) => Number(m[2] ?? 0));
    assert.deepEqual(heights.map((h) => h >= 17), [true, true], `company and title: ${heights}`);
  });

  it("keeps samkit as creator and samkit's colours without a theme", async () => {
    const out = `${dir}/xlsx-plain`;
    await Deno.mkdir(out);
    const [path] = await new XlsxRenderer().render(demoDocument(), { outDir: out });
    const zip = await readZipText(path);
    assert.match(zip.get("docProps/core.xml")!, /<dc:creator>samkit<\/dc:creator>/);
    assert.match(zip.get("docProps/app.xml")!, /<Company><\/Company>/);
    assert.match(zip.get("xl/styles.xml")!, /<fgColor rgb="FF1F3864"\/>/);
    assert.ok(!zip.get("xl/worksheets/sheet2.xml")!.includes("&amp;C"));
  });
});

describe("a theme file read", () => {
  it("normalises colours and keeps what it leaves out as samkit's", async () => {
    const path = await writeTheme(`${dir}/partial`, { colors: { accent: "#0A7" } }, {});
    const partial = await loadTheme(path);
    assert.deepEqual(partial.colors, { accent: "#00aa77" });
    assert.equal(partial.company, undefined);
    assert.equal(partial.logo, undefined);
    assert.equal(theme.company, GOOD_THEME.company);
  });
});
