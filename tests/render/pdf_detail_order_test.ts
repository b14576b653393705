/**
 * A capped PDF section sorted by name with numbers as numbers ("Java 8" before "Java 11", as the
 * reports sort) is still known as alphabetical, so it prints its largest rows, not its first
 * application's (license-position at 3,000 computers printed 500 rows of Adobe Acrobat Pro).
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { printedDocument } from "../../lib/render/pdf_detail.ts";
import { requirementPerDevice } from "./helpers.ts";

describe("printedDocument of a section in natural name order", () => {
  it("prints the largest rows, not the first application's", async () => {
    const names = ["Adobe Acrobat Pro", "Java 8", "Java 11", "Oracle Database 19"];
    const devices = names.flatMap((application, a) =>
      Array.from({ length: 10 }, (_, n) => ({
        application,
        computer: `PC-${(a * 37 + n * 11) % 41}`, // in no order
        requirement: a === 3 ? 100 + n : 1,
      }))
    );
    const doc = requirementPerDevice(devices);
    const [printed] = (await printedDocument(doc, { maxRows: 3 })).sections;
    const rows = [];
    for await (const row of printed.rows()) rows.push(row);
    assert.deepEqual(rows.map((r) => r.requirement), [109, 108, 107]);
    assert.equal(printed.printedPart?.which, "the largest Requirement first");
  });
});
