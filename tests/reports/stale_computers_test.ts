import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { staleComputers } from "../../reports/stale_computers.ts";
import {
  compareRows,
  ESTATE,
  type Expected,
  rawAll,
  type RawApi,
  rawGet,
  runAt,
  wholeDays,
} from "./support/raw_api.ts";
import { assertNoData, assertRows, byLabel } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationLabel, rawOrganizationNames } from "./support/raw_names.ts";

const TOKEN = "stale-computers-test-token";

const ORG_FIELDS = {
  organizationId: "Organization id",
  computers: "Computers",
  stale: "Not scanned 30+ days",
  neverScanned: "Never scanned",
  quarantined: "Quarantined",
  flagged: "Stale or quarantined",
};
const ORG_LABELS = [
  "Organization",
  ...Object.values(ORG_FIELDS),
  "Share flagged",
  "Oldest scan",
];
const DETAIL_FIELDS = {
  organization: "Organization",
  status: "Status",
  daysSinceScan: "Days since scan",
  stale: "Stale",
  quarantined: "Quarantined",
  quarantineDate: "Quarantine date",
};
const DETAIL_LABELS = [
  "Organization",
  "Computer",
  "Status",
  "Last scan",
  "Days since scan",
  "Stale",
  "Quarantined",
  "Quarantine date",
  "Reason",
];

const orgKey = (r: Record<string, unknown>) => String(r["Organization"]);
const hostKey = (r: Record<string, unknown>) => String(r["Computer"]);

/** Expected counts of one organisation (its row keyed by its name from the raw tree). */
type OrgCounts = {
  organizationId: string | null;
  computers: number;
  stale: number;
  neverScanned: number;
  quarantined: number;
  flagged: number;
};

/** Expected rows from raw API JSON (computer detail fetched here for quarantine dates). */
async function expectedFigures(api: RawApi, days: number, filter?: string) {
  const computers = await rawAll(api, `${ESTATE}/computers`, filter);
  const names = await rawOrganizationNames(api);
  const orgs = new Map<string, OrgCounts>();
  const detail = new Map<string, Record<string, Expected>>();
  for (const c of computers) {
    const org = rawOrganizationLabel(names, c.organizationId);
    const counts: OrgCounts = orgs.get(org) ?? {
      organizationId: c.organizationId ?? null,
      computers: 0,
      stale: 0,
      neverScanned: 0,
      quarantined: 0,
      flagged: 0,
    };
    orgs.set(org, counts);
    counts.computers++;
    const since = c.lastScanDate ? wholeDays(c.lastScanDate, TEST_NOW) : null;
    const stale = since === null || since >= days;
    const quarantined = c.status === "Quarantined";
    if (since === null) counts.neverScanned++;
    if (stale) counts.stale++;
    if (quarantined) counts.quarantined++;
    if (!stale && !quarantined) continue;
    counts.flagged++;
    const full = quarantined ? await rawGet(api, `${ESTATE}/computers/${c.id}`) : null;
    detail.set(c.hostName, {
      organization: org,
      status: c.status,
      daysSinceScan: since,
      stale,
      quarantined,
      quarantineDate: full?.quarantineDate ? full.quarantineDate.slice(0, 10) : null,
    });
  }
  return { orgs, detail, quarantined: [...detail.values()].filter((d) => d.quarantined).length };
}

describe("stale-computers against a 400-computer estate", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN });

  it("counts per organization and flagged computers equal an independent computation in JSON, CSV and XLSX", async () => {
    const { srv, api } = fixture;
    const want = await expectedFigures(api, 30);
    assert.ok(want.quarantined > 0 && want.detail.size > want.quarantined);
    const before = srv.stats.operation("estate.computer");
    const out = await runAt(api, staleComputers, { now: TEST_NOW });
    // One detail call per quarantined computer, none for the others.
    assert.equal(srv.stats.operation("estate.computer") - before, want.quarantined);
    const [, detail] = out.json.sections;
    await assertRows(out, {
      section: "organizations",
      labels: ORG_LABELS,
      expected: new Map<string, Record<string, Expected>>(want.orgs),
      keyOf: orgKey,
      fields: ORG_FIELDS,
    });
    await assertRows(out, {
      section: "computers",
      labels: DETAIL_LABELS,
      expected: want.detail,
      keyOf: hostKey,
      fields: DETAIL_FIELDS,
    });
    const fact = out.result.document.summary.find((f) => f.label === "Quarantined");
    assert.equal(fact?.value, want.quarantined);
    // Grouped by organization, longest unscanned first within each.
    const rows = detail.rows as { organization: string; daysSinceScan: number | null }[];
    for (let i = 1; i < rows.length; i++) {
      if (rows[i].organization !== rows[i - 1].organization) continue;
      assert.ok((rows[i].daysSinceScan ?? Infinity) <= (rows[i - 1].daysSinceScan ?? Infinity));
    }
  });

  it("takes the stale threshold from the days parameter", async () => {
    const want = await expectedFigures(fixture.api, 90);
    const out = await runAt(fixture.api, staleComputers, {
      now: TEST_NOW,
      formats: ["json"],
      params: { days: "90" },
    });
    const fields = { ...ORG_FIELDS, stale: "Not scanned 90+ days" };
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[0]), new Map(want.orgs), orgKey, fields),
      [],
    );
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[1]), want.detail, hostKey, DETAIL_FIELDS),
      [],
    );
  });

  it("applies a computer filter", async () => {
    const filter = "isServer -eq true";
    const want = await expectedFigures(fixture.api, 30, filter);
    const out = await runAt(fixture.api, staleComputers, {
      now: TEST_NOW,
      formats: ["json"],
      filter,
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[1]), want.detail, hostKey, DETAIL_FIELDS),
      [],
    );
    const total = out.result.document.summary.find((f) => f.label === "Computers checked");
    assert.equal(total?.value, [...want.orgs.values()].reduce((n, o) => n + o.computers, 0));
    assert.ok((total?.value as number) < 400);
  });
});

describe("stale-computers edge data", () => {
  const fixture = serverFixture({ computers: 0, token: TOKEN });

  it("renders every section with its no-data text for an empty estate", async () => {
    const out = await runAt(fixture.api, staleComputers, { now: TEST_NOW });
    await assertNoData(out, {
      xlsx: [
        [ORG_LABELS, "No computers match these parameters."],
        [DETAIL_LABELS, "No computer matches these parameters."],
      ],
      csv: ["computers"],
    });
  });

  it("flags a never-scanned computer and keeps a quarantined one whose detail is gone", async () => {
    const { srv, api } = fixture;
    srv.store.insert("computers", {
      id: "C1",
      hostName: "NEVER-1",
      organizationId: "ORG02",
      status: "Active",
      lastScanDate: null,
    });
    srv.store.insert("computers", {
      id: "C2",
      hostName: "FRESH-2",
      organizationId: "ORG02",
      status: "Active",
      lastScanDate: new Date(TEST_NOW.getTime() - 86_400_000),
    });
    srv.store.insert("computers", {
      id: "C3",
      hostName: "QUAR-3",
      status: "Quarantined",
      lastScanDate: new Date(TEST_NOW.getTime() - 3 * 86_400_000),
      quarantineDate: new Date("2025-06-01T00:00:00Z"),
    });
    srv.store.insert("computers", {
      id: "C4",
      hostName: "QUAR-4",
      organizationId: "ORG02",
      status: "Quarantined",
      lastScanDate: new Date(TEST_NOW.getTime() - 2 * 86_400_000),
      quarantineDate: new Date("2025-06-02T00:00:00Z"),
    });
    // The detail of QUAR-4 answers 404: its row stays, without a quarantine date.
    srv.faults.add({ match: /\/computers\/C4$/, status: 404, times: 5 });
    const out = await runAt(api, staleComputers, { now: TEST_NOW });
    const expected = new Map<string, Record<string, Expected>>([
      ["QUAR-4", {
        organization: "ORG02",
        daysSinceScan: 2,
        stale: false,
        quarantined: true,
        quarantineDate: null,
      }],
      ["NEVER-1", { organization: "ORG02", daysSinceScan: null, stale: true, quarantined: false }],
      ["QUAR-3", {
        organization: "(no organization)",
        daysSinceScan: 3,
        stale: false,
        quarantined: true,
        quarantineDate: "2025-06-01",
      }],
    ]);
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[1]), expected, hostKey, DETAIL_FIELDS),
      [],
    );
    const orgs = new Map<string, Record<string, Expected>>([
      ["ORG02", {
        organizationId: "ORG02",
        computers: 3,
        stale: 1,
        neverScanned: 1,
        quarantined: 1,
        flagged: 2,
      }],
      ["(no organization)", {
        organizationId: null,
        computers: 1,
        stale: 0,
        quarantined: 1,
        flagged: 1,
      }],
    ]);
    assert.deepEqual(compareRows(byLabel(out.json.sections[0]), orgs, orgKey, ORG_FIELDS), []);
    const reasons = out.json.sections[1].rows.map((r: { reason: string }) => r.reason);
    assert.deepEqual(reasons.sort(), ["Never scanned", "Quarantined", "Quarantined"]);
  });
});
