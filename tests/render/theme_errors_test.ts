/**
 * A bad theme is refused when it loads, before anything runs, with a ThemeError naming the file
 * at fault (the theme's, its logo's or a template's), the line, and what to fix: bad fields and
 * values, a logo that is missing, not what it claims, too large, a FIFO, outside the task's
 * folders or an SVG that could script or fetch, and templates that do not parse, write values
 * unescaped, call what samkit does not have, or drop what samkit relies on (the content security
 * policy, the place of the sections, rows and charts).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { loadTheme, ThemeError } from "../../lib/render/theme.ts";
import { ContainmentError } from "../../lib/fs/containment.ts";
import { mkfifo } from "../helpers/bounded.ts";
import { defaultFiles, GOOD_THEME, type ThemeFiles, writeTheme } from "./theme_fixture.ts";

let dir: string;
let count = 0;

before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-theme-errors-" });
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

/** Loads a theme written with `theme` and `files` into a fresh folder; its ThemeError. */
async function refusal(theme: unknown, files: ThemeFiles = {}): Promise<ThemeError> {
  const folder = `${dir}/t${++count}`;
  const path = await writeTheme(folder, theme, files);
  try {
    await loadTheme(path);
  } catch (error) {
    assert.ok(error instanceof ThemeError, String(error));
    return error;
  }
  throw new assert.AssertionError({ message: `${path} was accepted` });
}

/** A theme of GOOD_THEME's files with `name` (in `templates/`) replaced by `text`. */
function withTemplate(name: string, text: string): [unknown, ThemeFiles] {
  return [GOOD_THEME, { ...defaultFiles(), [`templates/${name}`]: text }];
}

describe("a bad theme file", () => {
  it("an unknown field: its line, and the fields there are", async () => {
    const e = await refusal('{\n  "company": "X",\n  "colr": {}\n}\n');
    assert.match(e.message, /theme\.json:3: colr: unknown field; the fields are company, logo/);
  });

  it("a colour that is not #rgb or #rrggbb: its line and field", async () => {
    const e = await refusal('{\n  "colors": {\n    "accent": "blue"\n  }\n}\n');
    assert.match(e.message, /theme\.json:3: colors\.accent: expected a colour #rgb or #rrggbb/);
  });

  it("an unknown colour name", async () => {
    const e = await refusal({ colors: { background: "#fff" } });
    assert.match(e.message, /colors\.background: unknown field; the fields are accent, header/);
  });

  it("a font list that would end the CSS rule or fetch a font", async () => {
    for (const font of ["Arial; } body { display: none", "x, url(https://f.test/a.woff)"]) {
      const e = await refusal({ font });
      assert.match(e.message, /theme\.json:\d+: font: expected a CSS font-family list/);
    }
  });

  it("company or footer text with a line break or bidi control", async () => {
    assert.match((await refusal({ company: "A\nB" })).message, /company: expected one line/);
    assert.match((await refusal({ footer: "a\u202eb" })).message, /footer: expected one line/);
  });

  it("JSON that does not parse: its line, no excerpt", async () => {
    const e = await refusal('{\n  "company": "X",\n');
    assert.match(e.message, /theme\.json:3: not valid JSON at line 3/);
  });
});

describe("a bad logo", () => {
  it("missing: the theme's line and the logo's path", async () => {
    const e = await refusal({ company: "X", logo: "./nope.png" });
    assert.match(e.message, /theme\.json:3: logo: \/.*\/nope\.png: no such file/);
  });

  it("not the image its name says", async () => {
    const e = await refusal({ logo: "./logo.png" }, { "logo.png": "not a png" });
    assert.match(e.message, /logo\.png: is not a image\/png image \(its bytes are not PNG/);
  });

  it("of another type than PNG, JPEG or SVG", async () => {
    const e = await refusal({ logo: "./logo.gif" }, { "logo.gif": "GIF89a" });
    assert.match(e.message, /a logo must be a \.png, \.jpg, \.jpeg or \.svg file/);
  });

  it("larger than 256 KiB", async () => {
    const big = new Uint8Array(300 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const e = await refusal({ logo: "./logo.png" }, { "logo.png": big });
    assert.match(e.message, /logo\.png: is larger than 256 KiB/);
  });

  it("an SVG with a script, foreign object, handler or outside reference: its line", async () => {
    const cases = [
      ['<svg xmlns="http://www.w3.org/2000/svg">\n<script>alert(1)</script></svg>', "a <script>"],
      ["<svg>\n\n<foreignObject><p>x</p></foreignObject></svg>", "a <foreignObject>"],
      ['<svg>\n<rect onload="x()"/></svg>', "an event handler"],
      ['<svg>\n<image href="https://t.test/p.png"/></svg>', "embedded content"],
      ['<svg>\n<a xlink:href="https://t.test/">x</a></svg>', "a link to something outside"],
      ['<svg>\n<rect style="fill: url(https://t.test/x)"/></svg>', "a url\\(\\) outside"],
      ['<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x "y">]>\n<svg/>', "a DOCTYPE"],
    ];
    for (const [svg, what] of cases) {
      const e = await refusal({ logo: "./logo.svg" }, { "logo.svg": svg });
      assert.match(e.message, /logo\.svg:\d: an SVG logo may not hold /, svg);
      assert.match(e.message, new RegExp(what), svg);
      assert.equal(e.line, svg.startsWith("<?xml") ? 2 : svg.split("\n").length, svg);
    }
  });

  it("an SVG referring only to itself is taken", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"/></defs>' +
      '<use href="#a"/><rect fill="url(#a)"/></svg>';
    const path = await writeTheme(`${dir}/svg-ok`, { logo: "./logo.svg" }, { "logo.svg": svg });
    assert.equal((await loadTheme(path)).logo?.type, "image/svg+xml");
  });

  it("a FIFO: refused at once, not waited on", async () => {
    const folder = `${dir}/fifo`;
    await Deno.mkdir(folder);
    await mkfifo(`${folder}/logo.png`);
    const path = await writeTheme(folder, { logo: "./logo.png" }, {});
    await assert.rejects(loadTheme(path), /logo\.png: is a FIFO, not a regular file/);
  });

  it("a link leading outside the task's folders", async () => {
    const folder = `${dir}/link`;
    await Deno.mkdir(folder);
    // Deno.symlink needs unscoped read and write; the test set is scoped, so `ln` it is.
    const ln = await new Deno.Command("ln", { args: ["-s", "/etc/passwd", `${folder}/logo.png`] })
      .output();
    assert.equal(ln.code, 0);
    const path = await writeTheme(folder, { logo: "./logo.png" }, {});
    await assert.rejects(loadTheme(path), (e: Error) => {
      assert.ok(e instanceof ThemeError && e.cause instanceof ContainmentError, String(e));
      assert.match(e.message, /logo: .*\/etc\/passwd/);
      return true;
    });
  });
});

describe("a bad template", () => {
  it("a Handlebars syntax error: the template's file and line", async () => {
    const [theme, files] = withTemplate("cover.hbs", "<header>\n  <h1>{{report.title}</h1>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /templates\/cover\.hbs:2: Handlebars syntax error: a tag is not/);
  });

  it("a block never closed", async () => {
    const [theme, files] = withTemplate("cover.hbs", "{{#if theme}}\n<p>x</p>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /cover\.hbs:\d: Handlebars syntax error: the file ends inside a block/);
  });

  it("a value written unescaped", async () => {
    const [theme, files] = withTemplate("summary.hbs", "<p>\n\n{{{report.title}}}</p>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /summary\.hbs:3: \{\{\{…\}\}\} and \{\{&…\}\} write a value unescaped/);
  });

  it("a partial or helper samkit does not have", async () => {
    let [theme, files] = withTemplate("cover.hbs", "<p>{{> logo}}</p>\n");
    assert.match((await refusal(theme, files)).message, /cover\.hbs:1: unknown partial "logo"/);
    [theme, files] = withTemplate("cover.hbs", "<p>\n{{money report.title 2}}</p>\n");
    assert.match((await refusal(theme, files)).message, /cover\.hbs:2: unknown helper "money"/);
  });

  it("a file name samkit has no template of", async () => {
    const [theme, files] = withTemplate("covr.hbs", "<p></p>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /covr\.hbs: samkit has no template of this name; .*cover\.hbs/);
  });

  it("a layout without samkit's content security policy", async () => {
    const layout = '<!doctype html>\n<html><head><meta charset="utf-8"><style>{{> css}}</style>' +
      "</head><body><!--samkit:body--></body></html>\n";
    const [theme, files] = withTemplate("layout.hbs", layout);
    const e = await refusal(theme, files);
    assert.match(e.message, /layout\.hbs: must keep samkit's Content-Security-Policy <meta>/);
  });

  it("a layout without the place of the sections", async () => {
    const layout = (await Deno.readTextFile(new URL("../../templates/layout.hbs", import.meta.url)))
      .replace("<!--samkit:body-->", "");
    const [theme, files] = withTemplate("layout.hbs", layout);
    const e = await refusal(theme, files);
    assert.match(e.message, /layout\.hbs: must produce <!--samkit:body--> exactly once/);
  });

  it("a table without the place of its rows", async () => {
    const [theme, files] = withTemplate("table.hbs", "<table><tbody></tbody></table>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /table\.hbs: must produce <!--samkit:rows--> exactly once/);
  });

  it("a stylesheet holding </style", async () => {
    const [theme, files] = withTemplate("extra.css", "h1 { color: red }\n</style><p>x</p>\n");
    const e = await refusal(theme, files);
    assert.match(e.message, /extra\.css:2: a stylesheet may not hold <\/style/);
  });
});
