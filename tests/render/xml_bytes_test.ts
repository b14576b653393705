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

  it("writes decimals of up to six places (written without a string) as String(n) does", () => {
    const edges = [1e-6, 9.99999e-7, 0.000015, 999_999_999.5, 999_999_999.999999, 1e9 + 0.5, 0.3];
    const check = (n: number) => {
      const xml = new XmlBytes(16);
      xml.number(n);
      assert.equal(new TextDecoder().decode(xml.view()), String(n));
    };
    [...edges, ...edges.map((n) => -n), 0.1 + 0.2, 1 / 3].forEach(check);
    const decimal = fc.tuple(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), fc.nat(7))
      .map(([m, places]) => m / 10 ** places);
    fc.assert(fc.property(decimal, check), { numRuns: 20_000 });
  });

  it("opens a gap in front of written bytes and writes into it", () => {
    const xml = new XmlBytes(16);
    xml.ascii("<c/>".repeat(8));
    xml.insertGap(0, 5);
    xml.rewind(0);
    xml.ascii("<row>");
    xml.rewind(37);
    xml.ascii("</row>");
    assert.equal(new TextDecoder().decode(xml.view()), `<row>${"<c/>".repeat(8)}</row>`);
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
