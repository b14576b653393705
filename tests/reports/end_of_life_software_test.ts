import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { pdfText } from "../helpers/run_report.ts";
import { endOfLifeSoftware } from "../../reports/end_of_life_software.ts";
import {
  compareRows,
  ESTATE,
  type Expected,
  rawAll,
  type RawApi,
  type RawItem,
  REGISTRY,
  runAt,
} from "./support/raw_api.ts";
import { appKey, assertNoData, assertRows, byLabel, installKey } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationLabel, rawOrganizationNames } from "./support/raw_names.ts";

const TOKEN = "end-of-life-test-token";

const APP_FIELDS = {
  manufacturer: "Manufacturer",
  endOfLifeDate: "End of life",
  installations: "Installations",
  computers: "Computers",
  organizations: "Organizations",
};
const APP_LABELS = ["Application", "Version", ...Object.values(APP_FIELDS)];
const DETAIL_FIELDS = {
  organization: "Organization",
  status: "Computer status",
  endOfLifeDate: "End of life",
  lastUsed: "Last used",
};
const DETAIL_LABELS = [
  "Organization",
  "Computer",
  "Computer status",
  "Last scan",
  "Application",
  "Version",
  "End of life",
  "Last used",
  "First discovered",
];

/** Expected figures from raw API JSON (the registry read whole, end of life picked here). */
async function expectedFigures(
  api: RawApi,
  options: { organization?: string; manufacturer?: string } = {},
) {
  const [registry, installs, computers, names] = await Promise.all([
    rawAll(api, `${REGISTRY}/applications`),
    rawAll(api, `${ESTATE}/computers-applications`),
    rawAll(api, `${ESTATE}/computers`),
    rawOrganizationNames(api),
  ]);
  const eol = new Map<string, RawItem>(
    registry.filter((a) =>
      a.isEndOfLife === true &&
      (options.manufacturer === undefined || a.manufacturer.includes(options.manufacturer))
    ).map((a) => [a.id, a]),
  );
  const hosts = new Map<string, RawItem>(computers.map((c) => [c.id, c]));
  const perApp = new Map<string, { n: number; computers: Set<string>; orgs: Set<string> }>();
  const detail = new Map<string, Record<string, Expected>>();
  for (const i of installs) {
    const app = eol.get(i.applicationId);
    if (i.isInstalled !== true || !app) continue;
    const host = hosts.get(i.computerId);
    if (options.organization !== undefined && host?.organizationId !== options.organization) {
      continue;
    }
    const org = rawOrganizationLabel(names, host?.organizationId ?? null);
    const a = perApp.get(i.applicationId) ?? { n: 0, computers: new Set(), orgs: new Set() };
    perApp.set(i.applicationId, a);
    a.n++;
    a.computers.add(i.computerId);
    a.orgs.add(org);
    detail.set(`${host?.hostName ?? i.computerId}|${app.name}|${app.version}`, {
      organization: org,
      organizationId: host?.organizationId ?? null,
      status: host?.status ?? null,
      endOfLifeDate: app.endOfLifeDate.slice(0, 10),
      lastUsed: i.lastUsed ? i.lastUsed.slice(0, 10) : null,
    });
  }
  const applications = new Map<string, Record<string, Expected>>();
  for (const [id, a] of perApp) {
    const app = eol.get(id)!;
    applications.set(`${app.name}|${app.version}`, {
      manufacturer: app.manufacturer,
      endOfLifeDate: app.endOfLifeDate.slice(0, 10),
      installations: a.n,
      computers: a.computers.size,
      organizations: a.orgs.size,
    });
  }
  return { applications, detail };
}

describe("end-of-life-software against a 400-computer estate", () => {
  const fixture = serverFixture({ computers: 400, token: TOKEN, closeBrowser: true });

  it("per-application summary and per-computer detail equal an independent computation in JSON, CSV, XLSX and PDF", async () => {
    const want = await expectedFigures(fixture.api);
    assert.ok(want.applications.size >= 2 && want.detail.size >= 5);
    const out = await runAt(fixture.api, endOfLifeSoftware, {
      now: TEST_NOW,
      formats: ["json", "csv", "xlsx", "pdf"],
    });
    const [applications, detail] = out.json.sections;
    await assertRows(out, {
      section: "applications",
      labels: APP_LABELS,
      expected: want.applications,
      keyOf: appKey,
      fields: APP_FIELDS,
    });
    await assertRows(out, {
      section: "computers",
      labels: DETAIL_LABELS,
      expected: want.detail,
      keyOf: installKey,
      fields: DETAIL_FIELDS,
    });

    // Detail rows come grouped by organization, and the applications earliest end of life first.
    const orgs = detail.rows.map((r: { organization: string }) => r.organization);
    assert.deepEqual(orgs, [...orgs].sort((a, b) => a.localeCompare(b, "en", { numeric: true })));
    const dates = applications.rows.map((r: { endOfLifeDate: string }) => r.endOfLifeDate);
    assert.deepEqual(dates, [...dates].sort());

    const text = await pdfText(out.file("pdf"));
    for (const key of want.detail.keys()) {
      const host = key.split("|")[0];
      assert.ok(text.includes(host), `${host} is in the PDF`);
    }
    const installations = [...want.applications.values()].reduce(
      (n, a) => n + (a.installations as number),
      0,
    );
    const fact = out.result.document.summary.find((f) => f.label === "Installations");
    assert.equal(fact?.value, installations);
  });

  it("restricts the detail to one organization's computers", async () => {
    const { api } = fixture;
    const all = await expectedFigures(api);
    const counts = new Map<string, number>();
    const nameOf = new Map<string, string>();
    for (const r of all.detail.values()) {
      const id = r.organizationId as string;
      nameOf.set(id, r.organization as string);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const [org] = [...counts].sort((a, b) => b[1] - a[1])[0];
    assert.notEqual(nameOf.get(org), org);
    const want = await expectedFigures(api, { organization: org });
    const out = await runAt(api, endOfLifeSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      params: { organization: org },
    });
    const [applications, detail] = out.json.sections;
    assert.deepEqual(
      compareRows(byLabel(applications), want.applications, appKey, APP_FIELDS),
      [],
    );
    assert.deepEqual(compareRows(byLabel(detail), want.detail, installKey, DETAIL_FIELDS), []);
    assert.ok(want.detail.size < all.detail.size);
    assert.ok(applications.title.endsWith(`(organization ${nameOf.get(org)}, id ${org})`));
  });

  it("applies a registry filter together with end of life", async () => {
    const want = await expectedFigures(fixture.api, { manufacturer: "Microsoft" });
    const out = await runAt(fixture.api, endOfLifeSoftware, {
      now: TEST_NOW,
      formats: ["json"],
      filter: "manufacturer -contains Microsoft",
    });
    assert.deepEqual(
      compareRows(byLabel(out.json.sections[0]), want.applications, appKey, APP_FIELDS),
      [],
    );
  });
});

describe("end-of-life-software edge data", () => {
  const fixture = serverFixture({ computers: 0, token: TOKEN });

  it("renders every section with its no-data text for an empty estate, and for a cleared store", async () => {
    for (const clear of [false, true]) {
      if (clear) fixture.srv.store.clear();
      const out = await runAt(fixture.api, endOfLifeSoftware, { now: TEST_NOW });
      await assertNoData(out, {
        xlsx: [
          [APP_LABELS, "No end-of-life application is installed."],
          [DETAIL_LABELS, "No computer has an end-of-life application installed."],
        ],
        csv: ["computers"],
      });
    }
  });
});
