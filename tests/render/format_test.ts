import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  formatBoolean,
  formatCell,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatFact,
  formatNumber,
  formatPercent,
  formatValue,
  isNumericType,
  plainValue,
  readableJson,
  toRfc3339,
} from "../../lib/render/format.ts";
import { renderHtmlString } from "../../lib/render/html.ts";
import { demoDocument } from "./fixtures.ts";

const NBSP = "\u00a0";

describe("format", () => {
  it("formats numbers with grouping and fixed decimals per locale", () => {
    assert.equal(formatNumber(1234567.891), "1,234,568");
    assert.equal(formatNumber(1234567.891, { decimals: 2 }), "1,234,567.89");
    assert.equal(formatNumber(1234.5, { locale: "de-DE", decimals: 2 }), "1.234,50");
    assert.equal(formatNumber(Number.NaN), "");
    assert.equal(formatNumber(Number.POSITIVE_INFINITY), "");
  });

  it("formats currency in its code, and falls back to number plus code for unknown codes", () => {
    assert.equal(formatCurrency(1234.5, "EUR"), "€1,234.50");
    assert.equal(formatCurrency(-1234.5, "USD"), "-$1,234.50");
    assert.equal(formatCurrency(1234.5, "EUR", { locale: "de-DE" }), `1.234,50${NBSP}€`);
    assert.equal(formatCurrency(1234.5, "JPY", { decimals: 0 }), "¥1,235");
    assert.equal(formatCurrency(10, undefined), "10.00");
    assert.equal(formatCurrency(10, "usd"), "$10.00");
    assert.equal(formatCurrency(10, "not a code"), "10.00 NOT A CODE");
  });

  it("formats ratios as percentages", () => {
    assert.equal(formatPercent(0.25), "25.0%");
    assert.equal(formatPercent(0.12345, { decimals: 2 }), "12.35%");
    assert.equal(formatPercent(0.5, { locale: "fr-FR", decimals: 0 }), `50${NBSP}%`);
  });

  it("formats dates and date-times in UTC whatever the host zone", () => {
    const late = new Date("2024-01-05T23:30:00Z");
    assert.equal(formatDate(late), "Jan 5, 2024");
    assert.equal(formatDate(late, { locale: "de-DE" }), "05.01.2024");
    assert.equal(formatDate(late, { locale: "en-GB" }), "5 Jan 2024");
    assert.equal(formatDateTime(late), "Jan 5, 2024, 23:30 UTC");
    assert.equal(formatDate(new Date(Number.NaN)), "");
  });

  it("formats booleans as Yes/No and missing values as empty text", () => {
    assert.equal(formatBoolean(true), "Yes");
    assert.equal(formatValue(false, "boolean"), "No");
    assert.equal(formatValue(null, "currency"), "");
    assert.equal(formatValue(undefined, "date"), "");
    assert.equal(formatValue("n/a", "number"), "n/a");
    assert.equal(formatValue(new Date(0), "text"), "1970-01-01T00:00:00.000Z");
  });

  it("formats a cell with its column's currency key and decimals", () => {
    const column = { key: "amount", label: "A", type: "currency", currencyKey: "ccy" } as const;
    assert.equal(formatCell({ amount: 12.5, ccy: "GBP" }, column, { locale: "en-GB" }), "£12.50");
    assert.equal(
      formatCell({ n: 0.5 }, { key: "n", label: "N", type: "number", decimals: 3 }),
      "0.500",
    );
    assert.equal(
      formatFact({ label: "Spend", value: 1000, type: "currency", currency: "USD" }),
      "$1,000.00",
    );
  });

  it("gives machine forms for data formats", () => {
    assert.equal(toRfc3339(new Date("2024-01-05T00:00:00Z"), "date"), "2024-01-05");
    assert.equal(toRfc3339(new Date("2024-01-05T14:03:00Z")), "2024-01-05T14:03:00.000Z");
    assert.equal(toRfc3339(new Date(Number.NaN)), null);
    assert.equal(plainValue(1e21, "number"), 1e21);
    assert.equal(plainValue(Number.NaN, "number"), null);
    assert.equal(plainValue(undefined, "text"), null);
    assert.equal(isNumericType("percent"), true);
    assert.equal(isNumericType("boolean"), false);
  });

  it("never throws for any cell value and column type", () => {
    const types = [
      "text",
      "number",
      "integer",
      "currency",
      "date",
      "datetime",
      "boolean",
      "percent",
    ] as const;
    fc.assert(fc.property(
      fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.date()),
      fc.constantFrom(...types),
      fc.option(fc.string({ maxLength: 4 })),
      fc.constantFrom("en-US", "de-DE", "fr-FR", "ja-JP", "ar-EG"),
      (value, type, currency, locale) => {
        assert.equal(typeof formatValue(value, type, { currency, locale }), "string");
      },
    ));
  });

  it("writes a JSON parameter with a space between entries, and the same value", () => {
    const factors = { Intel: 0.5, AMD: 0.5, IBM: 1, Apple: 1, default: 1 };
    assert.equal(
      readableJson(factors),
      '{"Intel": 0.5, "AMD": 0.5, "IBM": 1, "Apple": 1, "default": 1}',
    );
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = readableJson(value);
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
      assert.ok(!text.includes("\n"), text);
    }));
  });

  it("puts a JSON parameter on the cover with room to wrap between entries", async () => {
    const factors = { Intel: 0.5, AMD: 0.5, IBM: 1 };
    const doc = demoDocument();
    const html = await renderHtmlString({ ...doc, params: { ...doc.params, factors } });
    assert.ok(html.includes("{&quot;Intel&quot;: 0.5, &quot;AMD&quot;: 0.5, &quot;IBM&quot;: 1}"));
  });
});
