import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { clip, terminalJson, terminalText } from "../../lib/cli/terminal_text.ts";

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
