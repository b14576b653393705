import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import { applicationsPerOrganization } from "../../reports/applications_per_organization.ts";
import { ESTATE, type Expected, rawAll, REGISTRY, runAt } from "./support/raw_api.ts";
import { assertRows } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationLabel, rawOrganizationNames } from "./support/raw_names.ts";
import { rawNameWithVersion } from "./support/raw_elp.ts";

const LABELS = [
  "Organization",
  "Application",
  "Publisher",
  "Installations",
  "Computers",
  "Last used",
];
const FIELDS = { installs: "Installations", computers: "Computers", publisher: "Publisher" };
const keyOf = (r: Record<string, unknown>) => `${r["Organization"]}|${r["Application"]}`;

describe("applications-per-organization (the README's example report)", () => {
  const fixture = serverFixture({ computers: 400, token: "apps-per-org-test-token" });

  it("installs and computers per organization and application equal a plain-fetch computation in JSON, CSV and XLSX", async () => {
    const { api } = fixture;
    const installs = await rawAll(api, `${ESTATE}/computers-applications`, "isInstalled -eq true");
    const computers = new Map((await rawAll(api, `${ESTATE}/computers`)).map((c) => [c.id, c]));
    const registry = new Map((await rawAll(api, `${REGISTRY}/applications`)).map((a) => [a.id, a]));
    const names = await rawOrganizationNames(api);
    const want = new Map<string, Record<string, Expected>>();
    const ids = new Map<string, Set<string>>();
    for (const i of installs) {
      const org = rawOrganizationLabel(names, computers.get(i.computerId)?.organizationId);
      const app = registry.get(i.applicationId);
      const label = app ? rawNameWithVersion(app.name as string, app.version as string) : undefined;
      const key = `${org}|${label}`;
      const row = want.get(key) ??
        { installs: 0, computers: 0, publisher: app?.manufacturer ?? null };
      const seen = ids.get(key) ?? new Set<string>();
      want.set(key, row);
      ids.set(key, seen.add(i.computerId));
      row.installs = (row.installs as number) + 1;
      row.computers = seen.size;
    }
    assert.ok(want.size > 50, `a demo estate has many organization × application rows`);
    const out = await runAt(api, applicationsPerOrganization, { now: TEST_NOW });
    await assertRows(out, {
      section: "applications",
      labels: LABELS,
      expected: want,
      keyOf,
      fields: FIELDS,
    });
    const facts = new Map(out.result.document.summary.map((f) => [f.label, f.value]));
    assert.equal(facts.get("Installations"), installs.length);
    assert.equal(
      facts.get("Organizations"),
      new Set([...want.keys()].map((k) => k.split("|")[0])).size,
    );
    assert.equal(
      facts.get("Applications"),
      new Set([...want.keys()].map((k) => k.split("|")[1])).size,
    );
  });

  it('is shown verbatim in the README\'s "Writing a report"', async () => {
    const root = new URL("../../", import.meta.url);
    const readme = await Deno.readTextFile(new URL("README.md", root));
    const source = await Deno.readTextFile(
      new URL("reports/applications_per_organization.ts", root),
    );
    assert.ok(readme.includes("```ts\n" + source + "```"), "README shows the example report");
  });
});
