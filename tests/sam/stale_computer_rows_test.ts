import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../lib/query/context.ts";
import {
  flaggedComputers,
  perOrganization,
  staleComputerRows,
  type StaleContext,
} from "../../lib/sam/stale_computer_rows.ts";

const now = new Date("2024-02-10T00:00:00Z");
const day = (d: string) => new Date(`${d}T00:00:00Z`);
const computers = [
  {
    id: "C1",
    hostName: "pc1",
    organizationId: " ORG1 ",
    status: "Active",
    lastScanDate: day("2024-02-01"),
  },
  {
    id: "C2",
    hostName: "pc2",
    organizationId: "ORG1",
    status: "Active",
    lastScanDate: day("2023-12-01"),
  },
  {
    id: "C3",
    hostName: "pc3",
    organizationId: "ORG2",
    status: "Quarantined",
    lastScanDate: day("2024-02-09"),
  },
  { id: "C4", hostName: "pc4", organizationId: null, status: "Active", lastScanDate: null },
  { id: null, hostName: "ghost", organizationId: null, status: null, lastScanDate: null },
];

function stubContext(): StaleContext & { details: string[] } {
  const details: string[] = [];
  const client = {
    estate: {
      computers: () => computers,
      computer: (
        id: string,
      ) => (details.push(id), Promise.resolve({ quarantineDate: day("2024-01-15") })),
    },
    organizations: {
      tree: () => ({ toArray: () => Promise.resolve([{ id: "ORG1", name: "Sales" }]) }),
    },
  };
  return { client, query: createQueryContext(), now, details } as unknown as
    & StaleContext
    & { details: string[] };
}

describe("stale computer rows", () => {
  it("reads computers with an id, their scan age and organization by name", async () => {
    const rows = await staleComputerRows(stubContext(), 30);
    assert.deepEqual(rows.map((r) => [r.id, r.organization, r.organizationId, r.flagged]), [
      ["C1", "Sales", "ORG1", false],
      ["C2", "Sales", "ORG1", true],
      ["C3", "ORG2", "ORG2", true],
      ["C4", "(no organization)", null, true],
    ]);
  });

  it("counts per organization, by name, with the share flagged", async () => {
    const orgs = perOrganization(await staleComputerRows(stubContext(), 30));
    assert.deepEqual(orgs.map((o) => [o.organization, o.computers, o.stale, o.flagged, o.share]), [
      ["(no organization)", 1, 1, 1, 1],
      ["ORG2", 1, 0, 1, 1],
      ["Sales", 2, 1, 1, 0.5],
    ]);
    assert.deepEqual(orgs[2].oldestScan, day("2023-12-01"));
  });

  it("lists flagged computers with the quarantine date, a detail call per quarantined one", async () => {
    const ctx = stubContext();
    const flagged = await flaggedComputers(ctx, await staleComputerRows(ctx, 30));
    assert.deepEqual(flagged.map((c) => [c.id, c.quarantineDate]), [
      ["C4", null],
      ["C3", day("2024-01-15")],
      ["C2", null],
    ]);
    assert.deepEqual(ctx.details, ["C3"]);
  });
});
