import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import { normalise } from "../../lib/api/normalise.ts";
import { parseFilter, printFilter } from "../../lib/api/filter.ts";
import {
  FilterFieldError,
  type FilterFieldWarning,
  FilterOperatorError,
  FilterValueError,
  validateFilter,
} from "../../lib/api/filter_validate.ts";
import { createClient } from "../../lib/api/client.ts";
import { getToken, withServer } from "../helpers/server.ts";
import { rawAll } from "../helpers/run_report.ts";

describe("catalogue of real fields", () => {
  it("marks real-only and spec-only fields and names the real spelling of renamed ones", () => {
    const origin = (r: keyof typeof RESOURCES, f: string) => RESOURCES[r].byName.get(f)?.origin;
    assert.equal(origin("License", "vendor"), "real");
    assert.equal(origin("License", "totalLicenseCost"), "real");
    assert.equal(origin("Computer", "coreCount"), "real");
    assert.equal(origin("RegistryApplication", "familyId"), "real");
    for (const f of ["version", "edition", "family"]) {
      assert.equal(origin("RegistryApplication", f), "spec", f);
    }
    assert.equal(origin("License", "id"), undefined);
    assert.equal(RESOURCES.DataCenterCluster.byName.get("isVMwareDRS")?.name, "isVendorDRS");
    assert.equal(RESOURCES.MetricTracking.byName.get("sqlServer")?.name, "databaseServer");
    assert.equal(RESOURCES.MetricTracking.columnOf("windowsServer"), "serverOs");
  });

  it("types every real-not-in-samkit field of public-api.md for licenses, computers, registry", () => {
    const typed = (r: keyof typeof RESOURCES, f: string) => RESOURCES[r].byName.get(f)?.type;
    assert.equal(typed("License", "isSubscription"), "boolean");
    assert.equal(typed("License", "subscriptionValidTo"), "date");
    assert.equal(typed("License", "status"), "string");
    assert.equal(typed("Computer", "processorCount"), "number");
    assert.equal(typed("ComputerDetail", "operatingSystemId"), "string");
    assert.equal(typed("RegistryApplication", "endOfSupportDate"), "date");
    assert.equal(typed("RegistryApplication", "isNoLicenseRequired"), "boolean");
    assert.ok(RESOURCES.License.untyped?.has("upgrades"));
    assert.ok(RESOURCES.RegistryApplication.untyped?.has("metrics"));
  });
});

describe("normalising real responses", () => {
  it("reads a renamed field under either name and writes both", () => {
    const real = normalise("DataCenterCluster", { id: "D1", isVMwareDRS: true });
    const spec = normalise("DataCenterCluster", { id: "D1", isVendorDRS: "true" });
    assert.equal(real.isVendorDRS, true);
    assert.equal(real.isVMwareDRS, true);
    assert.deepEqual(real, spec);
    const metric = normalise("MetricTracking", {
      computerId: "C1",
      windowsServer: "2",
      sqlServer: 1,
    });
    assert.equal(metric.serverOs, 2);
    assert.equal(metric.windowsServer, 2);
    assert.equal(metric.databaseServer, 1);
    assert.equal(metric.serverOsFlag, null);
    assert.equal(metric.windowsServerFlag, null);
    const app = normalise("ComputerApplicationDetail", { computerId: "C1", isMSDN: "false" });
    assert.equal(app.isVendorDN, false);
    assert.equal(app.isMSDN, false);
  });

  it("gives equal results for the string and the typed wire form of every new license field", () => {
    const typed = normalise("License", {
      id: "L1",
      quantity: 12,
      purchaseValue: 99.5,
      purchaseDate: "2021-03-07T13:05:09Z",
      isSubscription: true,
      isCrossEdition: false,
      totalLicenseCost: 1234.56,
      upgradedLicenseCount: 3,
      subscriptionValidFrom: "2024-01-01T00:00:00Z",
      upgrades: [{ licenseId: "L0", quantity: 1 }],
    });
    const strings = normalise("License", {
      id: "L1",
      quantity: "12",
      purchaseValue: "99.5",
      purchaseDate: "3/7/2021 1:05:09 PM",
      isSubscription: "True",
      isCrossEdition: "false",
      totalLicenseCost: "1234.56",
      upgradedLicenseCount: "3",
      subscriptionValidFrom: "1/1/2024 12:00:00 AM",
      upgrades: [{ licenseId: "L0", quantity: 1 }],
    });
    assert.deepEqual(strings, typed);
    assert.equal(typed.quantity, 12);
    assert.equal(typed.subscriptionValidFrom?.toISOString(), "2024-01-01T00:00:00.000Z");
    assert.deepEqual(typed.upgrades, [{ licenseId: "L0", quantity: 1 }]);
  });
});

describe("filters on real fields", () => {
  it("accepts real fields and the real spelling of renamed fields", () => {
    validateFilter(parseFilter("vendor -eq Microsoft"), RESOURCES.License);
    validateFilter(parseFilter("isSubscription -eq true"), RESOURCES.License);
    validateFilter(parseFilter("coreCount -ge 16"), RESOURCES.Computer);
    validateFilter(parseFilter("familyId -eq FAM001"), RESOURCES.RegistryApplication);
    validateFilter(parseFilter("isVMwareDRS -eq true"), RESOURCES.DataCenterCluster);
  });

  it("warns about an unknown field and leaves it in the filter, in warn mode only", () => {
    const tree = parseFilter("(seatCount -gt 5) -and (vendor -eq Microsoft)");
    const seen: FilterFieldWarning[] = [];
    const warnings = validateFilter(tree, RESOURCES.License, {
      unknownFields: "warn",
      onWarning: (w) => seen.push(w),
    });
    assert.deepEqual(seen, warnings);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].field, "seatCount");
    assert.equal(warnings[0].column, 2);
    assert.equal(
      warnings[0].message,
      `License has no field "seatCount" in samkit's catalogue; sending it for the server to judge`,
    );
    assert.equal(printFilter(tree), "(seatCount -gt 5) -and (vendor -eq Microsoft)");
    assert.throws(() => validateFilter(tree, RESOURCES.License), FilterFieldError);
    const untyped = validateFilter(parseFilter("upgrades -exists true"), RESOURCES.License, {
      unknownFields: "warn",
    });
    assert.match(untyped[0].message, /field "upgrades" has no type in samkit's catalogue/);
  });

  it("keeps operator and value errors on known fields, and secrets, as errors in warn mode", () => {
    const warn = { unknownFields: "warn" } as const;
    assert.throws(
      () => validateFilter(parseFilter("isSubscription -gt true"), RESOURCES.License, warn),
      FilterOperatorError,
    );
    assert.throws(
      () => validateFilter(parseFilter("coreCount -eq many"), RESOURCES.Computer, warn),
      FilterValueError,
    );
    assert.throws(
      () => validateFilter(parseFilter("secretKey -eq x"), RESOURCES.CloudConnector, warn),
      FilterFieldError,
    );
  });

  it("sends vendor, isSubscription, coreCount and familyId filters that the reference server applies", async () => {
    await withServer({ computers: 120 }, async (srv) => {
      const token = await getToken(srv);
      const client = createClient({
        baseUrl: srv.url,
        clientId: "demo",
        clientSecret: "demo-secret",
      });
      const ids = (items: { id?: unknown }[]) => items.map((i) => String(i.id)).sort();

      const licenses = await rawAll(srv, "/api/sam/v1/licenses", token);
      const vendor = licenses[0].vendor as string;
      assert.ok(vendor);
      assert.deepEqual(
        ids(await client.licenses.list({ filter: `vendor -eq "${vendor}"` }).toArray()),
        ids(licenses.filter((l) => l.vendor === vendor)),
      );
      const subscriptions = licenses.filter((l) => l.isSubscription === true);
      assert.ok(subscriptions.length > 0 && subscriptions.length < licenses.length);
      assert.deepEqual(
        ids(await client.licenses.list({ filter: "isSubscription -eq true" }).toArray()),
        ids(subscriptions),
      );

      const computers = await rawAll(srv, "/api/sam/estate/v1/computers", token);
      const big = computers.filter((c) => typeof c.coreCount === "number" && c.coreCount >= 16);
      assert.ok(big.length > 0 && big.length < computers.length);
      assert.deepEqual(
        ids(await client.estate.computers({ filter: "coreCount -ge 16" }).toArray()),
        ids(big),
      );

      const apps = await rawAll(srv, "/api/sam/softwareregistry/v1/applications", token);
      const family = apps.find((a) => a.name.startsWith("Microsoft SQL Server")).familyId;
      const inFamily = apps.filter((a) => a.familyId === family);
      assert.ok(inFamily.length > 1);
      assert.deepEqual(
        ids(await client.registry.applications({ filter: `familyId -eq ${family}` }).toArray()),
        ids(inFamily),
      );
    });
  });
});
