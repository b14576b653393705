import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  coreFactorOf,
  coreFactorRequirement,
  hardwareSocketMap,
  perCoreRequirement,
} from "../../reports/hardware_socket_map.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { getToken } from "../helpers/server.ts";
import {
  closeTestBrowser,
  pdfText,
  rawAll,
  rawOne,
  readCsv,
  readXlsx,
  runOnEmptyStore,
  runReportForTest,
  type RunReportForTestResult,
} from "../helpers/run_report.ts";
import { assertNoData, jsonSection as section } from "./support/checks.ts";
import { serverFixture } from "./support/fixture.ts";
import { createQueryContext } from "../../lib/query/context.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** The raw estate: hosts with their hardware, VMs with their host. */
interface Expected {
  computers: Json[];
  hosts: { computer: Json; hardware: Json | null }[];
  vms: { computer: Json; hostId: string | null }[];
  coverages: Json[];
  clusters: Json[];
}

async function expectedFrom(srv: RunningServer, token: string): Promise<Expected> {
  const computers = await rawAll(srv, "/api/sam/estate/v1/computers", token);
  const vms = [];
  for (const c of computers.filter((c) => c.isVirtual)) {
    const detail = await rawOne(srv, `/api/sam/estate/v1/computers/${c.id}`, token);
    vms.push({ computer: c, hostId: detail?.hostComputerId ?? null });
  }
  const hosted = new Set(vms.map((v) => v.hostId));
  const hosts = [];
  for (const c of computers.filter((c) => !c.isVirtual && (c.isServer || hosted.has(c.id)))) {
    const hardware = await rawOne(srv, `/api/sam/estate/v1/computers/${c.id}/hardware`, token);
    hosts.push({ computer: c, hardware });
  }
  const coverages = await rawAll(srv, "/api/sam/v1/extended-coverage", token);
  const clusters = await rawAll(srv, "/api/sam/estate/v1/dcc", token);
  return { computers, hosts, vms, coverages, clusters };
}

/** The two figures of a host, computed plainly (cores spread evenly over the processors). */
function figures(
  hw: Json,
  rule = { perCpu: 8, perServer: 16, pack: 2 },
  factors: Record<string, number> = { Intel: 0.5, AMD: 0.5 },
): { perCore: number; byFactor: number } {
  const wanted = Math.max(hw.coreCount, hw.processorCount * rule.perCpu, rule.perServer);
  const factor = factors[hw.processorManufacturer] ?? factors.default ?? 1;
  return {
    perCore: Math.ceil(wanted / rule.pack) * rule.pack,
    byFactor: Math.ceil(hw.coreCount * factor),
  };
}

// One PDF browser for the file: the estate's run and the empty estate's print on it.
after(closeTestBrowser);

describe("hardware-socket-map", () => {
  const fixture = serverFixture({ computers: 400 });
  let srv: RunningServer;
  let expected: Expected;
  let run: RunReportForTestResult;
  // No test changes the store: its runs share one query context, as a pack's reports do.
  const query = createQueryContext();

  before(async () => {
    srv = fixture.srv;
    expected = await expectedFrom(srv, await getToken(srv));
    run = await runReportForTest({
      server: srv,
      report: hardwareSocketMap,
      formats: ["json", "csv", "xlsx", "pdf"],
      query,
    });
  });

  it("lists every physical server and VM host with the raw per-core and core-factor figures", () => {
    const rows = section(run.json, "hosts").rows;
    assert.deepEqual(
      rows.map((r: Json) => r.hostName).sort(),
      expected.hosts.map((h) => h.computer.hostName).sort(),
    );
    for (const { computer, hardware } of expected.hosts) {
      const row = rows.find((r: Json) => r.hostName === computer.hostName);
      if (!hardware) continue;
      const f = figures(hardware);
      assert.equal(row.cores, hardware.coreCount, computer.hostName);
      assert.equal(row.processors, hardware.processorCount);
      assert.equal(row.sockets, hardware.socketCount);
      assert.equal(row.manualOverride, hardware.isSocketCountManualOverrideEnabled);
      assert.equal(row.perCoreRequirement, f.perCore, computer.hostName);
      assert.equal(row.coreFactorRequirement, f.byFactor, computer.hostName);
    }
  });

  it("a host without hardware data is listed with blanks and flagged", () => {
    const missing = expected.hosts.filter((h) => !h.hardware);
    assert.ok(missing.length >= 1, "the estate has a host without hardware");
    const rows = section(run.json, "hosts").rows;
    for (const { computer } of missing) {
      const row = rows.find((r: Json) => r.hostName === computer.hostName);
      assert.equal(row.note, "No hardware data");
      assert.equal(row.cores, null);
      assert.equal(row.perCoreRequirement, null);
      assert.equal(row.coreFactorRequirement, null);
    }
  });

  it("totals of both requirements equal the raw sums, in JSON, CSV, XLSX and PDF", async () => {
    let perCore = 0, byFactor = 0;
    for (const { hardware } of expected.hosts) {
      if (!hardware) continue;
      const f = figures(hardware);
      perCore += f.perCore;
      byFactor += f.byFactor;
    }
    const hosts = section(run.json, "hosts");
    const facts = run.result.document.summary;
    // The headlines add the hosts with hardware data, and say so.
    const n = expected.hosts.length, known = expected.hosts.filter((h) => h.hardware).length;
    const mark = " (hosts with hardware data)";
    assert.ok(known < n, "a host without hardware data");
    assert.equal(facts.find((f) => f.label === `Per-core requirement${mark}`)?.value, perCore);
    assert.equal(facts.find((f) => f.label === `Core-factor requirement${mark}`)?.value, byFactor);
    assert.equal(hosts.totals.All.perCoreRequirement, perCore);
    assert.equal(hosts.totals.All.coreFactorRequirement, byFactor);

    const csv = await readCsv(run.file("csv", "hosts"));
    assert.equal(csv.length, expected.hosts.length);
    const perCoreLabel = hosts.columns.find((c: Json) => c.key === "perCoreRequirement").label;
    const factorLabel = hosts.columns.find((c: Json) => c.key === "coreFactorRequirement").label;
    assert.equal(csv.reduce((s, r) => s + Number(r[perCoreLabel] || 0), 0), perCore);
    assert.equal(csv.reduce((s, r) => s + Number(r[factorLabel] || 0), 0), byFactor);

    const sheets = await readXlsx(run.file("xlsx"));
    const sheet = Object.values(sheets).find((r) => r[0]?.[0] === "Host");
    assert.ok(sheet, "the hosts sheet");
    const names = new Set(expected.hosts.map((h) => h.computer.hostName));
    const data = sheet.filter((r) => names.has(r[0] as string));
    assert.equal(data.length, expected.hosts.length);
    const at = sheet[0].indexOf(perCoreLabel), bt = sheet[0].indexOf(factorLabel);
    assert.equal(data.reduce((s, r) => s + Number(r[at] ?? 0), 0), perCore);
    assert.equal(data.reduce((s, r) => s + Number(r[bt] ?? 0), 0), byFactor);

    const text = await pdfText(run.file("pdf"));
    const fmt = (n: number) => n.toLocaleString("en-US");
    const totalLine = text.split("\n").find((l) =>
      l.includes(`Total · ${expected.hosts.length} rows`)
    );
    assert.ok(totalLine, "the hosts totals line");
    assert.ok(totalLine.includes(fmt(perCore)) && totalLine.includes(fmt(byFactor)), totalLine);
    assert.ok(text.includes("No hardware data"));
  });

  it("lists every VM under its raw host, each host's VMs together", () => {
    const rows = section(run.json, "virtual-machines").rows;
    assert.equal(rows.length, expected.vms.length);
    const hostName = new Map(expected.computers.map((c) => [c.id, c.hostName]));
    for (const { computer, hostId } of expected.vms) {
      const row = rows.find((r: Json) => r.hostName === computer.hostName);
      assert.equal(row.host, hostId ? hostName.get(hostId) : "(host unknown)");
    }
    const seen = new Set<string>();
    let current = "";
    for (const r of rows) {
      if (r.host === current) continue;
      assert.ok(!seen.has(r.host), `${r.host} rows are together`);
      seen.add(r.host);
      current = r.host;
    }
  });

  it("derives clusters from data-center coverages of VMs", () => {
    const name = new Map(expected.clusters.map((c) => [c.id, c.name]));
    const vmRows = section(run.json, "virtual-machines").rows;
    const covered = expected.coverages.filter((c) => c.isParentComputerDatacenter);
    assert.ok(covered.length > 0, "the estate has data-center coverages");
    const hostOf = new Map(expected.vms.map((v) => [v.computer.id, v.hostId]));
    const hostClusters = new Set<string>();
    for (const c of covered) {
      const vm = expected.vms.find((v) => v.computer.id === c.extendedComputerId);
      if (!vm) continue;
      const row = vmRows.find((r: Json) => r.hostName === vm.computer.hostName);
      assert.equal(row.cluster, name.get(c.parentComputerId));
      if (hostOf.get(vm.computer.id)) hostClusters.add(hostOf.get(vm.computer.id)!);
    }
    const hostRows = section(run.json, "hosts").rows;
    for (const id of hostClusters) {
      const host = expected.computers.find((c) => c.id === id);
      const row = hostRows.find((r: Json) => r.hostName === host.hostName);
      assert.ok(row.cluster, `${host.hostName} has a cluster`);
    }
  });

  it("the licensing parameters change the figures as the rule says", async () => {
    const params = {
      minCoresPerProcessor: 16,
      minCoresPerServer: 32,
      // Packs of 24: the server minimum (32) and most hosts' counts are not whole packs, so a
      // run that ignored the pack size would total less.
      corePackSize: 24,
      coreFactors: '{"Intel": 0.25, "default": 2}',
    };
    const { json } = await runReportForTest({
      server: srv,
      report: hardwareSocketMap,
      params,
      query,
    });
    let perCore = 0, byFactor = 0, unpacked = 0;
    const factors = { Intel: 0.25, default: 2 };
    for (const { hardware } of expected.hosts) {
      if (!hardware) continue;
      const f = figures(hardware, { perCpu: 16, perServer: 32, pack: 24 }, factors);
      perCore += f.perCore;
      byFactor += f.byFactor;
      unpacked += figures(hardware, { perCpu: 16, perServer: 32, pack: 1 }, factors).perCore;
    }
    assert.ok(perCore > unpacked, "the pack size changes the requirement here");
    const totals = section(json, "hosts").totals.All;
    assert.equal(totals.perCoreRequirement, perCore);
    assert.equal(totals.coreFactorRequirement, byFactor);
  });

  it("a bad coreFactors value is a parameter error", async () => {
    await assert.rejects(
      runReportForTest({
        server: srv,
        report: hardwareSocketMap,
        params: { coreFactors: '{"Intel": "half"}' },
      }),
      /coreFactors/,
    );
  });
});

describe("hardware-socket-map on an empty estate", () => {
  it("renders every section with its no-data text", async () => {
    const run = await runOnEmptyStore(hardwareSocketMap);
    await assertNoData(run, {
      pdf: [
        "No physical servers or virtualisation hosts match these parameters.",
        "No virtual machines match these parameters.",
      ],
    });
  });
});

describe("hardware-socket-map licensing rules", () => {
  it("per-core requirement equals max(cores, processors × min, server min) in whole packs", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 512 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 64 }),
      fc.integer({ min: 1, max: 16 }),
      (processors, cores, perCpu, perServer, pack) => {
        const rule = {
          minCoresPerProcessor: perCpu,
          minCoresPerServer: perServer,
          corePackSize: pack,
        };
        const want = Math.ceil(Math.max(cores, processors * perCpu, perServer) / pack) * pack;
        assert.equal(perCoreRequirement(processors, cores, rule), want);
      },
    ));
  });

  it("per-core requirement is blank without processors or cores", () => {
    const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
    assert.equal(perCoreRequirement(null, 16, rule), null);
    assert.equal(perCoreRequirement(2, null, rule), null);
  });

  it("core factors match part of the manufacturer's name, case-insensitively", () => {
    const factors = { Intel: 0.5, AMD: 0.75, default: 1.5 };
    assert.equal(coreFactorOf("GenuineIntel", factors), 0.5);
    assert.equal(coreFactorOf("AuthenticAMD", factors), 0.75);
    assert.equal(coreFactorOf("IBM", factors), 1.5);
    assert.equal(coreFactorOf(null, { Intel: 0.5 }), 1);
    assert.equal(coreFactorRequirement(6, 0.75), 5);
    assert.equal(coreFactorRequirement(10, 0.7), 7);
  });
});
