import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  applicationRows,
  installationRows,
  reclaimValueRows,
  rowLookups,
} from "../../../reports/support/unused_rows.ts";
import type { IdleCounts, IdleInstall } from "../../../reports/support/idle_installs.ts";
import { createQueryContext } from "../../../lib/query/context.ts";

const counts = (id: string, installations: number, recent: number, reclaimable: number) =>
  ({ id, installations, recent, never: 0, reclaimable }) as IdleCounts;
const registry = new Map([
  ["A1", { id: "A1", name: "Visio", version: "16", manufacturer: "Microsoft" }],
  ["A2", { id: "A2", name: "Acrobat", version: null, manufacturer: "Adobe" }],
  ["A3", { id: "A3", name: "Zip", version: null, manufacturer: null }],
]) as never;
const line = (currency: string, units: number, cents: number) =>
  new Map([[currency, { currency, licenses: 1, units, cents }]]);
const prices = new Map([["A1", line("EUR", 3, 1000)], ["A2", line("USD", 4, 1000)]]);
const licensed = new Set(["A1", "A2", "A3"]);

describe("unused-software rows", () => {
  it("lists applications with unused installs, valued first, priced per unit", () => {
    // Was most unused first (Acrobat, Visio); now reclaimable value first, then unused count.
    const rows = applicationRows(
      [counts("A3", 4, 4, 0), counts("A1", 5, 3, 2), counts("A2", 4, 2, 0)],
      { registry, prices, licensed },
    );
    assert.deepEqual(
      rows.map((r) => [r.application, r.unused, r.currency, r.unitPrice, r.reclaimValue]),
      [["Visio", 2, "EUR", 3.33, 6.67], ["Acrobat", 2, "USD", 2.5, null]],
    );
  });
  it("sorts by value per currency (largest first, unvalued last), then unused, then name", () => {
    const many = new Map([
      ["A1", line("EUR", 1, 1000)],
      ["A2", line("USD", 1, 100)],
      ["A3", line("EUR", 1, 5000)],
    ]);
    const rows = applicationRows(
      [counts("A1", 9, 0, 1), counts("A2", 2, 0, 1), counts("A3", 3, 0, 1), counts("A4", 5, 0, 0)],
      { registry, prices: many, licensed: new Set(["A1", "A2", "A3", "A4"]) },
    );
    assert.deepEqual(
      rows.map((r) => [r.id, r.currency, r.reclaimValue]),
      [["A3", "EUR", 50], ["A1", "EUR", 10], ["A2", "USD", 1], ["A4", null, null]],
    );
  });
  it("leaves reclaimable and its value blank for an application without a license", () => {
    const rows = applicationRows(
      [counts("A1", 5, 0, 2), counts("A2", 4, 0, 1)],
      { registry, prices, licensed: new Set(["A2"]) },
    );
    assert.deepEqual(
      rows.map((r) => [r.application, r.reclaimable, r.reclaimValue]),
      [["Acrobat", 1, 2.5], ["Visio", null, null]],
    );
    assert.deepEqual(reclaimValueRows(rows), [
      { currency: "USD", applications: 1, licenses: 1, value: 2.5 },
    ]);
  });
  it("sums reclaimable licenses and value per currency, never across", () => {
    const rows = applicationRows(
      [counts("A1", 5, 0, 2), counts("A2", 4, 0, 1), counts("A3", 4, 0, 3)],
      { registry, prices, licensed },
    );
    assert.deepEqual(reclaimValueRows(rows), [
      { currency: "EUR", applications: 1, licenses: 2, value: 6.67 },
      { currency: "USD", applications: 1, licenses: 1, value: 2.5 },
      { currency: null, applications: 1, licenses: 3, value: null },
    ]);
  });
  it("names idle installs by organisation, computer and application", async () => {
    const installs = [{
      computerId: "C1",
      applicationId: "A1",
      lastUsed: null,
      firstDiscovered: null,
      idleDays: null,
      bucketLabel: "Never used",
      licensed: true,
      reclaimable: true,
    }, { computerId: "C9", applicationId: "A9", idleDays: 40, bucketLabel: "30–89 days" }];
    const lookups = {
      registry,
      computers: new Map([["C1", { id: "C1", hostName: "pc-1", organizationId: "O1" }]]) as never,
      organizations: new Map([["O1", "Sales"]]),
    };
    const rows = await Array.fromAsync(installationRows(installs as IdleInstall[], lookups));
    assert.deepEqual(
      rows.map((r) => [r.organization, r.computer, r.application, r.bucket, r.reclaimable]),
      [
        ["Sales", "pc-1", "Visio", "Never used", true],
        ["(no organization)", "C9", "(unknown application A9)", "30–89 days", undefined],
      ],
    );
  });
  it("reads the lookups once per run through the query context", async () => {
    const list = () => [{
      id: "L1",
      applicationId: "A1",
      quantity: 2,
      purchaseValue: 10,
      purchaseCurrency: "EUR",
    }];
    const ctx = {
      client: {
        registry: { applications: () => [{ id: "A1", name: "Visio" }] },
        estate: { computers: () => [{ id: "C1", hostName: "pc-1" }] },
        organizations: { tree: () => ({ toArray: () => Promise.resolve([]) }) },
        licenses: { list },
      } as never,
      query: createQueryContext(),
    };
    const lookups = await rowLookups(ctx);
    assert.equal(lookups.registry.get("A1")?.name, "Visio");
    assert.equal(lookups.computers.get("C1")?.hostName, "pc-1");
    assert.equal(lookups.prices.get("A1")?.get("EUR")?.units, 2);
    assert.deepEqual([...lookups.licensed], ["A1"]);
  });
});
