import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  entitlementStateByComputer,
  matchStates,
  stateKeys,
} from "../../reports/entitlement_state_by_computer.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { ParamError } from "../../lib/report/errors.ts";
import { getToken } from "../helpers/server.ts";
import {
  closeTestBrowser,
  parseCsv,
  pdfText,
  rawAll,
  readXlsx,
  runOnEmptyStore,
  runReportForTest,
  type RunReportForTestResult,
} from "../helpers/run_report.ts";
import { assertNoData, jsonSection as section } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { rawMetricNames, rawOrganizationLabel, rawOrganizationNames } from "./support/raw_names.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** A state name that needs escaping in HTML, CSV and JSON alike. */
const TRICKY = 'Review "pending", <manual> & more';

/** Independent counts from the raw API. */
interface Expected {
  states: Json[];
  computers: Json[];
  entitlements: Json[];
  /** hostName → state id → count */
  counts: Map<string, Map<string, number>>;
  uncoveredIds: Set<string>;
}

async function expectedFrom(srv: RunningServer, token: string): Promise<Expected> {
  const states = await rawAll(srv, "/api/sam/v1/licenses/entitlements/entitlement-states", token);
  const computers = await rawAll(srv, "/api/sam/estate/v1/computers", token);
  const entitlements = await rawAll(srv, "/api/sam/v1/licenses/entitlements/computers", token);
  const hostOf = new Map(computers.map((c) => [c.id, c.hostName]));
  const counts = new Map<string, Map<string, number>>();
  for (const c of computers) counts.set(c.hostName, new Map());
  for (const e of entitlements) {
    const m = counts.get(hostOf.get(e.computerId));
    if (!m) continue;
    m.set(e.entitlementStateId, (m.get(e.entitlementStateId) ?? 0) + 1);
  }
  const uncoveredIds = new Set(
    states.filter((s) => ["unlicensed", "under-licensed"].includes(s.name.toLowerCase()))
      .map((s) => s.id),
  );
  return { states, computers, entitlements, counts, uncoveredIds };
}

/** How the report labels a state: the service's one coded name in words, any other as given. */
const shown = (name: string) =>
  name === "Licensed <via upgrade & downgrade>" ? "Licensed via upgrade or downgrade" : name;

const uncoveredOf = (m: Map<string, number>, ids: Set<string>) =>
  [...m].filter(([id]) => ids.has(id)).reduce((sum, [, n]) => sum + n, 0);

// One PDF browser for the file: the estate's run and the empty estate's print on it.
after(closeTestBrowser);

describe("entitlement-state-by-computer", () => {
  const fixture = serverFixture({ computers: 400 });
  let srv: RunningServer;
  let token: string;
  let expected: Expected;
  let run: RunReportForTestResult;
  // The store changes in `before` only, before the first run: the runs share one query context
  // (as a pack's reports do), but for the one that counts the requests a run makes.
  const query = createQueryContext();

  before(async () => {
    srv = fixture.srv;
    // A state whose name needs escaping everywhere, held by two computers.
    srv.store.insert("entitlement_states", {
      id: "ES07",
      name: TRICKY,
      description: "Inserted by the test: quotes, a comma, angle brackets and an ampersand.",
    });
    const ids = srv.store.query({ resource: "Computer", limit: 2 }).rows.map((r) => r.id);
    for (const computerId of ids) {
      srv.store.insert("computer_application_entitlements", {
        computerId,
        applicationId: "APP-TEST",
        metricId: "MET01",
        entitlementStateId: "ES07",
      });
    }
    token = await getToken(srv);
    expected = await expectedFrom(srv, token);
    run = await runReportForTest({
      server: srv,
      report: entitlementStateByComputer,
      formats: ["json", "csv", "xlsx", "pdf"],
      query,
    });
  });

  it("has one safely keyed column per state the API lists, labelled with its name", () => {
    const columns = section(run.json, "computers").columns;
    for (const s of expected.states) {
      const column = columns.find((c: Json) => c.label === shown(s.name));
      assert.ok(column, `column for ${s.name}`);
      assert.match(column.key, /^state_[A-Za-z0-9_]+$/);
    }
    assert.ok(expected.states.some((s) => s.name === TRICKY));
    assert.ok(expected.states.some((s) => /[<&]/.test(s.name) && s.name !== TRICKY));
  });

  it("counts per computer and state equal the raw entitlements", () => {
    const s = section(run.json, "computers");
    const keyOf = new Map(s.columns.map((c: Json) => [c.label, c.key]));
    assert.equal(s.rows.length, expected.computers.length);
    for (const row of s.rows) {
      const m = expected.counts.get(row.hostName);
      assert.ok(m, row.hostName);
      for (const st of expected.states) {
        assert.equal(
          row[keyOf.get(shown(st.name)) as string],
          m.get(st.id) ?? 0,
          `${row.hostName} ${st.id}`,
        );
      }
      assert.equal(row.uncovered, uncoveredOf(m, expected.uncoveredIds));
    }
  });

  it("headline facts count computers with uncovered applications", () => {
    const facts = run.result.document.summary;
    const want = [...expected.counts.values()]
      .filter((m) => uncoveredOf(m, expected.uncoveredIds) > 0).length;
    assert.equal(facts.find((f) => f.label === "Computers")?.value, expected.computers.length);
    assert.equal(
      facts.find((f) => f.label === "Computers with uncovered applications")?.value,
      want,
    );
  });

  it("lists computers with an uncovered application first", () => {
    const rows = section(run.json, "computers").rows;
    const firstCovered = rows.findIndex((r: Json) => r.uncovered === 0);
    assert.ok(firstCovered > 0, "some uncovered computers come first");
    assert.ok(rows.slice(firstCovered).every((r: Json) => r.uncovered === 0));
  });

  it("totals per state equal the raw count of entitlements in that state", () => {
    const s = section(run.json, "computers");
    const keyOf = new Map(s.columns.map((c: Json) => [c.label, c.key]));
    for (const st of expected.states) {
      const want = expected.entitlements.filter((e) => e.entitlementStateId === st.id).length;
      assert.equal(s.totals.All[keyOf.get(shown(st.name)) as string], want, st.name);
      const line = section(run.json, "states").rows.find((r: Json) => r.stateId === st.id);
      assert.equal(line.installations, want);
    }
    assert.equal(section(run.json, "detail").rows.length, expected.entitlements.length);
  });

  it("installations per application and state equal the raw entitlements, and add up to the states section", async () => {
    const s = section(run.json, "applications");
    const keyOf = new Map(s.columns.map((c: Json) => [c.label, c.key]));
    const perApp = new Map<string, number>();
    for (const e of expected.entitlements) {
      perApp.set(e.applicationId, (perApp.get(e.applicationId) ?? 0) + 1);
    }
    assert.equal(s.rows.length, perApp.size);
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    assert.deepEqual(sorted(s.rows.map((r: Json) => r.applications)), sorted([...perApp.values()]));
    for (const st of expected.states) {
      const key = keyOf.get(shown(st.name)) as string;
      const line = section(run.json, "states").rows.find((r: Json) => r.stateId === st.id);
      assert.equal(s.rows.reduce((n: number, r: Json) => n + r[key], 0), line.installations);
    }
    const uncovered = s.rows.map((r: Json) => r.uncovered);
    assert.deepEqual(uncovered, [...uncovered].sort((a, b) => b - a), "most uncovered first");
    const text = await pdfText(run.file("pdf"));
    assert.ok(text.includes("Application entitlements per entitlement state, by application"));
  });

  it("CSV and XLSX headers carry the state names verbatim, with the same counts", async () => {
    const [header, ...rows] = parseCsv(await Deno.readTextFile(run.file("csv", "computers")));
    assert.ok(header.includes(TRICKY), "the tricky name is one CSV header field");
    // The service's coded name reads as words; other names (the tricky one) stay verbatim.
    assert.ok(header.includes("Licensed via upgrade or downgrade"));
    const at = header.indexOf(TRICKY);
    const csvTotal = rows.reduce((sum, r) => sum + Number(r[at]), 0);
    assert.equal(csvTotal, 2);

    const sheets = await readXlsx(run.file("xlsx"));
    const sheet = Object.values(sheets).find((r) => r[0]?.includes(TRICKY));
    assert.ok(sheet, "a sheet whose header has the tricky name");
    const col = sheet[0].indexOf(TRICKY);
    const hosts = new Set(expected.computers.map((c) => c.hostName));
    const data = sheet.filter((r) => hosts.has(r[0] as string));
    assert.equal(data.length, expected.computers.length);
    assert.equal(data.reduce((sum, r) => sum + Number(r[col] ?? 0), 0), 2);
  });

  it("the PDF shows state names once escaped, never double-escaped", async () => {
    const text = await pdfText(run.file("pdf"));
    assert.ok(text.includes(TRICKY), "tricky name in the PDF text");
    assert.ok(text.includes("Licensed via upgrade or downgrade"));
    assert.ok(!/&(amp|lt|gt|quot|#\d+);/.test(text), "no HTML entity in the PDF text");
    const s = section(run.json, "computers");
    const totalLine = text.split("\n").find((l) => l.includes(`Total · ${s.rows.length} rows`));
    assert.ok(totalLine, "the computers totals line");
    const figures = totalLine.replace(/Total · \d+ rows/, "").trim().split(/\s+/).map(Number);
    const states = s.columns.filter((c: Json) => c.key.startsWith("state_"));
    assert.deepEqual(figures, [
      ...states.map((c: Json) => s.totals.All[c.key]),
      s.totals.All.applications,
      s.totals.All.uncovered,
    ]);
  });

  it("the state parameter keeps only that state's rows and computers (by name or id)", async () => {
    const unlicensed = expected.states.find((s) => s.name === "Unlicensed")!;
    for (const state of [unlicensed.name, "es07"]) {
      const id = state === "es07" ? "ES07" : unlicensed.id;
      const { json } = await runReportForTest({
        server: srv,
        report: entitlementStateByComputer,
        params: { state },
        query,
      });
      const want = expected.entitlements.filter((e) => e.entitlementStateId === id);
      const detail = section(json, "detail").rows;
      assert.equal(detail.length, want.length, state);
      assert.ok(detail.every((r: Json) => r.state === (id === "ES07" ? TRICKY : "Unlicensed")));
      const computers = new Set(want.map((e) => e.computerId)).size;
      assert.equal(section(json, "computers").rows.length, computers);
    }
  });

  it("uncoveredStates redefines what counts as uncovered", async () => {
    const excluded = expected.states.find((s) => s.name === "Excluded")!;
    const { json } = await runReportForTest({
      server: srv,
      report: entitlementStateByComputer,
      params: { uncoveredStates: "Excluded" },
      query,
    });
    for (const row of section(json, "computers").rows) {
      assert.equal(row.uncovered, expected.counts.get(row.hostName)!.get(excluded.id) ?? 0);
    }
  });

  it("an unknown state is a parameter error naming the states", async () => {
    await assert.rejects(
      runReportForTest({
        server: srv,
        report: entitlementStateByComputer,
        params: { state: "Nope" },
      }),
      (e: Error) => e instanceof ParamError && e.message.includes("Unlicensed"),
    );
  });

  it("shows organisation names from the raw tree and metric names from the raw registry metrics", async () => {
    const api = { url: srv.url, token };
    const orgs = await rawOrganizationNames(api);
    const orgOf = new Map(expected.computers.map((c) => [c.hostName, c.organizationId]));
    for (const row of section(run.json, "computers").rows) {
      assert.equal(row.organization, rawOrganizationLabel(orgs, orgOf.get(row.hostName)));
    }
    assert.ok(orgs.size > 1);
    const registered = new Set(
      (await rawAll(srv, "/api/sam/softwareregistry/v1/applications", token)).map((a) => a.id),
    );
    const apps = new Set(expected.entitlements.map((e) => e.applicationId));
    const metrics = await rawMetricNames(api, [...apps].filter((a) => registered.has(a)));
    const want = new Map<string, number>();
    for (const e of expected.entitlements) {
      // APP-TEST is not in the registry: its metric shows as its id.
      const label = metrics.get(`${e.applicationId}/${e.metricId}`) ?? e.metricId;
      const key = `${e.metricId} ${label}`;
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const row of section(run.json, "detail").rows) {
      const key = `${row.metricId} ${row.metric}`;
      got.set(key, (got.get(key) ?? 0) + 1);
    }
    assert.deepEqual(got, want);
    assert.ok(got.has("MET01 MET01") && [...got.keys()].some((k) => !k.startsWith("MET01 MET01")));
  });

  it("reads the tree once and each detail application's metrics once, beyond its other reads", async () => {
    const apps = new Set(expected.entitlements.map((e) => e.applicationId));
    const before = new Map(srv.stats.byOperation);
    await runReportForTest({ server: srv, report: entitlementStateByComputer });
    const grown = (op: string) => (srv.stats.byOperation.get(op) ?? 0) - (before.get(op) ?? 0);
    assert.equal(grown("organizations.tree"), 1);
    // Each list read once, and read again to verify it (registry pages state no total_items);
    // an application the registry does not know answers 404 once.
    const known = [...apps].filter((id) => srv.store.first("RegistryApplication", { id })).length;
    assert.equal(grown("registry.metrics"), 2 * known + (apps.size - known));
  });

  it("organization and filter apply to the computers", async () => {
    const org = expected.computers[0].organizationId;
    const { json } = await runReportForTest({
      server: srv,
      report: entitlementStateByComputer,
      params: { organization: org },
      filter: "isServer -eq true",
      query,
    });
    const want = expected.computers.filter((c) => c.organizationId === org && c.isServer);
    assert.ok(want.length > 0);
    assert.deepEqual(
      section(json, "computers").rows.map((r: Json) => r.hostName).sort(),
      want.map((c) => c.hostName).sort(),
    );
  });
});

describe("entitlement-state-by-computer on an empty estate", () => {
  it("renders every section with its no-data text", async () => {
    const run = await runOnEmptyStore(entitlementStateByComputer);
    await assertNoData(run, {
      pdf: [
        "No computers match these parameters.",
        "The API lists no entitlement states.",
        "No application entitlements for these parameters.",
      ],
    });
  });
});

describe("entitlement-state-by-computer column keys", () => {
  it("state keys are safe, unique and stable for any ids", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string(), { maxLength: 20 }), (ids) => {
      const keys = stateKeys(ids);
      assert.equal(new Set(keys).size, ids.length);
      for (const key of keys) assert.match(key, /^state_[A-Za-z0-9_]*$/);
      assert.ok(!keys.includes("state_unknown"));
      assert.deepEqual(stateKeys(ids), keys);
    }));
  });

  it("matchStates takes names or ids, case-insensitively, ignoring unknown ones", () => {
    const states = [
      { id: "ES02", name: "Unlicensed", description: null },
      { id: "ES03", name: "Under-licensed", description: null },
    ];
    assert.deepEqual([...matchStates(" unlicensed ,es03, nope", states)].sort(), ["ES02", "ES03"]);
    assert.equal(matchStates("", states).size, 0);
  });
});
