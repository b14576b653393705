/**
 * XmlBytes against the strings it replaces: `TextEncoder` of exceljs' escaping and `String(n)`.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { XmlBytes } from "../../lib/render/xml_bytes.ts";

// deno-lint-ignore no-control-regex
const ESCAPE = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const ENTITIES: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  "'": "&apos;",
  '"': "&quot;",
};
const encoder = new TextEncoder();

describe("XmlBytes", () => {
  it("writes text as the escaped string's UTF-8, surrogates and control characters included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const xml = new XmlBytes(16);
        xml.text(text);
        const expected = encoder.encode(text.replace(ESCAPE, (c) => ENTITIES[c] ?? ""));
        assert.deepEqual(xml.view(), expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it("writes numbers as String(n) does", () => {
    const fixed = [0, -0, 7, -42, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, 1e21, 0.1, -1.5e-7, NaN];
    const check = (n: number) => {
      const xml = new XmlBytes(16);
      xml.number(n);
      assert.equal(new TextDecoder().decode(xml.view()), String(n));
    };
    fixed.forEach(check);
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger()), check), {
      numRuns: 5_000,
    });
  });

  it("grows past its capacity and appends other buffers", () => {
    const a = new XmlBytes(16);
    a.ascii("<row>");
    const b = new XmlBytes(16);
    b.text("x".repeat(10_000));
    a.append(b);
    a.ascii("</row>");
    assert.equal(new TextDecoder().decode(a.view()), `<row>${"x".repeat(10_000)}</row>`);
    a.clear();
    assert.equal(a.view().length, 0);
  });
});
