/**
 * A misspelt filter field is bad input on the command line and in a pack file (refused before
 * any request, naming the column and the closest fields), while every field the real service
 * has passes, and `--allow-unknown-fields` (a pack report's `allowUnknownFields`) sends an
 * unknown one with a warning.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ResourceName, RESOURCES } from "../../lib/api/catalogue.ts";
import { parseFilter } from "../../lib/api/filter.ts";
import { FilterFieldError, validateFilter } from "../../lib/api/filter_validate.ts";
import { checkReportFilter } from "../../lib/report/runner.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { REPORTS } from "../../reports/mod.ts";

const LICENSES = { id: "license-cost-summary", filterResource: "License" };

/** The error `fn` throws, asserted to be a FilterFieldError. */
function fieldError(fn: () => unknown): FilterFieldError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof FilterFieldError, `expected a FilterFieldError, got ${e}`);
    return e;
  }
  return assert.fail("no error thrown");
}

describe("unknown filter fields", () => {
  it("refuses a misspelt field with its column, the field it resembles and how to send it anyway", () => {
    const e = fieldError(() => checkReportFilter(LICENSES, "vndor -eq Adobe"));
    assert.equal(e.field, "vndor");
    assert.equal(e.column, 1);
    assert.deepEqual(e.suggestions, ["vendor"]);
    assert.match(
      e.message,
      /^filter error at column 1: License has no field "vndor"; did you mean "vendor"\? \(.*--allow-unknown-fields sends it anyway\)/,
    );
  });

  it("points a caret at the misspelt field inside a longer filter", () => {
    const filter = "(quantity -gt 5) -and (vndor -eq Adobe)";
    const e = fieldError(() => checkReportFilter(LICENSES, filter));
    assert.equal(e.column, 24);
    const lines = e.message.split("\n");
    assert.equal(lines[1], `  ${filter}`);
    assert.equal(lines[2], `  ${" ".repeat(23)}^`);
  });

  it("shows no filter text when the filter names a sensitive field", () => {
    const detail = { id: "x", filterResource: "ComputerDetail" };
    const e = fieldError(() =>
      checkReportFilter(detail, "(securityCode -eq s3cret) -and (hostnam -eq x)")
    );
    assert.equal(e.field, "hostnam");
    assert.ok(!e.message.includes("s3cret"), e.message);
    assert.ok(!e.message.includes("\n"), e.message);
  });

  it("names the pack-file option, not the flag, when a pack file holds the filter", () => {
    assert.throws(
      () =>
        validatePack({
          name: "p",
          reports: [{ id: "license-cost-summary", filter: "vndor -eq Adobe" }],
        }, { file: "p.json", reports: REPORTS }),
      /reports\[0\]\.filter: filter error at column 1: License has no field "vndor"; did you mean "vendor"\? .*"allowUnknownFields": true/,
    );
  });

  it("with allowUnknownFields returns the unknown field as a warning instead", () => {
    const warnings = checkReportFilter(LICENSES, "vndor -eq Adobe", { allowUnknownFields: true });
    assert.deepEqual(warnings.map((w) => [w.field, w.column, w.suggestions]), [
      ["vndor", 1, ["vendor"]],
    ]);
    const pack = validatePack({
      name: "p",
      reports: [{
        id: "license-cost-summary",
        filter: "seatCount -gt 5",
        allowUnknownFields: true,
      }],
    }, { file: "p.json", reports: REPORTS });
    assert.equal(pack.reports[0].filter, "seatCount -gt 5");
  });

  it("refuses a pack report's allowUnknownFields that is not true or false", () => {
    assert.throws(
      () =>
        validatePack({
          name: "p",
          reports: [{ id: "license-cost-summary", filter: "vendor -eq x", allowUnknownFields: 1 }],
        }, { file: "p.json", reports: REPORTS }),
      /reports\[0\]\.allowUnknownFields: expected true or false/,
    );
  });

  it("still refuses a wrong operator on a known field when unknown fields are allowed", () => {
    assert.throws(
      () => checkReportFilter(LICENSES, "vendor -gt 5", { allowUnknownFields: true }),
      /-gt does not apply to vendor/,
    );
  });
});

describe("fields the real service has", () => {
  const filterable = [...new Set(REPORTS.map((r) => r.filterResource).filter(Boolean))];

  it("every real-only field and real spelling of each filterable resource is accepted", () => {
    let checked = 0;
    for (const name of filterable as ResourceName[]) {
      const resource = RESOURCES[name];
      const real = resource.fields.filter((f) => !f.hidden && (f.origin === "real" || f.realName))
        .map((f) => f.realName ?? f.name);
      for (const field of real) {
        const filter = `${field} -exists true`;
        try {
          checkReportFilter({ id: "x", filterResource: name }, filter);
        } catch (e) {
          // -exists does not apply to a Boolean field: an operator error, not an unknown field.
          assert.ok(!(e instanceof FilterFieldError), `${name}.${field}: ${e}`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 30, `checked ${checked} real fields`);
  });

  it("a real field samkit does not type (License upgrades) is sent with a warning, flag or not", () => {
    const [warning] = checkReportFilter(LICENSES, "upgrades -exists true");
    assert.equal(warning?.field, "upgrades");
    assert.match(warning.message, /has no type in samkit's catalogue; sending it/);
  });

  it("the untyped fields follow unknownFields unless untypedFields says otherwise", () => {
    const tree = parseFilter("upgrades -exists true");
    assert.throws(() => validateFilter(tree, RESOURCES.License), FilterFieldError);
    const warned = validateFilter(tree, RESOURCES.License, {
      unknownFields: "error",
      untypedFields: "warn",
    });
    assert.equal(warned.length, 1);
    assert.throws(
      () =>
        validateFilter(parseFilter("vndor -eq x"), RESOURCES.License, {
          unknownFields: "error",
          untypedFields: "warn",
        }),
      FilterFieldError,
    );
  });
});
