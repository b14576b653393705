import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  applicationRows,
  installationRows,
  NO_LICENSE,
  reclaimRows,
  reclaimValueRows,
  rowLookups,
  UNPRICED,
} from "../../lib/sam/unused_rows.ts";
import { idleUnitsTally, reclaimUnits } from "../../lib/sam/reclaimable.ts";
import type { IdleCounts, IdleInstall } from "../../lib/sam/idle_installs.ts";
import type { ElpPosition } from "../../lib/query/elp/elp.ts";
import { createQueryContext } from "../../lib/query/context.ts";

const counts = (id: string, installations: number, recent: number, candidates: number) =>
  ({ id, installations, recent, never: 0, candidates }) as IdleCounts;
const registry = new Map([
  ["A1", { id: "A1", name: "Visio", version: "16", manufacturer: "Microsoft" }],
  ["A2", { id: "A2", name: "Acrobat", version: null, manufacturer: "Adobe" }],
  ["A3", { id: "A3", name: "Zip", version: null, manufacturer: null }],
  ["ORA", { id: "ORA", name: "Oracle Database", version: null, manufacturer: "Oracle" }],
]) as never;

/** A position as the ELP gives it (only what the reclaim reads). */
const position = (
  applicationId: string,
  metricName: string,
  held: { entitlements: number; requirement: number },
  price?: { currency: string; cents: number; units: number },
) =>
  ({
    applicationId,
    metricId: metricName.toUpperCase(),
    metricName,
    purchased: held.entitlements,
    receivedTotal: 0,
    entitlements: held.entitlements,
    requirement: held.requirement,
    shortfall: Math.max(0, held.requirement - held.entitlements),
    price: price && {
      source: "paid",
      currency: price.currency,
      unitCents: price.cents / price.units,
      basisCents: price.cents,
      basisUnits: price.units,
    },
  }) as unknown as ElpPosition;
const idle = (applicationId: string, metric: string, installs: number, units: number) => ({
  applicationId,
  metricId: metric.toUpperCase(),
  installs,
  units,
});

describe("unused-software rows", () => {
  it("lists applications with unused installs, most unused first, then candidates, name", () => {
    const rows = applicationRows(
      [counts("A3", 4, 4, 0), counts("A1", 5, 3, 1), counts("A2", 4, 2, 2)],
      { registry },
    );
    assert.deepEqual(
      rows.map((r) => [r.application, r.unused, r.candidates]),
      [["Acrobat", 2, 2], ["Visio", 2, 1]],
    );
  });

  it("counts each candidate's requirement in its own metric, cores as metric tracking gives them", async () => {
    const tally = idleUnitsTally([
      { computerId: "C1", applicationId: "ORA", metricId: "CORES", requirement: 8 },
      { computerId: "C2", applicationId: "ORA", metricId: "CORES", requirement: 0 }, // VM on a host
      { computerId: "C1", applicationId: "A1", metricId: "INST", requirement: 1 },
      { computerId: "C3", applicationId: "ORA", metricId: "CORES", requirement: 16 }, // recent
    ]);
    const installs = [
      { computerId: "C1", applicationId: "ORA", candidate: true },
      { computerId: "C2", applicationId: "ORA", candidate: true },
      { computerId: "C1", applicationId: "A1", candidate: true },
      { computerId: "C3", applicationId: "ORA", candidate: false },
      { computerId: "C4", applicationId: "A2", candidate: true }, // no metric tracking
    ];
    assert.equal((await Array.fromAsync(tally.pass(installs))).length, 5);
    assert.deepEqual(tally.lines(), [
      { applicationId: "ORA", metricId: "CORES", installs: 2, units: 8 },
      { applicationId: "A1", metricId: "INST", installs: 1, units: 1 },
    ]);
  });

  it("covers a shortfall first: only the units beyond it are reclaimable", () => {
    assert.deepEqual(reclaimUnits(16, 2), { shortfallFirst: 2, reclaimable: 14 });
    assert.deepEqual(reclaimUnits(4, 6), { shortfallFirst: 4, reclaimable: 0 });
    assert.deepEqual(reclaimUnits(3, 0), { shortfallFirst: 0, reclaimable: 3 });
  });

  it("values reclaimable units at the position's printed unit price, blank with a reason where unknown", () => {
    const rows = reclaimRows(
      [
        idle("ORA", "Processor cores", 2, 16),
        idle("A1", "Installations", 3, 3),
        idle("A2", "Users", 2, 2),
        idle("A3", "Installations", 1, 1),
      ],
      [
        position("ORA", "Processor cores", { entitlements: 100, requirement: 110 }, {
          currency: "USD",
          cents: 1_000_000,
          units: 3,
        }),
        position("A1", "Installations", { entitlements: 10, requirement: 8 }, {
          currency: "EUR",
          cents: 10_000,
          units: 3,
        }),
        position("A2", "Users", { entitlements: 5, requirement: 4 }),
        position("A3", "Installations", { entitlements: 0, requirement: 1 }),
      ],
      registry,
    );
    assert.deepEqual(
      rows.map((r) => [
        r.application,
        r.metric,
        r.shortfallFirst,
        r.reclaimable,
        r.currency,
        r.unitPrice,
        r.reclaimValue,
        r.note,
      ]),
      [
        ["Visio 16", "Installations", 0, 3, "EUR", 33.33, 99.99, null],
        ["Oracle Database", "Processor cores", 10, 6, "USD", 3333.33, 19999.98, null],
        ["Acrobat", "Users", 0, 2, null, null, null, UNPRICED],
        ["Zip", "Installations", 1, null, null, null, null, NO_LICENSE],
      ],
    );
    assert.deepEqual(reclaimValueRows(rows), [
      { currency: "EUR", positions: 1, value: 99.99, note: null },
      { currency: "USD", positions: 1, value: 19999.98, note: null },
      { currency: null, positions: 1, value: null, note: UNPRICED },
    ]);
  });

  it("shows 0, not blank, for a short position whose idle units only cover its shortfall", () => {
    const rows = reclaimRows(
      [idle("ORA", "Processor cores", 1, 4)],
      [
        position("ORA", "Processor cores", { entitlements: 10, requirement: 20 }, {
          currency: "EUR",
          cents: 500_000,
          units: 1,
        }),
      ],
      registry,
    );
    assert.deepEqual(
      rows.map((r) => [r.shortfallFirst, r.reclaimable, r.reclaimValue, r.note]),
      [[4, 0, 0, null]],
    );
    assert.deepEqual(reclaimValueRows(rows), [
      { currency: "EUR", positions: 0, value: 0, note: null },
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
      candidate: true,
    }, { computerId: "C9", applicationId: "A9", idleDays: 40, bucketLabel: "30–89 days" }];
    const lookups = {
      registry,
      computers: new Map([["C1", { id: "C1", hostName: "pc-1", organizationId: "O1" }]]) as never,
      organizations: new Map([["O1", "Sales"]]),
    };
    const rows = await Array.fromAsync(installationRows(installs as IdleInstall[], lookups));
    assert.deepEqual(
      rows.map((r) => [r.organization, r.computer, r.application, r.bucket, r.candidate]),
      [
        ["Sales", "pc-1", "Visio", "Never used", true],
        ["(no organization)", "C9", "(unknown application A9)", "30–89 days", undefined],
      ],
    );
  });

  it("reads the lookups once per run through the query context", async () => {
    let reads = 0;
    const ctx = {
      client: {
        registry: { applications: () => (reads++, [{ id: "A1", name: "Visio" }]) },
        estate: { computers: () => [{ id: "C1", hostName: "pc-1" }] },
        organizations: { tree: () => ({ toArray: () => Promise.resolve([]) }) },
      } as never,
      query: createQueryContext(),
    };
    const lookups = await rowLookups(ctx);
    await rowLookups(ctx);
    assert.equal(lookups.registry.get("A1")?.name, "Visio");
    assert.equal(lookups.computers.get("C1")?.hostName, "pc-1");
    assert.equal(reads, 1);
  });
});
