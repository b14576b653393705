import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { TEST_NOW } from "../helpers/server.ts";
import {
  closeTestBrowser,
  pdfText,
  runOnEmptyStore,
  runReportForTest,
} from "../helpers/run_report.ts";
import { licensePosition } from "../../reports/license_position.ts";
import { compareRows, type Expected, rawAnswers, type RawApi, runAt } from "./support/raw_api.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { LICENSES, rawFlat } from "./support/raw_api.ts";
import { assertNoData, assertRows, byLabel, jsonSection } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { rawOrganizationNames } from "./support/raw_names.ts";
import {
  rawAppLabel,
  rawDifferences,
  rawDisagrees,
  type RawElp,
  rawElp,
  type RawElpOptions,
  rawFigures,
  rawMetricName,
  rawPositionRows,
  rawPrice,
  rawRowKey,
} from "./support/raw_elp.ts";
import { POSITION_FIELDS } from "./support/position_fields.ts";

const TOKEN = "license-position-test-token";

// One PDF browser for the file (the named cases' PDF and the empty estate's print on it).
after(closeTestBrowser);

/**
 * The reference estate (400 computers, seed 1) of every block below that reads it: one server for
 * the file. Its runs on the store as generated share one query context (as the reports of a pack
 * do) and its recounts one read of each raw answer; a run or recount after a test changes the
 * store (the reconciliation block, which puts it back) reads afresh.
 */
const reference = serverFixture({ computers: 400, seed: 1, token: TOKEN });
const generated = createQueryContext();
let answers: RawApi | undefined;
const generatedApi = (): RawApi => answers ??= rawAnswers(reference.api);

const POSITION_LABELS = [
  "Application",
  "Metric",
  "Publisher",
  ...Object.values(POSITION_FIELDS),
  "Requirement understated",
];
const RECONCILIATION_LABELS = [
  "Application",
  "Metric",
  "Position",
  "Covered installs",
  "Uncovered installs",
  "Difference",
  "Reason",
];
const CROSS_CHECK_LABELS = ["Application", "Metric", "Figure", "samkit", "Service", "Explanation"];
const PUBLISHER_LABELS = [
  "Publisher",
  "Metric",
  "Applications",
  "Applications short",
  "Entitlements",
  "Requirement",
  "Net position",
  "Shortfall (short applications)",
  "Surplus (other applications)",
  "Entitled ÷ required (net)",
];
const DEVICE_LABELS = [
  "Computer",
  "Host",
  "Application",
  "Metric",
  "Counted",
  "Core factor",
  "Minimum",
  "Requirement",
  "Basis",
  "Covered by",
];

type Row = Record<string, unknown>;
const rowKey = (r: Row) => `${r["Application"]}|${r["Metric"]}`;
const figureKey = (r: Row) => `${r["Application"]}|${r["Metric"]}|${r["Figure"]}`;

/** The headline facts the positions rows imply: shortfall cost per currency, counts. */
function expectedFacts(rows: ReadonlyMap<string, Record<string, Expected>>) {
  const perCurrency = new Map<string, number>();
  let unpriced = 0, short = 0;
  for (const r of rows.values()) {
    if ((r.shortfall as number) > 0) short++;
    if (r.priceSource === "Unpriced") unpriced++;
    if (r.shortfallCost === null) continue;
    const cur = r.currency as string;
    perCurrency.set(
      cur,
      (perCurrency.get(cur) ?? 0) + Math.round((r.shortfallCost as number) * 100),
    );
  }
  return { perCurrency, unpriced, short };
}

function fact(out: Awaited<ReturnType<typeof runAt>>, label: string): unknown {
  return out.result.document.summary.find((f) => f.label === label)?.value;
}

/** The JSON run and the recount on the reference estate as generated match, row for row. */
async function positionsMatch(
  options: RawElpOptions & { params?: Record<string, unknown> } = {},
) {
  const elp = await rawElp(generatedApi(), options);
  const want = rawPositionRows(elp);
  const out = await runAt(reference.api, licensePosition, {
    now: TEST_NOW,
    formats: ["json"],
    filter: options.filter,
    params: options.params,
    query: generated,
  });
  const rows = byLabel(jsonSection(out.json, "positions"));
  assert.deepEqual(compareRows(rows, want, rowKey, POSITION_FIELDS), []);
  return { elp, want, out, rows };
}

const ESTATES = [
  { computers: 400, seed: 1 },
  { computers: 1500, seed: 11 },
  { computers: 120, seed: 7 },
];

for (const { computers, seed } of ESTATES) {
  describe(`license-position (ELP) on ${computers} computers, seed ${seed}`, () => {
    const isReference = computers === 400 && seed === 1;
    const fixture = isReference ? reference : serverFixture({ computers, seed, token: TOKEN });

    it("every positions row equals the independent ELP in JSON, CSV and XLSX, and the headline facts are their sums", async () => {
      const elp = await rawElp(isReference ? generatedApi() : fixture.api);
      const want = rawPositionRows(elp);
      assert.ok(want.size > 10, "the estate has applications to position");
      const out = await runAt(fixture.api, licensePosition, {
        now: TEST_NOW,
        ...(isReference ? { query: generated } : {}),
      });
      await assertRows(out, {
        section: "positions",
        labels: POSITION_LABELS,
        expected: want,
        keyOf: rowKey,
        fields: POSITION_FIELDS,
      });
      const facts = expectedFacts(want);
      assert.ok(facts.short > 0, "the estate has shortfalls");
      for (const [cur, cents] of facts.perCurrency) {
        assert.equal(fact(out, `Shortfall cost (${cur})`), cents / 100, `shortfall cost ${cur}`);
      }
      const currencies = out.result.document.summary
        .filter((f) => f.label.startsWith("Shortfall cost ("))
        .map((f) => f.label);
      assert.deepEqual(
        currencies.sort(),
        [...facts.perCurrency.keys()].map((c) => `Shortfall cost (${c})`).sort(),
      );
      assert.equal(fact(out, "Unpriced shortfalls"), facts.unpriced);
      assert.equal(fact(out, "Positions short"), facts.short);
    });
  });
}

describe("license-position (ELP) named cases on the reference estate (400 computers, seed 1)", () => {
  const fixture = reference;
  let elp: RawElp;
  let rows: Row[];
  const row = (key: string) => {
    const hit = rows.find((r) => rowKey(r) === rawRowKey(elp, key));
    assert.ok(hit, `a positions row for ${rawRowKey(elp, key)}`);
    return hit;
  };
  // No test of this block changes the store: the whole estate's ELP and JSON run, and their
  // match, are made once, by the first test that needs them.
  let whole: ReturnType<typeof positionsMatch> | undefined;
  const wholeEstate = () => whole ??= positionsMatch();
  const run = async (options?: Parameters<typeof positionsMatch>[0]) => {
    ({ elp, rows } = await (options ? positionsMatch(options) : wholeEstate()));
  };

  it("counts a downgrade transfer as received by the older version", async () => {
    await run();
    const t = elp.transfers.find((t) => t.isDowngrade === true && t.quantity > 0);
    assert.ok(t, "the estate has a downgrade transfer");
    const key = `${t.toApplicationId}|${t.metricId}`;
    assert.ok(elp.lines.get(key)!.received.downgrade >= t.quantity);
    assert.equal(row(key)["Received"], rawFigures(elp.lines.get(key)!).received);
    const from = row(`${t.fromApplicationId}|${t.metricId}`);
    assert.ok((from["Given"] as number) >= t.quantity, "the newer version gives it");
  });

  it("shows an install covered by extended coverage in the devices section with requirement 0", async () => {
    await run();
    const covered = elp.tracking.find((r) =>
      r.requirementMoved === 1 && r.requirement === 0 &&
      (r.extendedCoverageForDcc === 1 || r.extendedCoverageForHost === 1)
    );
    assert.ok(covered, "the estate has an install covered by extended coverage");
    const { out } = await wholeEstate();
    const devices = byLabel(jsonSection(out.json, "devices"));
    const key = `${covered.applicationId}|${covered.metricId}`;
    const hit = devices.find((d) =>
      d["Computer"] === elp.computers.get(covered.computerId)?.hostName &&
      d["Application"] === rawAppLabel(elp.registry, covered.applicationId) &&
      d["Metric"] === rawMetricName(elp, key)
    );
    assert.ok(hit, "the covered install is listed");
    assert.equal(hit["Basis"], "Covered by extended coverage");
    assert.equal(hit["Requirement"], 0);
  });

  it("positions a user-metric product in Users, user transfers included", async () => {
    await run();
    const users = [...elp.lines.keys()].filter((k) => rawMetricName(elp, k) === "Users");
    assert.ok(users.length > 0, "the estate has a user-metric product");
    for (const key of users) assert.equal(row(key)["Metric"], "Users");
    const t = elp.transfers.find((t) =>
      t.userId && users.includes(`${t.toApplicationId}|${t.metricId}`)
    );
    assert.ok(t, "a user transfer into a user-metric product");
    assert.ok((row(`${t.toApplicationId}|${t.metricId}`)["Received"] as number) >= t.quantity);
  });

  it("prices a product bought in two currencies in the currency of most units", async () => {
    await run();
    const mixed = [...elp.lines].filter(([, l]) => {
      const units = [...l.paid.values()].map((p) => p.units).sort((a, b) => b - a);
      return units.length >= 2 && units[0] > units[1];
    });
    assert.ok(mixed.length > 0, "the estate has a product bought in two currencies");
    for (const [key, line] of mixed) {
      const [currency, paid] = [...line.paid].sort(([, a], [, b]) => b.units - a.units)[0];
      const r = row(key);
      assert.equal(r["Currency"], currency, key);
      assert.equal(r["Priced at"], "Average price paid");
      // The unit price is printed to the cent; costs are that printed price × units.
      assert.equal(r["Unit price"], Math.round(paid.cents / paid.units) / 100);
    }
  });

  it("prices an unpriced shortfall from a price file", async () => {
    await run();
    const unpriced = [...elp.lines.keys()].filter((k) =>
      rawPrice(elp, k) === null && rawFigures(elp.lines.get(k)!).shortfall > 0
    );
    assert.ok(unpriced.length > 0, "the estate has an unpriced shortfall");
    const key = unpriced[0];
    const line = elp.lines.get(key)!;
    const entry = {
      application: rawAppLabel(elp.registry, line.applicationId),
      metric: rawMetricName(elp, key),
      currency: "CHF",
      unitPrice: 123.45,
    };
    const path = await Deno.makeTempFile({ suffix: ".csv" });
    await Deno.writeTextFile(
      path,
      `application,metric,currency,unitPrice\n"${entry.application}",${entry.metric},CHF,123.45\n`,
    );
    await run({ priceFile: [entry], params: { priceFile: path } });
    const r = row(key);
    const shortfall = rawFigures(elp.lines.get(key)!).shortfall;
    assert.equal(r["Priced at"], "Price file");
    assert.equal(r["Currency"], "CHF");
    assert.equal(r["Unit price"], 123.45);
    assert.equal(r["Shortfall cost (unit price × shortfall)"], Math.round(shortfall * 12345) / 100);
  });

  it("charges a VM of a host-based product to its host", async (t) => {
    await run();
    const vm = elp.tracking.find((r) => {
      if (r.virtualMachine !== 1 || r.requirementMoved !== 1 || r.requirement !== 0) return false;
      if (r.extendedCoverageForDcc === 1 || r.extendedCoverageForHost === 1) return false;
      const host = elp.computers.get(r.computerId)?.hostComputerId;
      return elp.tracking.some((h) =>
        h.computerId === host && h.applicationId === r.applicationId && h.physicalHost === 1 &&
        h.requirement > 0
      );
    });
    if (!vm) {
      const message = "the estate has no VM whose host carries its requirement yet (gen-coherence)";
      console.warn(`SKIPPED: ${message}`);
      t.skip(message);
      return;
    }
    const { out } = await wholeEstate();
    const devices = byLabel(jsonSection(out.json, "devices"));
    const vmName = elp.computers.get(vm.computerId)?.hostName;
    const hit = devices.find((d) =>
      d["Computer"] === vmName && d["Application"] === rawAppLabel(elp.registry, vm.applicationId)
    );
    assert.ok(hit, `the VM ${vmName} is listed`);
    assert.equal(hit["Basis"], "Virtual machine: licensed on its host");
    assert.equal(hit["Requirement"], 0);
    const hostId = elp.computers.get(vm.computerId)?.hostComputerId;
    const host = devices.find((d) =>
      d["Computer"] === elp.computers.get(hostId)?.hostName &&
      d["Application"] === hit["Application"]
    );
    assert.ok(host, "its host is listed");
    assert.equal(host["Basis"], "Physical host: all its cores");
    assert.ok((host["Requirement"] as number) > 0);
  });

  it("restricts licenses, requirement and transfers to the organization parameter", async () => {
    const organization = "ORG06";
    const { out, want } = await positionsMatch({
      organization,
      params: { organization },
    });
    const { want: all } = await wholeEstate();
    assert.notDeepEqual(want, all, "the organization's position differs from the estate's");
    const name = (await rawOrganizationNames(generatedApi())).get(organization);
    assert.ok(name, `the tree names ${organization}`);
    assert.match(
      jsonSection(out.json, "positions").title,
      new RegExp(`\\(organization ${RegExp.escape(name)}, id ${organization}\\)$`),
    );
    // Scoped, the cross-check is with the allocation (license_position_allocation_test.ts),
    // which has no purchases: the summary's are the whole estate's.
    const figures = byLabel(jsonSection(out.json, "cross-check")).map((r) => r["Figure"]);
    assert.deepEqual(figures.filter((f) => f === "Purchased"), []);
  });

  it("positions only the applications a registry filter selects", async () => {
    // The second filter splits a family: transfers to and from versions it leaves out still
    // count for the versions it keeps, but the versions left out get no row.
    for (const filter of ["manufacturer -contains Oracle", "version -eq 2019"]) {
      await run({ filter });
      const labels = new Set([...elp.registry.keys()].map((id) => rawAppLabel(elp.registry, id)));
      assert.ok(rows.length > 0, filter);
      for (const r of rows) assert.ok(labels.has(r["Application"] as string), rowKey(r));
    }
  });

  it("shows the shortfall cost per currency in the PDF", async () => {
    const { want } = await wholeEstate();
    const out = await runAt(fixture.api, licensePosition, {
      now: TEST_NOW,
      formats: ["pdf"],
      query: generated,
    });
    const text = (await pdfText(out.file("pdf"))).replace(/\s+/g, " ");
    const grouped = new Intl.NumberFormat("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    assert.ok(text.includes("Effective license position"));
    const { perCurrency } = expectedFacts(want);
    assert.ok(perCurrency.size >= 2, "shortfalls in several currencies");
    for (const [cur, cents] of perCurrency) {
      assert.ok(text.includes(grouped.format(cents / 100)), `${cur} ${cents / 100} in the PDF`);
      assert.ok(text.includes(cur));
    }
  });

  it("fails on a bad price file naming the file, line and field, and writes nothing", async () => {
    for (
      const [line, field] of [
        ["Visio 2021,Installations,EUR,", "unitPrice"],
        ["Visio 2021,Installations,EURO,12", "currency"],
      ]
    ) {
      const path = await Deno.makeTempFile({ suffix: ".csv" });
      await Deno.writeTextFile(path, `application,metric,currency,unitPrice\nA,B,USD,1\n${line}\n`);
      const dir = await Deno.makeTempDir();
      await assert.rejects(
        runReportForTest({
          server: fixture.api,
          report: licensePosition,
          params: { priceFile: path },
          formats: ["json", "csv", "xlsx"],
          dir,
        }),
        (error: Error) => {
          assert.ok(error.message.includes(path), `${error.message} names the file`);
          assert.match(error.message, /\b3: /, "and the line");
          assert.ok(error.message.includes(field), `and the field ${field}`);
          return true;
        },
      );
      assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing is written");
    }
  });
});

describe("license-position (ELP) reconciliation and cross-check (400 computers, seed 1)", () => {
  const fixture = reference;
  const runJson = (query = createQueryContext()) =>
    runAt(fixture.api, licensePosition, { now: TEST_NOW, formats: ["json"], query });
  // The estate as generated (each test that changes the store puts it back): its run and raw ELP
  // are made once, from what the file's runs on it read; a run after a change is always made
  // anew, reading the changed store.
  let asGenerated: ReturnType<typeof runJson> | undefined;
  let asGeneratedElp: Promise<RawElp> | undefined;
  const generatedElp = () => asGeneratedElp ??= rawElp(generatedApi());
  const sectionRows = async (id: string, changed = false) => {
    const out = await (changed ? runJson() : asGenerated ??= runJson(generated));
    return byLabel(jsonSection(out.json, id));
  };

  it("lists exactly the positions that disagree with the entitlement states", async () => {
    const elp = await generatedElp();
    const want = new Set(
      [...elp.lines].filter(([, l]) => rawDisagrees(l)).map(([k]) => rawRowKey(elp, k)),
    );
    const got = (await sectionRows("reconciliation")).map(rowKey);
    assert.deepEqual(new Set(got), want);
    assert.equal(got.length, want.size);
  });

  it("has no disagreement with the entitlement states on the coherent reference estate", async () => {
    assert.deepEqual(await sectionRows("reconciliation"), []);
  });

  it("lists a surplus application once one of its installs is made Unlicensed", async () => {
    const elp = await generatedElp();
    const before = new Set((await sectionRows("reconciliation")).map(rowKey));
    const [key] = [...elp.lines].find(([, l]) =>
      rawFigures(l).surplus > 0 && l.uncovered === 0 && l.covered > 0
    )!;
    const line = elp.lines.get(key)!;
    const states = await rawFlat(
      fixture.api,
      `${LICENSES}/licenses/entitlements/entitlement-states`,
    );
    const unlicensed = states.find((s) => s.name === "Unlicensed")?.id;
    const install = fixture.srv.store.query({
      resource: "ComputerApplicationEntitlement",
      where: { applicationId: line.applicationId, metricId: line.metricId },
      limit: 1,
    }).rows[0];
    const where = { computerId: install.computerId, applicationId: line.applicationId };
    const changed = fixture.srv.store.update("computer_application_entitlements", where, {
      entitlementStateId: unlicensed,
    });
    assert.equal(changed, 1);
    try {
      const after = await sectionRows("reconciliation", true);
      const added = after.filter((r) => !before.has(rowKey(r)));
      assert.deepEqual(added.map(rowKey), [rawRowKey(elp, key)]);
      assert.match(
        added[0]["Difference"] as string,
        /^1 install Unlicensed or Under-licensed, but the position is a surplus of \d+ units?$/,
      );
      // Over the whole estate nothing explains it: the reason says so and where to look.
      assert.match(added[0]["Reason"] as string, /^Unexplained: 1 install Unlicensed/);
      assert.equal(after.length, before.size + 1);
    } finally {
      fixture.srv.store.update("computer_application_entitlements", where, {
        entitlementStateId: install.entitlementStateId,
      });
    }
  });

  it("equals the service's compliance summary, and lists an altered figure by name", async () => {
    assert.deepEqual(await sectionRows("cross-check"), []);
    const elp = await generatedElp();
    assert.deepEqual([...(await rawDifferences(fixture.api, elp)).keys()], []);
    const [key, line] = [...elp.lines].find(([, l]) => l.purchased > 0)!;
    const where = { applicationId: line.applicationId, metricId: line.metricId };
    const [summary] = fixture.srv.store.query({ resource: "ComplianceSummary", where, limit: 1 })
      .rows;
    fixture.srv.store.update("compliance_summaries", where, {
      licensesPurchased: line.purchased + 5,
      totalCoverage: rawFigures(line).entitlements - 2,
    });
    try {
      const want = await rawDifferences(fixture.api, elp);
      const name = rawRowKey(elp, key);
      assert.deepEqual([...want.keys()].sort(), [`${name}|Entitlements`, `${name}|Purchased`]);
      const out = await runAt(fixture.api, licensePosition, { now: TEST_NOW });
      await assertRows(out, {
        section: "cross-check",
        labels: CROSS_CHECK_LABELS,
        expected: want,
        keyOf: figureKey,
        fields: { samkit: "samkit", service: "Service" },
      });
    } finally {
      fixture.srv.store.update("compliance_summaries", where, {
        licensesPurchased: summary.licensesPurchased,
        totalCoverage: summary.totalCoverage,
      });
    }
  });
});

describe("license-position (ELP) on an empty estate", () => {
  it("renders every section with its no-data text", async () => {
    const out = await runOnEmptyStore(licensePosition);
    await assertNoData(out, {
      xlsx: [
        [POSITION_LABELS, "No licenses or requirements for these parameters."],
        [PUBLISHER_LABELS, "No data for these parameters."],
        [RECONCILIATION_LABELS, "No position to reconcile: no license or requirement was read."],
        [CROSS_CHECK_LABELS, "Nothing to cross-check: no license or requirement was read."],
        [DEVICE_LABELS, "No data for these parameters."],
      ],
      pdf: ["No licenses or requirements for these parameters."],
      csv: ["positions", "reconciliation", "cross-check", "devices"],
    });
  });
});

describe("the README's worked ELP row", () => {
  it("is the demo estate's row for Oracle Database 19c Enterprise Edition, figure for figure", async () => {
    const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
    const line = readme.split("\n").find((l) => l.startsWith("| Oracle Database 19c EE"));
    assert.ok(line, "the README shows the worked row");
    const cells = line.split("|").map((c) => c.trim()).filter(Boolean);
    const out = await runAt(reference.api, licensePosition, {
      now: TEST_NOW,
      formats: ["json"],
      query: generated,
    });
    const row = out.json.sections[0].rows.find((r: { application: string; metric: string }) =>
      r.application.startsWith("Oracle Database 19c Enterprise Edition") &&
      r.metric === "Processor cores"
    );
    assert.ok(row, "the demo estate has the row");
    const money = (n: number) =>
      `$${n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    assert.deepEqual(cells.slice(1), [
      row.metric,
      String(row.purchased),
      String(row.received),
      String(row.given),
      String(row.entitlements),
      String(row.requirement),
      String(row.position).replace("-", "−"),
      row.priceSource,
      money(row.unitPrice),
      money(row.shortfallCost),
    ]);
  });
});
