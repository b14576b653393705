import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { clip, terminalJson, terminalText } from "../../lib/cli/terminal_text.ts";
import { getToken, withServer } from "../helpers/server.ts";
import { Progress } from "../../lib/cli/progress.ts";

/** Any character a terminal obeys, as printed: C0 but tab and LF, DEL, C1, bidi controls. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const OBEYED = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe("terminalText", () => {
  it("removes colour, cursor, title, hyperlink and 8-bit CSI sequences but keeps the text", () => {
    assert.equal(terminalText("\x1b[31mred\x1b[0m"), "red");
    assert.equal(terminalText("a\x1b[2J\x1b[1;1Hb"), "ab");
    assert.equal(terminalText("\x1b]0;pwned title\x07name"), "name");
    assert.equal(terminalText("\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\"), "click");
    assert.equal(terminalText("x\x9b31my"), "xy");
    assert.equal(terminalText("\x1bPq#0;2;0;0;0\x1b\\after"), "after");
  });

  it("removes bells, carriage returns, backspaces, DEL, C1 and bidi overrides", () => {
    assert.equal(terminalText("ok\x07\r\b\x7f\x85\u202eevil\u2066"), "okevil");
  });

  it("keeps tabs, line feeds and ordinary Unicode", () => {
    assert.equal(terminalText("a\tb\nÄ ünïcödé — €1 ✓"), "a\tb\nÄ ünïcödé — €1 ✓");
  });

  it("loses only the introducer of an unterminated string, not the text after it", () => {
    assert.equal(terminalText("\x1b]0;title never ends"), "0;title never ends");
    assert.equal(terminalText("\x9dtext"), "text");
  });

  it("never leaves a character a terminal obeys, whatever the input", () => {
    const hostile = fc.string({
      unit: fc.constantFrom(
        "\x1b",
        "[",
        "]",
        "\\",
        "\x07",
        "\x9b",
        "\x9c",
        "\x9d",
        "\r",
        "a",
        "1",
        ";",
      ),
      maxLength: 40,
    });
    fc.assert(fc.property(fc.oneof(hostile, fc.string({ unit: "binary" })), (s) => {
      assert.ok(!OBEYED.test(terminalText(s)), JSON.stringify(s));
    }));
  });
});

describe("Progress", () => {
  it("draws stage and log text without the escape sequences and controls they carry", () => {
    const written: string[] = [];
    const progress = new Progress({ enabled: true, write: (text) => written.push(text) });
    progress.status(`fetching ${HOSTILE_NAME}`);
    progress.log(`section ${HOSTILE_NAME} done`);
    assert.ok(written.length >= 2);
    for (const text of written) {
      // Only the progress line's own "return and clear line" may control the terminal.
      const own = text.replaceAll("\r\x1b[2K", "").replace(/\n$/, "");
      assert.ok(!OBEYED.test(own), JSON.stringify(text));
    }
    assert.match(written.join(""), /fetching redbellevil · 0 items/);
  });

  it("counts in words a person reads (1 request, 1,200 items) on a line no wider than the terminal", () => {
    const written: string[] = [];
    const progress = new Progress({ enabled: true, write: (t) => written.push(t), columns: 60 });
    progress.counters.requests = 1;
    progress.counters.items = 1200;
    progress.status("license-cost-summary: fetching");
    assert.equal(
      written.at(-1),
      "\r\x1b[2Klicense-cost-summary: fetching · 1,200 items · 1 request",
    );
    progress.counters.retries = 1;
    progress.counters.rateLimitWaits = 2;
    progress.status("entitlement-state-by-computer: writing xlsx");
    const line = written.at(-1)!.replace("\r\x1b[2K", "");
    assert.equal([...line].length, 59, line);
    assert.match(line, /^entitlement-state-by-computer: writing xlsx · 1,200 items …$/);
  });
});

describe("terminalJson", () => {
  it("escapes C1 and bidi controls so JSON output is safe and parses back to the same data", () => {
    const value = { name: "\x1b[31m\x9b2J\u202eevil\x07", n: 1 };
    const text = terminalJson(value);
    assert.ok(!OBEYED.test(text.replaceAll("\n", "")), text);
    assert.deepEqual(JSON.parse(text), value);
  });
});

describe("clip", () => {
  it("keeps short text and cuts long text to its start with the length", () => {
    assert.equal(clip("status -eq Active"), "status -eq Active");
    const long = "a".repeat(100_000);
    assert.equal(clip(long), `${"a".repeat(80)}… (100,000 characters)`);
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI against hostile servers and input: nothing a terminal obeys reaches stdout or stderr.

const ROOT = new URL("../../", import.meta.url).pathname;
const HOSTILE_NAME = "\x1b[31mred\x1b[0m\x07bell\x9b2J\x1b]0;title\x07\u202eevil\r\x08";

async function cli(args: string[], env: Record<string, string> = {}) {
  const set = args[0] === "connectors" ? "connectors" : "report";
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", `-P=${set}`, "--no-prompt", "main.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", SAM_BASE_URL: "", SAM_REGION: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Whether printed text holds a character a terminal obeys (tab and line feed allowed). */
const obeyed = (text: string) => OBEYED.test(text);

describe("samkit on a terminal", () => {
  it("prints a hostile connector name without escape sequences, as a table and as JSON", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const env = {
        SAMKIT_CONNECTOR_ACCESS_KEY: "AKTESTACCESSKEY00042",
        SAMKIT_CONNECTOR_SECRET_KEY: "s3cr3t-value-never-shown",
      };
      // `--token=` keeps a token that starts with "-" (base64url) from reading as an option.
      const common = ["--base-url", srv.url, `--token=${token}`];
      const added = await cli([
        "connectors",
        "add",
        "--type",
        "ProviderAStore",
        "--bucket",
        "b",
        "--report-prefix",
        "cur/",
        "--region",
        "eu-west-1",
        "--report-name",
        "hostile-report",
        "--name",
        HOSTILE_NAME,
        ...common,
      ], env);
      assert.equal(added.code, 0, added.stderr);
      const table = await cli(["connectors", "list", ...common]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /redbell/);
      assert.ok(!obeyed(table.stdout.replaceAll("\n", "")), JSON.stringify(table.stdout));
      const json = await cli(["connectors", "list", "--json", ...common]);
      assert.ok(!obeyed(json.stdout.replaceAll("\n", "")), JSON.stringify(json.stdout));
      const names = JSON.parse(json.stdout).map((c: { name: string }) => c.name);
      assert.ok(names.includes(HOSTILE_NAME), "JSON keeps the data, escaped");
    });
  });

  it("prints a server's hostile error text without escape sequences, cut to 1,000 characters", async () => {
    const message = HOSTILE_NAME + "x".repeat(50_000);
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => Response.json({ error: { code: "Bad", message } }, { status: 400 }),
    );
    const outDir = await Deno.makeTempDir({ prefix: "samkit-terminal-test-" });
    try {
      const r = await cli([
        "report",
        "license-cost-summary",
        "--format",
        "json",
        "--out",
        outDir,
        "--base-url",
        `http://127.0.0.1:${server.addr.port}`,
      ], { SAM_TOKEN: "t0k3n-for-the-test" });
      assert.equal(r.code, 1);
      const printed = r.stderr.split("\n").filter((l) => l.startsWith("samkit:")).join("\n");
      // The service's text is quoted on one line, its controls shown as escapes, never obeyed.
      assert.match(printed, /red\\u001b\[0m\\u0007bell/);
      assert.ok(!obeyed(printed), JSON.stringify(printed.slice(0, 200)));
      assert.ok(printed.length < 1_100, `${printed.length} characters printed`);
      assert.match(printed, /characters\)/);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  });

  it("refuses a 100,000-character --filter before any request, echoing only its start", async () => {
    let requests = 0;
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      requests++;
      return new Response("no", { status: 500 });
    });
    const r = await cli([
      "report",
      "license-cost-summary",
      "--filter",
      `vendor -eq "${"A".repeat(100_000)}"`,
      "--format",
      "json",
      "--out",
      "out/test/never-written",
      "--base-url",
      `http://127.0.0.1:${server.addr.port}`,
      "--token",
      "t",
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--filter is 100,013 characters long; at most 2,000 are accepted/);
    assert.ok(r.stderr.length < 500, `${r.stderr.length} characters on stderr`);
    assert.equal(requests, 0);
  });
});
