import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
// @ts-types="../../lib/render/csv_stringify.d.ts"
import { stringify } from "csv-stringify/sync";
import { csvLines } from "../../lib/render/csv.ts";

describe("CSV lines", () => {
  it("are what csv-stringify writes (RFC 4180, CR and LF quoted) for any fields", () => {
    const field = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "",
        " ",
        ",",
        '"',
        "\r",
        "\n",
        "\r\n",
        "a,b",
        'say "hi"',
        "30–89 days",
        "'=1",
      ),
      fc.stringMatching(/^[a-z ,"\r\n]{0,6}$/),
    );
    fc.assert(
      fc.property(fc.array(fc.array(field, { maxLength: 6 }), { maxLength: 8 }), (records) => {
        const expected = stringify(records, { record_delimiter: "\r\n", quoted_match: /[\r\n]/ });
        assert.equal(csvLines(records), expected);
      }),
      { numRuns: 3000 },
    );
  });
});
