import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { RESOURCES, visibleFields } from "../../lib/api/catalogue.ts";
import { operation, OPERATIONS } from "../../lib/api/operations.ts";
import {
  detailOperation,
  errorBody,
  formatLicenseDate,
  formatRfc3339,
  itemLinks,
  itemLinksJson,
  jsonString,
  link,
  linksJson,
  rowWriter,
  serializeRow,
  withLinks,
} from "../../lib/server/serialize.ts";
import { type Dialect, DIALECTS } from "../../lib/server/serialize.ts";
import type { ResourceName } from "../../lib/api/catalogue.ts";

describe("formatLicenseDate", () => {
  it("writes M/d/yyyy h:mm:ss AM in UTC with a 12-hour clock", () => {
    assert.equal(formatLicenseDate("2023-03-07T21:05:00.000Z"), "3/7/2023 9:05:00 PM");
    assert.equal(formatLicenseDate("2023-12-25T00:00:09.000Z"), "12/25/2023 12:00:09 AM");
    assert.equal(formatLicenseDate("2023-01-01T12:30:00.000Z"), "1/1/2023 12:30:00 PM");
    assert.equal(formatLicenseDate("2023-01-01T11:59:59.000Z"), "1/1/2023 11:59:59 AM");
  });

  it("round-trips every whole-second instant through a parse of its parts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (seconds) => {
        const d = new Date(seconds * 1000);
        const m = /^(\d+)\/(\d+)\/(\d{4}) (\d+):(\d\d):(\d\d) (AM|PM)$/.exec(formatLicenseDate(d));
        assert.ok(m);
        const h12 = Number(m[4]);
        assert.ok(h12 >= 1 && h12 <= 12);
        const h = (h12 % 12) + (m[7] === "PM" ? 12 : 0);
        const back = Date.UTC(+m[3], +m[1] - 1, +m[2], h, +m[5], +m[6]);
        assert.equal(back, d.getTime());
      }),
    );
  });
});

describe("formatRfc3339", () => {
  it("drops a zero fraction and keeps a non-zero one", () => {
    assert.equal(formatRfc3339("2024-01-02T03:04:05.000Z"), "2024-01-02T03:04:05Z");
    assert.equal(formatRfc3339("2024-01-02T03:04:05.250Z"), "2024-01-02T03:04:05.250Z");
  });
});

describe("serializeRow", () => {
  it("sends every visible field in catalogue order and no hidden one", () => {
    for (const r of Object.values(RESOURCES)) {
      const wire = serializeRow(r.name, {});
      const expected = [...new Set(visibleFields(r.name).map((f) => f.name.split(".")[0]))];
      assert.deepEqual(Object.keys(wire), expected, r.name);
    }
    const drive = serializeRow("Drive", { computerId: "C1", kind: "hard" });
    assert.equal("kind" in drive, false);
    const connector = serializeRow("CloudConnector", { id: "K", accessKey: "AK", secretKey: "SK" });
    assert.equal(JSON.stringify(connector).includes("AK"), false);
    assert.equal(JSON.stringify(connector).includes("SK"), false);
  });

  it("reproduces the license quirks: string numbers, boolean words, M/d/yyyy dates", () => {
    const wire = serializeRow("LicenseDetail", {
      id: "L1",
      quantity: 12,
      purchaseValue: 1234.5,
      incompleteReasons: 2,
      isSubscription: 1,
      isUpgrade: 0,
      purchaseDate: "2023-03-07T21:05:00.000Z",
    });
    assert.equal(wire.quantity, "12");
    assert.equal(wire.purchaseValue, "1234.5");
    assert.equal(wire.incompleteReasons, 2);
    assert.equal(wire.isSubscription, "true");
    assert.equal(wire.isUpgrade, "false");
    assert.equal(wire.isDowngrade, null);
    assert.equal(wire.purchaseDate, "3/7/2023 9:05:00 PM");
    assert.equal(serializeRow("UserAssignment", { quantity: 3 }).quantity, "3");
    assert.equal(serializeRow("ComputerAssignment", { quantity: 3 }).quantity, 3);
  });

  it("types estate values: booleans, numbers, RFC 3339 dates, string arrays", () => {
    const wire = serializeRow("Computer", {
      id: "C1",
      isVdi: 1,
      isPortable: 0,
      lastScanDate: "2024-01-02T03:04:05.000Z",
    });
    assert.equal(wire.isVDI, true);
    assert.equal(wire.isPortable, false);
    assert.equal(wire.lastScanDate, "2024-01-02T03:04:05Z");
    const field = serializeRow("PolicyFieldDetail", { listItems: '["x","y"]', isRequired: 1 });
    assert.deepEqual(field.listItems, ["x", "y"]);
    assert.equal(field.isRequired, true);
  });

  it("sends the public service's names in the real dialect, the spec's neutral names in the spec's", () => {
    const row = { id: "D1", isVendorDRS: 1 };
    const spec = serializeRow("DataCenterCluster", row);
    const real = serializeRow("DataCenterCluster", row, "real");
    assert.equal(spec.isVendorDRS, true);
    assert.ok(!("isVMwareDRS" in spec));
    assert.equal(real.isVMwareDRS, true);
    assert.ok(!("isVendorDRS" in real));
  });

  it("nests dotted fields as objects", () => {
    const wire = serializeRow("CloudConnector", {
      id: "K1",
      status_type: "inProgress",
      status_updatedAt: "2024-05-01T00:00:00.000Z",
      status_errorCode: null,
    });
    assert.deepEqual(wire.status, {
      contextId: null,
      type: "inProgress",
      errorCode: null,
      updatedAt: "2024-05-01T00:00:00Z",
    });
  });
});

describe("links", () => {
  it("puts item links under the resource's link name, or none", () => {
    const l = [{ href: "api/x", method: "GET", rel: "self" }];
    assert.deepEqual(Object.keys(withLinks("Computer", {}, l)), ["_links"]);
    assert.deepEqual(Object.keys(withLinks("DataCenterCluster", {}, l)), ["links"]);
    assert.deepEqual(Object.keys(withLinks("CloudConnector", {}, l)), []);
  });

  it("links a collection item to its detail operation", () => {
    assert.equal(detailOperation(operation("estate.computers"))?.id, "estate.computer");
    assert.equal(
      detailOperation(operation("estate.applications"))?.id,
      "estate.computerApplication",
    );
    assert.equal(
      detailOperation(operation("licenses.organizationAssignments"))?.id,
      "licenses.organizationAssignment",
    );
    assert.equal(detailOperation(operation("estate.processors")), null);
    const links = itemLinks(
      operation("estate.applications"),
      { computerId: "C 1", applicationId: "A1" },
      "/api/sam/estate/v1/computers-applications",
    );
    assert.deepEqual(links.map((x) => [x.rel, x.href]), [
      ["self", "api/sam/estate/v1/computers/C%201/applications/A1"],
      ["details", "api/sam/estate/v1/computers/C%201/applications/A1"],
    ]);
    const license = itemLinks(operation("licenses.list"), { id: "L1" }, "/api/sam/v1/licenses");
    assert.ok(license[0].href.startsWith("api/sam/v1/licenses/"));
  });

  it("falls back to the collection when the item lacks what the detail needs", () => {
    const links = itemLinks(
      operation("estate.computers"),
      { id: null },
      "/api/sam/estate/v1/computers",
    );
    assert.deepEqual(links, [{ href: "api/sam/estate/v1/computers", method: "GET", rel: "self" }]);
  });
});

describe("errorBody", () => {
  it("has the routes.md shape", () => {
    assert.deepEqual(errorBody(404, "gone"), { error: { code: 404, message: "gone" } });
  });
});

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
});

/** A value as SQLite hands one back, or one a stored row could hold by mistake. */
const storedValue = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  anyText,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, 1, "1", "0", "true", "false", "", "[]", '["a","b\\"c"]', "not json"),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.array(anyText, { maxLength: 3 }).map((a) => JSON.stringify(a)),
);

/** Random rows over every storage column of a resource. */
function rowOf(resource: ResourceName) {
  const r = RESOURCES[resource];
  const columns = [...new Set(r.fields.map((f) => r.columnOf(f.name)))];
  return fc.record(Object.fromEntries(columns.map((c) => [c, storedValue])), {
    requiredKeys: [],
  }) as fc.Arbitrary<Record<string, string | number | null | undefined>>;
}

describe("rowWriter", () => {
  const cases = Object.values(RESOURCES).flatMap((r) =>
    DIALECTS.map((dialect) => [r.name, dialect] as [ResourceName, Dialect])
  );

  it("writes exactly JSON.stringify(serializeRow(...)) for random rows of every resource in both dialects", () => {
    for (const [resource, dialect] of cases) {
      const write = rowWriter(resource, dialect);
      fc.assert(
        fc.property(rowOf(resource), (row) => {
          assert.equal(write(row), JSON.stringify(serializeRow(resource, row, dialect)));
        }),
        { numRuns: 60 },
      );
    }
  });

  it("puts the links last exactly as withLinks does", () => {
    for (const [resource, dialect] of cases) {
      const name = RESOURCES[resource].links;
      if (name === null) continue;
      const write = rowWriter(resource, dialect);
      fc.assert(
        fc.property(rowOf(resource), anyText, (row, href) => {
          const links = [link("self", href), link("details", href)];
          const expected = withLinks(resource, serializeRow(resource, row, dialect), links);
          assert.equal(
            write(row, `${JSON.stringify(name)}:${linksJson(links)}`),
            JSON.stringify(expected),
          );
        }),
        { numRuns: 20 },
      );
    }
  });

  it("escapes strings exactly as JSON.stringify does", () => {
    fc.assert(fc.property(anyText, (s) => assert.equal(jsonString(s), JSON.stringify(s))));
    assert.equal(jsonString("\ud800"), '"\\ud800"');
  });
});

describe("itemLinksJson", () => {
  it("writes exactly JSON.stringify(itemLinks(...)) for random rows of every collection operation", () => {
    const idText = fc.oneof(anyText, fc.constantFrom("", "C1", "a/b c"), fc.constant(null));
    for (const op of OPERATIONS.filter((o) => o.shape === "collection")) {
      const r = RESOURCES[op.resource];
      const columns = [...new Set(r.fields.map((f) => r.columnOf(f.name)))];
      const row = fc.record(Object.fromEntries(columns.map((c) => [c, idText])));
      fc.assert(
        fc.property(row, (row) => {
          const path = `/api/sam/x/${op.id}`;
          // A lone surrogate is no URI: both refuse it alike.
          const outcome = (f: () => unknown) => {
            try {
              return f();
            } catch (err) {
              return `throws ${(err as Error).name}`;
            }
          };
          assert.equal(
            outcome(() => itemLinksJson(op, row, path)),
            outcome(() => JSON.stringify(itemLinks(op, row, path))),
          );
        }),
        { numRuns: 30 },
      );
    }
  });

  it("rewrites an href's prefix as the real dialect spells the registry", () => {
    const op = operation("registry.applications");
    const rewrite = { from: "api/sam/", to: "api/elsewhere/" };
    const links = JSON.parse(itemLinksJson(op, { id: "A1" }, "/api/sam/y", rewrite));
    assert.ok(links.length > 0);
    for (const l of links) assert.ok(l.href.startsWith("api/elsewhere/"), l.href);
  });
});
