/**
 * A pack's summary mail in the pack's theme, read as the recipient reads it (the .eml parsed):
 * the company in the subject and heading, the accent colour and font, the logo as an inline
 * image part the HTML shows by cid (and as a data: image in what summary.pdf prints), the
 * footer line in both parts, a `pack_summary.hbs` of the theme's own; samkit's mail without a
 * theme.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { buildMessage, type SummaryInput, writeEml } from "../../lib/pack/mail.ts";
import { type PackEmail, validatePack } from "../../lib/pack/pack_file.ts";
import type { Manifest } from "../../lib/pack/manifest.ts";
import { loadTheme, type Theme } from "../../lib/render/theme.ts";
import { REPORTS } from "../../reports/mod.ts";
import {
  ACCENT,
  COMPANY,
  defaultFiles,
  FOOTER,
  GOOD_THEME,
  LOGO_PNG,
  writeTheme,
} from "../render/theme_fixture.ts";
import { testEmail } from "../helpers/pack_summary.ts";

const MANIFEST: Manifest = {
  pack: "weekly",
  status: "complete",
  started: "2024-05-01T08:00:00Z",
  finished: "2024-05-01T08:01:00Z",
  source: "https://sam.example.test",
  samkitVersion: "0.1.0",
  parameters: { "stale-computers": {} },
  reports: [{ id: "stale-computers", status: "ok", params: {}, files: [] }],
  files: [],
} as unknown as Manifest;

let dir: string;
let email: PackEmail;
let theme: Theme;

/** The summary input of a one-report run. */
function input(extra: Partial<SummaryInput> = {}): SummaryInput {
  return {
    manifest: MANIFEST,
    titles: { "stale-computers": "Stale computers" },
    changes: [],
    previousStarted: null,
    folder: dir,
    ...extra,
  };
}

before(async () => {
  dir = await Deno.makeTempDir({ prefix: "samkit-theme-mail-" });
  // The mail attaches summary.pdf (a run prints it first).
  await Deno.writeTextFile(`${dir}/summary.pdf`, "%PDF-1.4\n");
  const pack = validatePack({
    name: "weekly",
    reports: [{ id: "stale-computers" }],
    email: testEmail("cfo@example.test"),
  }, { file: `${dir}/weekly.json`, reports: REPORTS });
  email = pack.email!;
  theme = await loadTheme(await writeTheme(`${dir}/theme`));
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

describe("the summary mail in a theme", () => {
  it("says the company, shows the logo inline, the colours, font and footer", async () => {
    const message = await buildMessage(email, input({ theme }));
    assert.equal(message.subject, `${COMPANY}: weekly for 2024-05-01`);
    const eml = await writeEml(email, message, `${dir}/summary.eml`);
    const mail = await simpleParser(Buffer.from(await Deno.readFile(eml)));
    assert.equal(mail.subject, `${COMPANY}: weekly for 2024-05-01`);
    const html = String(mail.html);
    assert.ok(html.includes(`${COMPANY} · samkit audit pack`), "the heading");
    assert.ok(html.includes(`border-bottom:3px solid ${ACCENT};`), "the accent colour");
    assert.ok(html.includes("font-family:&quot;DejaVu Serif&quot;, serif;"), "the font");
    assert.ok(html.includes(FOOTER), "the footer in the HTML part");
    const logo = mail.attachments.find((a: { contentId?: string }) =>
      a.contentId === "<logo@samkit>"
    ) as { content: Buffer } | undefined;
    assert.ok(logo, "the logo as an inline part");
    assert.deepEqual(new Uint8Array(logo.content), LOGO_PNG);
    assert.ok(/<img src="cid:logo@samkit"/.test(message.html), "shown by cid");
    assert.ok(message.printHtml.includes('src="data:image/png;base64,iVBOR'), "summary.pdf's");
    const text = mail.text ?? "";
    assert.ok(text.startsWith(`${COMPANY}\n`), text.slice(0, 80));
    assert.ok(text.trimEnd().endsWith(FOOTER), "the footer in the text part");
  });

  it("takes the theme's own pack_summary.hbs", async () => {
    const files = {
      ...defaultFiles(),
      "templates/pack_summary.hbs":
        "<html><body><h1>{{theme.company}}: {{title}}</h1></body></html>\n",
    };
    const own = await loadTheme(await writeTheme(`${dir}/own`, GOOD_THEME, files));
    const message = await buildMessage(email, input({ theme: own }));
    assert.match(message.html, new RegExp(`^<html><body><h1>${COMPANY}: `));
  });

  it("is samkit's without a theme", async () => {
    const message = await buildMessage(email, input());
    assert.equal(message.subject, "samkit: weekly for 2024-05-01");
    assert.ok(message.html.includes("border-bottom:3px solid #1d4e89;"));
    assert.ok(message.html.includes(">samkit audit pack</div>"));
    assert.equal(message.printHtml, message.html);
    assert.deepEqual(message.inline, []);
    assert.ok(!message.html.includes("<img"));
  });
});
