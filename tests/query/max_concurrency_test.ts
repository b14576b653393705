import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { maxConcurrencyFlag } from "../../lib/cli/args.ts";
import { UsageError } from "../../lib/cli/usage_error.ts";
import { createQueryContext, DEFAULT_MAX_CONCURRENCY } from "../../lib/query/context.ts";

describe("--max-concurrency", () => {
  it("caps the query context's limiter at the value given", () => {
    const q = createQueryContext({
      maxConcurrency: maxConcurrencyFlag({ "max-concurrency": "3" }),
    });
    assert.equal(q.limiter.max, 3);
    assert.ok(q.limiter.limit <= 3);
  });

  it("defaults to 64, with the limit starting lower", () => {
    const q = createQueryContext({ maxConcurrency: maxConcurrencyFlag({}) });
    assert.equal(DEFAULT_MAX_CONCURRENCY, 64);
    assert.equal(q.limiter.max, 64);
    assert.ok(q.limiter.limit < 64);
  });

  it("refuses 0 and non-numbers with a usage error naming the flag", () => {
    for (const raw of ["0", "-2", "many", "1.5", "5000"]) {
      assert.throws(
        () => maxConcurrencyFlag({ "max-concurrency": raw }),
        (e) => e instanceof UsageError && /--max-concurrency/.test(e.message),
        raw,
      );
    }
  });
});
