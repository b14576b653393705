import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import {
  isInside,
  MAX_NAME_LENGTH,
  reportFileName,
  safeJoin,
  safeName,
} from "../../lib/fs/safe_name.ts";

const HOSTILE = [
  "../x",
  "/etc/x",
  "a\u0000b",
  "..",
  ".",
  "",
  "x".repeat(5000),
  "x/../../../pwned",
  "..\\..\\windows",
  "CON",
  "con.csv",
  "nul",
  "COM1",
  ".hidden",
  "€uro",
  "日本円",
  "a\u202Eb",
  "a\nb",
  "~",
];

describe("safeName", () => {
  it("leaves a name of safe characters unchanged", () => {
    for (const name of ["by-publisher-gbp", "weekly_audit", "2026-11-22T0605Z", "a.b"]) {
      assert.equal(safeName(name), name);
    }
  });

  it("gives every hostile value a name of safe characters only, bounded, never hidden", () => {
    for (const value of HOSTILE) {
      const name = safeName(value);
      assert.match(name, /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, JSON.stringify(value));
      assert.ok(name.length <= MAX_NAME_LENGTH, JSON.stringify(value));
      assert.notEqual(name, ".");
      assert.notEqual(name, "..");
      assert.ok(!/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(name.split(".")[0]), name);
    }
  });

  it("keeps two different hostile values apart when their slugs would match", () => {
    const values = ["a/b", "a\\b", "a b", "a_b-x", "a?b", "x".repeat(200), "x".repeat(201)];
    const names = values.map((v) => safeName(v));
    assert.equal(new Set(names).size, values.length, names.join(" "));
  });

  it("cannot be forged to equal another value's slug", () => {
    const slug = safeName("a/b");
    assert.notEqual(safeName(slug), slug);
  });

  it("is stable: the same value always gives the same name", () => {
    assert.equal(safeName("x/../../pwned"), safeName("x/../../pwned"));
  });
});

describe("safeJoin", () => {
  it("keeps every hostile name inside its folder", () => {
    for (const value of HOSTILE) {
      const path = safeJoin("/out/run", value);
      assert.ok(isInside("/out/run", path), path);
      assert.equal(resolve(path, ".."), "/out/run");
    }
  });

  it("joins several names, each made safe", () => {
    assert.equal(safeJoin("/out", "packs", "weekly"), "/out/packs/weekly");
    assert.equal(dirname(dirname(safeJoin("/out", "..", ".."))), "/out");
  });
});

describe("reportFileName", () => {
  it("names a section's file from the report and section id, made safe as one", () => {
    assert.equal(reportFileName("elp", "csv", "exposure-gbp"), "elp-exposure-gbp.csv");
    const hostile = reportFileName("license-cost-summary", "csv", "by-publisher-x/../../../pwned");
    assert.ok(!hostile.includes("/"), hostile);
    assert.ok(hostile.startsWith("license-cost-summary-by-publisher-x_"), hostile);
    assert.ok(hostile.endsWith(".csv"));
  });
});
