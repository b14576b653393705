import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  createNormaliser,
  normalise,
  parseApiDate,
  parseLicenseDate,
  parseRfc3339,
  readLinks,
} from "../../lib/api/normalise.ts";
import { NormalisationError } from "../../lib/api/errors.ts";
import { RESOURCES } from "../../lib/api/catalogue.ts";

describe("parseRfc3339", () => {
  it("reads lowercase t and z", () => {
    assert.equal(parseRfc3339("2024-02-29t10:11:12z")?.toISOString(), "2024-02-29T10:11:12.000Z");
  });

  it("applies offsets and keeps milliseconds", () => {
    assert.equal(
      parseRfc3339("2024-01-01T01:30:00.123+01:30")?.toISOString(),
      "2024-01-01T00:00:00.123Z",
    );
    assert.equal(
      parseRfc3339("2023-12-31T23:00:00-01:00")?.toISOString(),
      "2024-01-01T00:00:00.000Z",
    );
  });

  it("reads a date alone as midnight UTC", () => {
    assert.equal(parseRfc3339("2024-03-01")?.toISOString(), "2024-03-01T00:00:00.000Z");
  });

  it("rejects impossible dates and other text", () => {
    assert.equal(parseRfc3339("2023-02-29T00:00:00Z"), undefined);
    assert.equal(parseRfc3339("2023-13-01T00:00:00Z"), undefined);
    assert.equal(parseRfc3339("2023-01-01T24:00:00Z"), undefined);
    assert.equal(parseRfc3339("yesterday"), undefined);
  });

  it("reads the toISOString form (its fast path) as the general pattern reads it", () => {
    const texts = [
      "2023-02-29T00:00:00.000Z",
      "2024-02-29T00:00:00.000Z",
      "2024-04-31T00:00:00.000Z",
      "2024-13-01T00:00:00.000Z",
      "2024-01-01T24:00:00.000Z",
      "2024-01-01T23:59:60.000Z",
      "0099-03-01T00:00:00.000Z",
      "2024-01-0xT00:00:00.000Z",
    ];
    for (const text of texts) {
      const pattern = text.slice(0, 23) + "z"; // a lowercase z: only the pattern reads it
      assert.equal(parseRfc3339(text)?.getTime(), parseRfc3339(pattern)?.getTime(), text);
    }
    fc.assert(
      fc.property(
        fc.date({ min: new Date("0100-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString();
          assert.equal(parseRfc3339(iso)?.getTime(), d.getTime());
          assert.equal(parseRfc3339(iso.slice(0, 23) + "z")?.getTime(), d.getTime());
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("round-trips any ISO instant", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1970-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
        fc.boolean(),
        (d, lower) => {
          const iso = d.toISOString();
          const text = lower ? iso.toLowerCase() : iso;
          assert.equal(parseRfc3339(text)?.getTime(), d.getTime());
        },
      ),
    );
  });
});

describe("parseLicenseDate", () => {
  it("reads the M/d/yyyy h:mm:ss AM form as UTC", () => {
    assert.equal(
      parseLicenseDate("3/7/2021 1:05:09 PM")?.toISOString(),
      "2021-03-07T13:05:09.000Z",
    );
    assert.equal(
      parseLicenseDate("12/31/2020 12:00:00 AM")?.toISOString(),
      "2020-12-31T00:00:00.000Z",
    );
    assert.equal(
      parseLicenseDate("1/1/2020 12:30:00 PM")?.toISOString(),
      "2020-01-01T12:30:00.000Z",
    );
  });

  it("rejects an hour outside 1-12 with a suffix and impossible days", () => {
    assert.equal(parseLicenseDate("1/1/2020 13:00:00 PM"), undefined);
    assert.equal(parseLicenseDate("2/30/2020 1:00:00 AM"), undefined);
  });

  it("round-trips the server's wire form for any instant at whole seconds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800 }), (seconds) => {
        const d = new Date(seconds * 1000);
        const h = d.getUTCHours();
        const pad = (n: number) => String(n).padStart(2, "0");
        const text = `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${
          h % 12 === 0 ? 12 : h % 12
        }:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${h < 12 ? "AM" : "PM"}`;
        assert.equal(parseApiDate(text)?.getTime(), d.getTime());
      }),
    );
  });
});

describe("normalise", () => {
  it("turns license quirks into numbers, booleans and dates", () => {
    const detail = normalise("LicenseDetail", {
      id: "L1",
      quantity: "12",
      purchaseValue: " 1234.50 ",
      purchaseDate: "3/7/2021 1:05:09 PM",
      isSubscription: "True",
      isCrossPlatform: "false",
      isUpgrade: "1",
      isDowngrade: "",
      incompleteReasons: 2,
      licenseKeys: "AAAA-BBBB",
      _links: [{ href: "api/sam/v1/licenses/L1", method: "GET", rel: "self" }],
    });
    assert.equal(detail.quantity, 12);
    assert.equal(detail.purchaseValue, 1234.5);
    assert.ok(detail.purchaseDate instanceof Date);
    assert.equal(detail.purchaseDate.toISOString(), "2021-03-07T13:05:09.000Z");
    assert.equal(detail.isSubscription, true);
    assert.equal(detail.isCrossPlatform, false);
    assert.equal(detail.isUpgrade, true);
    assert.equal(detail.isDowngrade, null);
    assert.equal(detail.licenseKeys, "AAAA-BBBB", "sensitive values stay on the object");
    assert.deepEqual(detail.links, [{
      href: "api/sam/v1/licenses/L1",
      method: "GET",
      rel: "self",
    }]);
    assert.equal("_links" in detail, false);
  });

  it("reads `links` as well as `_links`", () => {
    const dcc = normalise("DataCenterCluster", {
      id: "D1",
      isVendorDRS: true,
      links: [{ href: "/api/sam/estate/v1/dcc", method: "GET", rel: "self" }],
    });
    assert.equal(dcc.links?.[0]?.href, "/api/sam/estate/v1/dcc");
    assert.equal("links" in dcc && Array.isArray(dcc.links), true);
  });

  it("normalises a connector's nested status and keeps unknown fields", () => {
    const c = normalise("CloudConnector", {
      id: "K1",
      name: "cur",
      type: "Provider A",
      createdAt: "2024-05-01t00:00:00z",
      status: { contextId: "x", updatedAt: "2024-05-02T00:00:00Z", type: "inProgress", extra: 1 },
      surprise: { kept: true },
    });
    assert.equal(c.createdAt?.toISOString(), "2024-05-01T00:00:00.000Z");
    assert.ok(c.status.updatedAt instanceof Date);
    assert.equal(c.status.type, "inProgress");
    assert.equal(c.status.errorCode, null);
    assert.equal((c.status as Record<string, unknown>).extra, 1);
    assert.deepEqual((c as Record<string, unknown>).surprise, { kept: true });
  });

  it("gives absent known fields null", () => {
    const c = normalise("Computer", { id: "C1" });
    assert.equal(c.hostName, null);
    assert.equal(c.lastScanDate, null);
    assert.equal(c.isVDI, null);
  });

  it("reads numbers sent as strings everywhere, and ids sent as numbers as strings", () => {
    const h = normalise("Hardware", { computerId: 42, coreCount: "8", physicalMemory: "1.6e4" });
    assert.equal(h.computerId, "42");
    assert.equal(h.coreCount, 8);
    assert.equal(h.physicalMemory, 16000);
  });

  it("throws NormalisationError naming resource, field and value for a bad number", () => {
    assert.throws(
      () => normalise("License", { id: "L1", quantity: "12x" }),
      (e: unknown) => {
        assert.ok(e instanceof NormalisationError);
        assert.equal(e.resource, "License");
        assert.equal(e.field, "quantity");
        assert.equal(e.raw, "12x");
        assert.match(e.message, /License\.quantity.*"12x".*number/);
        return true;
      },
    );
  });

  it("throws for a bad date and a bad boolean", () => {
    assert.throws(() => normalise("Computer", { lastScanDate: "2024-02-30T00:00:00Z" }), {
      name: "NormalisationError",
      message: /Computer\.lastScanDate/,
    });
    assert.throws(() => normalise("Computer", { isVirtual: "maybe" }), {
      name: "NormalisationError",
      message: /Computer\.isVirtual.*"maybe".*boolean/,
    });
  });

  it("never shows a sensitive field's value in the error", () => {
    assert.throws(
      () => normalise("PolicyFieldDetail", { listItems: "x" }),
      { name: "NormalisationError" },
    );
    // A sensitive field of a non-string type does not exist in the catalogue; fake one by
    // breaking a string field that is sensitive with an object.
    assert.throws(
      () => normalise("ComputerDetail", { securityCode: { pin: "9876" } }),
      (e: unknown) => {
        assert.ok(e instanceof NormalisationError);
        assert.equal(e.field, "securityCode");
        assert.ok(!e.message.includes("9876"));
        assert.ok(e.message.includes("<redacted>"));
        assert.equal(e.raw, "<redacted>");
        return true;
      },
    );
  });

  it("refuses a non-object item", () => {
    assert.throws(() => normalise("Policy", ["P1"]), { name: "NormalisationError" });
  });

  it("reads HAL-style link objects", () => {
    assert.deepEqual(readLinks({ self: { href: "api/x" } }), [
      { href: "api/x", method: "GET", rel: "self" },
    ]);
  });

  it("builds every item of a resource with the same fields in the same order, whatever was sent", () => {
    for (const name of Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]) {
      const toItem = createNormaliser(name);
      const fields = RESOURCES[name].fields.filter((f) => !f.hidden);
      const full: Record<string, unknown> = {};
      for (const f of fields.toReversed()) if (!f.name.includes(".")) full[f.name] = null;
      const sparse = toItem({});
      const known = Object.keys(sparse);
      assert.deepEqual(Object.keys(toItem(full)), known, name);
      // Top-level fields (each with its real-service name), then nested objects.
      const top = fields.filter((f) => !f.name.includes("."));
      const expected = [
        ...top.flatMap((f) => f.realName ? [f.name, f.realName] : [f.name]),
        ...new Set(fields.filter((f) => f.name.includes(".")).map((f) => f.name.split(".")[0]!)),
      ];
      assert.deepEqual(known, expected, name);
      const withExtras = toItem({ zz: 1, aa: 2, _links: [{ href: "h", rel: "self" }] });
      assert.deepEqual(Object.keys(withExtras), [...known, "zz", "aa", "links"], name);
    }
  });

  it("names the first bad field in catalogue order when two are bad", () => {
    assert.throws(
      () => normalise("Hardware", { coreCount: "many", processorCount: "few" }),
      (e) => e instanceof NormalisationError && e.message.includes("processorCount"),
    );
  });

  it("normalises every resource of the catalogue from its wire strings", () => {
    for (const name of Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]) {
      const raw: Record<string, unknown> = {};
      for (const f of RESOURCES[name].fields) {
        if (f.hidden || f.name.includes(".")) continue;
        raw[f.name] = f.type === "number"
          ? "7"
          : f.type === "boolean"
          ? "true"
          : f.type === "date"
          ? "2024-01-02T03:04:05Z"
          : f.type === "strings"
          ? ["a"]
          : "s";
      }
      const out = createNormaliser(name)(raw) as Record<string, unknown>;
      for (const f of RESOURCES[name].fields) {
        if (f.hidden || f.name.includes(".")) continue;
        const v = out[f.name];
        const ok = f.type === "number"
          ? v === 7
          : f.type === "boolean"
          ? v === true
          : f.type === "date"
          ? v instanceof Date
          : f.type === "strings"
          ? Array.isArray(v)
          : v === "s";
        assert.ok(ok, `${name}.${f.name}`);
      }
    }
  });
});

describe("flag enums", () => {
  const FLAG_FIELDS = Object.values(RESOURCES).flatMap((r) =>
    r.fields.filter((f) => f.flags).map((f) => ({ resource: r.name, field: f }))
  );

  it("declares the five flag fields of the vendor's documents on every resource carrying them", () => {
    const names = new Set(FLAG_FIELDS.map((f) => f.field.name));
    assert.deepEqual([...names].sort(), [
      "fullUseRights",
      "incompleteReasons",
      "invalidAssignmentReasons",
      "primaryUseRights",
      "useRights",
    ]);
    for (const { resource, field } of FLAG_FIELDS) {
      assert.equal(field.type, "strings", `${resource}.${field.name}`);
    }
  });

  it("reads a bitmask, an array of names and comma-separated names alike, on every flag field", () => {
    for (const { resource, field } of FLAG_FIELDS) {
      const forms = field.flags === "IncompleteLicenseReason"
        ? [5, "5", ["MissingMetric", "MissingApplication"], "MissingApplication, MissingMetric"]
        : field.flags === "UseRightType"
        ? [8194, ["NamedComputer", "UpgradeRights"], "UpgradeRights,NamedComputer"]
        : [2056, ["OverAssignment", "InactiveComputer"], "InactiveComputer | OverAssignment"];
      const want = field.flags === "IncompleteLicenseReason"
        ? ["MissingApplication", "MissingMetric"]
        : field.flags === "UseRightType"
        ? ["UpgradeRights", "NamedComputer"]
        : ["InactiveComputer", "OverAssignment"];
      for (const raw of forms) {
        const out = normalise(resource, { [field.name]: raw }) as Record<string, unknown>;
        assert.deepEqual(
          out[field.name],
          want,
          `${resource}.${field.name} from ${JSON.stringify(raw)}`,
        );
      }
    }
  });

  it("reads None, 0 and an empty list as no flags, and All as every bit", () => {
    for (const raw of [0, "None", [], ["None"], ""]) {
      const l = normalise("License", { incompleteReasons: raw });
      assert.deepEqual(l.incompleteReasons, [], JSON.stringify(raw));
    }
    assert.equal(normalise("License", { incompleteReasons: "All" }).incompleteReasons?.length, 8);
    assert.deepEqual(
      normalise("License", { incompleteReasons: 255 }).incompleteReasons,
      normalise("License", { incompleteReasons: ["All"] }).incompleteReasons,
    );
  });

  it("keeps an undeclared bit as its value and an unknown name as sent, never failing the read", () => {
    assert.deepEqual(normalise("ComputerTracking", { primaryUseRights: 65 }).primaryUseRights, [
      "Standard",
      "64",
    ]);
    assert.deepEqual(
      normalise("UserAssignment", { invalidAssignmentReasons: ["Unassigned", "NewReason"] })
        .invalidAssignmentReasons,
      ["Unassigned", "NewReason"],
    );
  });

  it("fails a value of no flag form, naming the resource, field and enum", () => {
    for (const raw of [true, 1.5, -1, { a: 1 }, [{}]]) {
      assert.throws(
        () => normalise("License", { id: "L1", incompleteReasons: raw }),
        (e: unknown) =>
          e instanceof NormalisationError && /License\.incompleteReasons/.test(e.message) &&
          /IncompleteLicenseReason/.test(e.message),
        JSON.stringify(raw),
      );
    }
  });
});
