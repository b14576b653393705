import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  costLinesInScope,
  SCOPE_PARAMS,
  subtotalsBy,
  topApplications,
  topSectionId,
} from "../../lib/sam/license_cost_query.ts";
import { createQueryContext } from "../../lib/query/context.ts";

const license = (id: string, vendor: string, purchaseDate: string, totalLicenseCost: number) => ({
  id,
  vendor,
  applicationId: "A1",
  organizationId: id === "L3" ? "ORG2" : "ORG1",
  purchaseDate: new Date(`${purchaseDate}T00:00:00Z`),
  purchaseCurrency: "EUR",
  quantity: 2,
  purchaseValue: totalLicenseCost,
  isSubscription: false,
  totalLicenseCost,
});
const licenses = [
  license("L2", "Dell", "2023-02-01", 30),
  license("L1", "Dell", "2023-01-01", 10),
  license("L3", "Atea", "2024-01-01", 20),
];
const ctx = () => ({
  client: {
    licenses: {
      list: () => licenses,
      get: () => Promise.reject(new Error("not asked")),
      costsSummary: () => Promise.reject(new Error("not asked")),
    },
    registry: { applications: () => [{ id: "A1", name: "Visio", manufacturer: "Microsoft" }] },
    organizations: {
      tree: () => ({ toArray: () => Promise.resolve([{ id: "ORG1" }, { id: "ORG2" }]) }),
    },
  } as never,
  query: createQueryContext(),
  signal: AbortSignal.any([]),
});

describe("license cost query", () => {
  it("lists the licenses in scope by vendor, application, purchase date", async () => {
    const all = await costLinesInScope(ctx(), {});
    assert.deepEqual(all.map((l) => l.licenseId), ["L3", "L1", "L2"]);
    const scoped = await costLinesInScope(ctx(), {
      organization: "ORG1",
      purchasedTo: new Date("2023-01-01T00:00:00Z"),
    });
    assert.deepEqual(scoped.map((l) => l.licenseId), ["L1"]);
  });
  it("subtotals by fields with the publisher, and ranks one currency's applications", async () => {
    const lines = await costLinesInScope(ctx(), {});
    const vendors = subtotalsBy(lines, ["vendor", "currency"]);
    assert.deepEqual(
      vendors.map((v) => [v.vendor, v.currency, v.licenses, v.costToDate, v.publisher]),
      [["Atea", "EUR", 1, 20, "Microsoft"], ["Dell", "EUR", 2, 40, "Microsoft"]],
    );
    const apps = [
      { application: "B", currency: "EUR", costToDate: 5 },
      { application: "A", currency: "EUR", costToDate: 5 },
      { application: "C", currency: "EUR", costToDate: null },
      { application: "D", currency: "USD", costToDate: 99 },
    ];
    assert.deepEqual(topApplications(apps, "EUR", 10).map((r) => [r.rank, r.application]), [
      [1, "A"],
      [2, "B"],
    ]);
    assert.match(topSectionId("US$"), /^top-applications-us_\.[0-9a-f]{10}$/);
    assert.deepEqual(Object.keys(SCOPE_PARAMS), ["organization", "purchasedFrom", "purchasedTo"]);
  });
});
