import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { renderHtmlString } from "../../lib/render/html.ts";
import { oneSectionDoc } from "./helpers.ts";

describe("an empty section", () => {
  it("reads 0 rows in the contents and its heading, and its own text in the body (never 'No data' for a check that passed)", async () => {
    const doc = oneSectionDoc({
      id: "cross-check",
      title: "Cross-check",
      columns: [{ key: "n", label: "N", type: "integer" }],
      rowCount: 0,
      totals: {},
      emptyText: "No differences found: every position agrees with the service's summary.",
      async *rows() {},
    });
    const html = await renderHtmlString(doc);
    assert.doesNotMatch(html, /No data/);
    assert.match(html, /<span class="toc-count">0 rows<\/span>/);
    assert.match(html, /<p class="section-meta">0 rows<\/p>/);
    assert.match(html, /No differences found: every position agrees/);
  });
});
