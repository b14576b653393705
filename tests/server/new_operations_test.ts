/**
 * The reference server's tables and routes for the reads of the public service that the spec
 * lacks (issue 10): generated data recomputed from the estate's own rows, wire shapes per area,
 * and 404s for unknown parents.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { collectEstate } from "../../lib/server/generator.ts";
import { ORGANIZATIONS } from "../../lib/server/generator_catalogue.ts";
import { api, errorMessage, getToken, withServer } from "../helpers/server.ts";

type Row = Record<string, unknown>;
const estate = collectEstate({ seed: 3, computers: 300 });
const rows = (table: string): Row[] => estate.get(table) ?? [];
const sumBy = (list: Row[], key: (r: Row) => string, value: (r: Row) => number) => {
  const out = new Map<string, number>();
  for (const r of list) out.set(key(r), (out.get(key(r)) ?? 0) + value(r));
  return out;
};
const appMetric = (r: Row) => `${r.applicationId}|${r.metricId}`;
const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);

describe("generated tables of the public service's extra reads", () => {
  it("compliance: requirement from installs, coverage from license quantities and transfers", () => {
    const requirement = sumBy(rows("metric_tracking"), appMetric, (r) => Number(r.requirement));
    const purchased = sumBy(rows("licenses"), appMetric, (r) => Number(r.quantity));
    const transfers = [...rows("computer_transfers"), ...rows("user_transfers")];
    const given = sumBy(
      transfers,
      (r) => `${r.fromApplicationId}|${r.metricId}`,
      (r) => Number(r.quantity),
    );
    const received = sumBy(
      transfers,
      (r) => `${r.toApplicationId}|${r.metricId}`,
      (r) => Number(r.quantity),
    );
    const summaries = rows("compliance_summaries");
    assert.ok(summaries.length > 10);
    const keys = new Set([...requirement.keys(), ...purchased.keys()]);
    assert.deepEqual(new Set(summaries.map(appMetric)), new Set([...keys, ...given.keys()]));
    for (const s of summaries) {
      const k = appMetric(s);
      const coverage = (purchased.get(k) ?? 0) + (received.get(k) ?? 0) - (given.get(k) ?? 0);
      assert.equal(s.licenseRequirement, requirement.get(k) ?? 0, `${k} requirement`);
      assert.equal(s.licensesPurchased, purchased.get(k) ?? 0, `${k} purchased`);
      assert.equal(s.totalCoverage, coverage, `${k} coverage`);
      assert.equal(s.compliance, coverage - (requirement.get(k) ?? 0), `${k} compliance`);
    }
    assert.ok(summaries.some((s) => Number(s.compliance) < 0), "some shortfall");
    assert.ok(summaries.some((s) => Number(s.compliance) > 0), "some surplus");
  });

  it("compliance allocation: requirement by the computer's organisation, adding up", () => {
    const orgOf = new Map(rows("computers").map((c) => [c.id, c.organizationId]));
    const byOrg = sumBy(
      rows("metric_tracking"),
      (r) => `${appMetric(r)}|${orgOf.get(r.computerId)}`,
      (r) => Number(r.requirement),
    );
    for (const a of rows("compliance_allocations")) {
      assert.equal(a.requirement, byOrg.get(`${appMetric(a)}|${a.organizationId}`) ?? 0);
      assert.equal(a.compliance, Number(a.coverage) - Number(a.requirement));
    }
  });

  it("maintenance periods: whole years since purchase adding up to accumulated costs, then the running one", () => {
    const summary = new Map(rows("license_cost_summaries").map((s) => [s.licenseId, s]));
    const periods = rows("maintenance_periods");
    assert.ok(periods.length > 0);
    const byLicense = Map.groupBy(periods, (p) => p.licenseId);
    for (const [id, list] of byLicense) {
      const s = summary.get(id)!;
      assert.ok(s, `${id} has costs`);
      const ended = list.slice(0, -1);
      const running = list.at(-1)!;
      const total = (f: string) => ended.reduce((t, p) => t + cents(p[f]), 0);
      assert.equal(total("maintenanceCost"), cents(s.accumulatedMaintenanceCost), `${id}`);
      assert.equal(total("supportCost"), cents(s.accumulatedSupportCost), `${id}`);
      assert.equal(cents(running.maintenanceCost), cents(s.currentMaintenanceCost), `${id}`);
      assert.equal(cents(running.supportCost), cents(s.currentSupportCost), `${id}`);
      assert.ok(ended.every((p) => String(p.validTo) <= String(running.validFrom)), `${id}`);
      for (const p of list) {
        const span = Date.parse(String(p.validTo)) - Date.parse(String(p.validFrom));
        assert.equal(span, 365 * 86_400_000, `${p.id} spans a year`);
      }
    }
    for (const s of summary.values()) {
      if (cents(s.accumulatedMaintenanceCost) + cents(s.accumulatedSupportCost) === 0) continue;
      assert.ok(byLicense.has(s.licenseId), `${s.licenseId} has accumulated costs but no period`);
    }
  });

  it("virtual machines: every guest under its host, hosts and members are computers", () => {
    const computers = new Map(rows("computers").map((c) => [c.id, c]));
    const guests = rows("computers").filter((c) => c.hostComputerId !== null);
    const vms = rows("virtual_machines");
    assert.equal(vms.length, guests.length);
    for (const vm of vms) {
      assert.equal(computers.get(vm.id)?.hostComputerId, vm.hostComputerId, `${vm.id}`);
      assert.ok(computers.has(vm.hostComputerId), `host ${vm.hostComputerId}`);
      assert.equal(vm.name, computers.get(vm.id)?.hostName);
    }
    for (const m of rows("dcc_members")) assert.ok(computers.has(m.computerId), `${m.id}`);
    const clusters = new Set(rows("data_center_clusters").map((c) => c.id));
    for (const h of rows("dcc_history")) assert.ok(clusters.has(h.clusterId), `${h.id}`);
  });

  it("organisation nodes and registry metrics name every id the estate uses", () => {
    const nodes = new Set(rows("organization_nodes").map((n) => n.id));
    assert.equal(nodes.size, ORGANIZATIONS.length);
    for (const table of ["computers", "licenses", "license_costs", "compliance_allocations"]) {
      for (const r of rows(table)) {
        if (r.organizationId !== null) assert.ok(nodes.has(r.organizationId), `${table}`);
      }
    }
    const metrics = new Set(rows("registry_metrics").map((m) => `${m.applicationId}|${m.id}`));
    for (const l of rows("licenses")) assert.ok(metrics.has(appMetric(l)), `${l.id}`);
  });

  it("is deterministic and empty with no computers", () => {
    const again = collectEstate({ seed: 3, computers: 300 });
    for (const t of ["compliance_summaries", "user_accounts", "maintenance_periods"]) {
      assert.deepEqual(again.get(t), rows(t), t);
    }
    const empty = collectEstate({ seed: 3, computers: 0 });
    for (const t of ["organization_nodes", "registry_metrics", "virtual_machines"]) {
      assert.equal(empty.get(t)?.length, 0, t);
    }
  });
});

describe("routes of the public service's extra reads", () => {
  it("pages as their area does: estate with total_items, licenses with total_pages only", async () => {
    await withServer({ computers: 60 }, async (srv) => {
      const token = await getToken(srv);
      const estate = await api(srv, "/api/sam/estate/v1/user-accounts?page_size=7", { token });
      assert.equal(estate.status, 200);
      assert.deepEqual(Object.keys(estate.body.pagination).sort(), [
        "page_number",
        "page_size",
        "total_items",
        "total_pages",
      ]);
      assert.equal(estate.body.items.length, 7);
      const lic = await api(srv, "/api/sam/v1/licenses/maintenance-periods?page_size=5", {
        token,
      });
      assert.equal(lic.status, 200);
      assert.deepEqual(Object.keys(lic.body.pagination).sort(), [
        "page_number",
        "page_size",
        "total_pages",
      ]);
    });
  });

  it("sends the organisation tree as {nodes} without links or paging", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const tree = await api(srv, "/api/organizations/v1/tree", { token });
      assert.equal(tree.status, 200);
      assert.deepEqual(Object.keys(tree.body), ["nodes"]);
      assert.equal(tree.body.nodes.length, ORGANIZATIONS.length);
      assert.deepEqual(Object.keys(tree.body.nodes[0]).sort(), [
        "externalId",
        "id",
        "isLegal",
        "name",
        "parentId",
      ]);
      const node = await api(srv, "/api/organizations/v1/node/ORG06", { token });
      assert.equal(node.body.name, ORGANIZATIONS[5].name);
    });
  });

  it("answers 404 naming the unknown parent", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const cases: [string, RegExp][] = [
        ["/api/sam/v1/compliance/summary/APP9999", /RegistryApplication "APP9999"/],
        ["/api/sam/softwareregistry/v1/applications/APP9999/metrics", /"APP9999"/],
        ["/api/sam/estate/v1/computers/C999999/virtual-machines", /ComputerDetail "C999999"/],
        ["/api/sam/estate/v1/dcc/DCC99/members", /DataCenterCluster "DCC99"/],
        ["/api/sam/v1/licenses/LIC99999/maintenance-periods", /License "LIC99999"/],
        ["/api/sam/v1/licenses/tracking-computers/C999999", /"C999999"/],
        ["/api/sam/estate/v1/user-accounts/U99999", /user-accounts\/U99999/],
        ["/api/organizations/v1/node/ORG99", /node\/ORG99/],
      ];
      for (const [path, message] of cases) {
        assert.match(errorMessage(await api(srv, path, { token }), 404), message, path);
      }
    });
  });
});
