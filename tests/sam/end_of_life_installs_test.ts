import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../lib/query/context.ts";
import {
  type EndOfLifeContext,
  endOfLifeInstalls,
  installRow,
  perApplication,
} from "../../lib/sam/end_of_life_installs.ts";

const day = (d: string) => new Date(`${d}T00:00:00Z`);
const registry = [
  { id: "APP1", name: "Flash", version: "9", isEndOfLife: true, endOfLifeDate: day("2020-12-31") },
  { id: "APP2", name: "Word", version: "16", isEndOfLife: false, endOfLifeDate: null },
];
const computers = [
  { id: "C1", hostName: "pc1", organizationId: "ORG1", status: "Active", lastScanDate: null },
  { id: "C2", hostName: null, organizationId: "ORG2", status: null, lastScanDate: null },
];
const installs = [
  { applicationId: "APP1", computerId: "C1", isInstalled: true },
  { applicationId: "APP1", computerId: "C2", isInstalled: true },
  { applicationId: "APP1", computerId: "C1", isInstalled: false },
  { applicationId: "APP2", computerId: "C1", isInstalled: true },
].map((i) => ({ ...i, lastUsed: null, firstDiscovered: null }));

function stubContext(): EndOfLifeContext & { filters: string[] } {
  const filters: string[] = [];
  const client = {
    registry: {
      applications: ({ filter }: { filter?: string }) => (filters.push(filter!), registry),
    },
    estate: {
      computers: () => computers,
      applications: ({ filter }: { filter?: string }) => (filters.push(filter!), installs),
    },
    organizations: {
      tree: () => ({ toArray: () => Promise.resolve([{ id: "ORG1", name: "Sales" }]) }),
    },
  };
  return { client, query: createQueryContext(), filters } as unknown as
    & EndOfLifeContext
    & { filters: string[] };
}

describe("end-of-life installations", () => {
  it("a row names the computer (else its id) and the organization (else its id)", () => {
    const install = {
      applicationId: "APP1",
      computerId: "C2",
      lastUsed: null,
      firstDiscovered: null,
    };
    const row = installRow(install, registry[0], computers[1], new Map());
    assert.equal(row.computer, "C2");
    assert.equal(row.hostName, "");
    assert.equal(row.organization, "ORG2");
    assert.equal(row.label, "Flash 9");
    assert.equal(
      installRow(install, undefined, undefined, new Map()).application,
      "(unknown application APP1)",
    );
  });

  it("reads installed copies of end-of-life applications, in one organization when asked", async () => {
    const ctx = stubContext();
    const all = await endOfLifeInstalls(ctx);
    assert.deepEqual(all.map((i) => [i.computer, i.organization]), [["pc1", "Sales"], [
      "C2",
      "ORG2",
    ]]);
    assert.deepEqual(ctx.filters[0], "isEndOfLife -eq true");
    assert.match(ctx.filters[1], /APP1/);
    assert.deepEqual((await endOfLifeInstalls(ctx, "ORG2")).map((i) => i.computerId), ["C2"]);
  });

  it("counts installations, computers and organizations per application", async () => {
    const apps = perApplication(await endOfLifeInstalls(stubContext()));
    assert.equal(apps.length, 1);
    assert.deepEqual(
      [apps[0].application, apps[0].installations, apps[0].computers, apps[0].organizations],
      ["Flash", 2, 2, 2],
    );
  });
});
