/**
 * hardware-socket-map recomputed from its printed rows with this file's own arithmetic, under a
 * per-core rule and core factors that are not the defaults: each host's per-core requirement
 * (cores per processor raised to the minimum, the server minimum, packs), its core-factor
 * requirement, its VM count from the VM table, every total and headline. A host whose hardware
 * is unknown has unknown requirements: a table or headline of only such hosts is blank, never 0.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { hardwareSocketMap } from "../../reports/hardware_socket_map.ts";
import { createQueryContext } from "../../lib/query/context.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { serverFixture } from "./support/fixture.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const PARAMS = {
  minCoresPerProcessor: 12,
  minCoresPerServer: 32,
  corePackSize: 4,
  coreFactors: { Intel: 0.5, AMD: 0.75, default: 1 },
};
const SUMMED = [
  "vms",
  "sockets",
  "processors",
  "cores",
  "logicalProcessors",
  "perCoreRequirement",
  "coreFactorRequirement",
];

const headline = (run: Json, label: string) =>
  run.result.document.summary.find((f: Json) => f.label === label)?.value;

describe("hardware-socket-map recomputed from its printed rows (400 computers)", () => {
  const fixture = serverFixture({ computers: 400 });
  const query = createQueryContext();

  it("per host, in total and in the headlines, with a non-default per-core rule", async () => {
    const run = await runReportForTest({
      server: fixture.srv,
      report: hardwareSocketMap,
      params: PARAMS,
      query,
    });
    const [hosts, vms] = run.json.sections;
    const perHost = new Map<string, number>();
    for (const vm of vms.rows) perHost.set(vm.host, (perHost.get(vm.host) ?? 0) + 1);
    let applied = 0;
    for (const h of hosts.rows) {
      assert.equal(h.vms, perHost.get(h.hostName) ?? 0, `${h.hostName}: VMs`);
      if (h.cores === null) {
        assert.equal(h.perCoreRequirement, null, `${h.hostName}: unknown cores, unknown need`);
        assert.equal(h.coreFactorRequirement, null, h.hostName);
        continue;
      }
      const factor = /Intel/i.test(h.processorType) ? 0.5 : /AMD/i.test(h.processorType) ? 0.75 : 1;
      assert.equal(h.coreFactor, factor, `${h.hostName}: core factor of ${h.processorType}`);
      assert.equal(h.coreFactorRequirement, Math.ceil(h.cores * factor), h.hostName);
      if (h.perCoreRequirement === null) continue; // not x86: the note says so
      applied++;
      const each = h.cores / h.processors;
      const wanted = Math.max(h.processors * Math.max(each, 12), 32);
      assert.equal(h.perCoreRequirement, Math.ceil(wanted / 4) * 4, `${h.hostName}: per core`);
    }
    assert.ok(applied > 10, "the per-core rule was applied to x86 hosts");
    for (const key of SUMMED) {
      const sum = hosts.rows.reduce((t: number, h: Json) => t + (h[key] ?? 0), 0);
      assert.equal(hosts.totals.All[key], sum, `total ${key}`);
    }
    // A headline over hosts that may lack hardware data names the hosts it adds.
    const marked = (label: string, _key: string) => `${label} (hosts with hardware data)`;
    const perCore = marked("Per-core requirement", "perCoreRequirement");
    assert.equal(headline(run, perCore), hosts.totals.All.perCoreRequirement);
    const byFactor = marked("Core-factor requirement", "coreFactorRequirement");
    assert.equal(headline(run, byFactor), hosts.totals.All.coreFactorRequirement);
    assert.equal(headline(run, marked("Physical cores", "cores")), hosts.totals.All.cores);
    assert.equal(headline(run, "Servers and hosts"), hosts.rows.length);
    assert.equal(
      headline(run, "Without hardware data"),
      hosts.rows.filter((h: Json) => h.note === "No hardware data").length,
    );
  });

  it("leaves the figures of a host without hardware data blank, in the total and headlines", async () => {
    const run = await runReportForTest({
      server: fixture.srv,
      report: hardwareSocketMap,
      params: PARAMS,
      query,
      filter: "hostName -eq US-HV-00100",
    });
    const [hosts] = run.json.sections;
    assert.equal(hosts.rows.length, 1);
    assert.equal(hosts.rows[0].note, "No hardware data");
    for (const key of ["sockets", "processors", "cores", "perCoreRequirement"]) {
      assert.equal(hosts.rows[0][key], null, key);
      assert.equal(hosts.totals.All[key], undefined, `total ${key}: unknown, not 0`);
    }
    const named = (label: string) => `${label} (hosts with hardware data)`;
    assert.equal(headline(run, named("Per-core requirement")), null, "unknown, not 0");
    assert.equal(headline(run, named("Core-factor requirement")), null, "unknown, not 0");
    assert.equal(headline(run, named("Physical cores")), null, "unknown, not 0");
    assert.equal(headline(run, "Without hardware data"), 1);
  });
});
