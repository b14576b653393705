import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isoText } from "../../lib/render/iso_text.ts";

describe("ISO text of a date", () => {
  it("is what toISOString gives, for random times across years 0-9999 and the edges", () => {
    const edges = [
      0,
      -1,
      1,
      Date.parse("0000-01-01T00:00:00.000Z"),
      Date.parse("9999-12-31T23:59:59.999Z"),
      Date.parse("2000-02-29T12:34:56.789Z"),
      Date.parse("1900-03-01T00:00:00.000Z"),
      Date.parse("1969-12-31T23:59:59.999Z"),
      Date.UTC(1900, 0, 1),
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const span = Date.parse("9999-12-31T23:59:59.999Z") - Date.parse("0000-01-01T00:00:00.000Z");
    const times = [
      ...edges,
      ...Array.from(
        { length: 200_000 },
        () => Math.floor(Date.parse("0000-01-01T00:00:00.000Z") + random() * span),
      ),
    ];
    for (const t of times) assert.equal(isoText(t), new Date(t).toISOString(), String(t));
  });
  it("leaves years outside 0-9999 and fractions to toISOString, and throws as it does", () => {
    for (const t of [Date.parse("+010000-01-01T00:00:00Z"), -62198755200000, 1.5, 8.64e15]) {
      assert.equal(isoText(t), new Date(t).toISOString());
    }
    assert.throws(() => isoText(Number.NaN), RangeError);
  });
});
