/**
 * `--theme FILE` and a pack's `"theme"`, run as a user runs them: a good theme shapes the
 * reports and the pack's mail; a bad one — a template that does not parse, a missing logo, a bad
 * colour, an unknown field — exits 2 naming the file and line before any request (a service
 * that counts requests gets none) and writes nothing.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { BROWSER_ENV, runCli } from "../helpers/cli.ts";
import { exists, outTestDir } from "../helpers/files.ts";
import { type HostileServer, serveHostile } from "../helpers/hostile_http.ts";
import { testEmail } from "../helpers/pack_summary.ts";
import { readZipText } from "../render/xlsx_zip.ts";
import { COMPANY, defaultFiles, FOOTER, GOOD_THEME, writeTheme } from "../render/theme_fixture.ts";

let dir: string;
let good: string;
let service: HostileServer;

before(async () => {
  dir = await outTestDir("theme-cli-");
  good = await writeTheme(`${dir}/theme`);
  service = serveHostile(() =>
    Response.json({ error: "no request was expected" }, { status: 500 })
  );
});
after(async () => {
  await service.close();
  await Deno.remove(dir, { recursive: true });
});

/** The bad themes and what their error must say. */
const BAD: readonly {
  name: string;
  theme: unknown;
  files?: Record<string, string>;
  says: RegExp;
}[] = [
  {
    name: "template",
    theme: GOOD_THEME,
    files: { "templates/cover.hbs": "<header>\n  <h1>{{report.title}</h1>\n</header>\n" },
    says: /\/templates\/cover\.hbs:2: Handlebars syntax error/,
  },
  {
    name: "logo",
    theme: { company: "X", logo: "./missing.png" },
    says: /theme\.json:3: logo: .*\/missing\.png: no such file/,
  },
  {
    name: "colour",
    theme: '{\n  "colors": { "accent": "navy" }\n}\n',
    says: /theme\.json:2: colors\.accent: expected a colour #rgb or #rrggbb/,
  },
  {
    name: "field",
    theme: '{\n  "company": "X",\n  "colours": {}\n}\n',
    says: /theme\.json:3: colours: unknown field/,
  },
];

describe("report --theme", () => {
  for (const bad of BAD) {
    it(`a bad theme (${bad.name}) exits 2 naming file and line, before any request`, async () => {
      const path = await writeTheme(`${dir}/bad-${bad.name}`, bad.theme, {
        ...defaultFiles(),
        ...bad.files,
      });
      const out = `${dir}/out-${bad.name}`;
      const r = await runCli(
        ["report", "stale-computers", "--theme", path, "--out", out, "--base-url", service.url],
        { env: { SAM_TOKEN: "theme-test-token" } },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, bad.says);
      assert.equal(service.hits.length, 0, "no request");
      assert.equal(await exists(out), false, "nothing written");
    });
  }

  it("a good theme shapes the HTML and the workbook", async () => {
    const out = `${dir}/out-good`;
    const r = await runCli([
      "report",
      "license-cost-summary",
      "--theme",
      good,
      "--format",
      "html,xlsx",
      "--out",
      out,
      "--quiet",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const html = await Deno.readTextFile(`${out}/license-cost-summary.html`);
    assert.ok(html.includes(`<span class="brand-name">${COMPANY}</span>`));
    assert.ok(html.includes('<tfoot class="own-totals">'));
    const zip = await readZipText(`${out}/license-cost-summary.xlsx`);
    assert.match(zip.get("docProps/core.xml")!, new RegExp(`<dc:creator>${COMPANY}<`));
  });
});

describe("a pack's theme", () => {
  /** A one-report pack in `folder` with `theme` (relative to the pack file) and a mail. */
  async function packFile(folder: string, theme: string): Promise<string> {
    await Deno.mkdir(folder, { recursive: true });
    const path = `${folder}/weekly.json`;
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        name: "weekly",
        output: `${folder}/runs`,
        theme,
        reports: [{ id: "license-cost-summary", formats: ["html"] }],
        email: testEmail("cfo@example.test"),
      }),
    );
    return path;
  }

  it("themes every report and the summary mail", async () => {
    const path = await packFile(`${dir}/pack-good`, "../theme/theme.json");
    const r = await runCli(["pack", path, "--quiet"], { set: "pack", env: BROWSER_ENV });
    assert.equal(r.code, 0, r.stderr);
    const run = r.stdout.trim().replace(/\/manifest\.json$/, "");
    const html = await Deno.readTextFile(`${run}/license-cost-summary.html`);
    assert.ok(html.includes(`<span class="theme-footer">${FOOTER}</span>`));
    const mail = await simpleParser(Buffer.from(await Deno.readFile(`${run}/summary.eml`)));
    assert.match(mail.subject ?? "", new RegExp(`^\\[demo data\\] ${COMPANY}: weekly for `));
    assert.ok((mail.text ?? "").trimEnd().endsWith(FOOTER));
  });

  it("a bad one exits 2 naming it, before the run folder exists", async () => {
    await writeTheme(`${dir}/pack-bad/theme`, { colors: { header: "green" } }, {});
    const path = await packFile(`${dir}/pack-bad`, "./theme/theme.json");
    const r = await runCli(["pack", path, "--quiet"], { set: "pack", env: BROWSER_ENV });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /pack-bad\/theme\/theme\.json:\d+: colors\.header: expected a colour/);
    assert.equal(await exists(`${dir}/pack-bad/runs`), false);
  });

  it("--theme overrides the pack's", async () => {
    const path = await packFile(`${dir}/pack-flag`, "./missing-theme.json");
    const flag = await writeTheme(`${dir}/pack-flag/flag`, '{\n  "company": 7\n}\n', {});
    const r = await runCli(["pack", path, "--theme", flag, "--quiet"], { set: "pack" });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /pack-flag\/flag\/theme\.json:2: company: expected a non-empty text/);
  });
});
