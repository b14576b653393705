/**
 * The reads of the public service that the spec lacks (issue 10), through the client against the
 * reference server: typed and normalised, paged, coherent with the estate, 404 for unknown ids.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { NotFoundError, ShapeError } from "../../lib/api/errors.ts";
import { TEST_NOW, withServer } from "../helpers/server.ts";

const clientOf = (url: string, fetchFn?: typeof fetch): SamClient =>
  createClient({
    baseUrl: url,
    auth: { clientId: "demo", clientSecret: "demo-secret" },
    ...(fetchFn ? { fetch: fetchFn } : {}),
  });

const rejectsNotFound = (p: Promise<unknown>, what: string) =>
  assert.rejects(p, (e) => e instanceof NotFoundError, what);

describe("compliance summary through the client", () => {
  it("equals coverage minus requirement per application and metric, with allocation adding up", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const apps = await client.registry.applications().toArray();
      let summaries = 0;
      for (const app of apps) {
        const rows = await client.licenses.complianceSummary(app.id!).toArray();
        const allocation = await client.licenses.complianceAllocation(app.id!).toArray();
        const usage = await client.licenses.complianceUsage(app.id!).toArray();
        for (const s of rows) {
          summaries++;
          assert.equal(s.applicationId, app.id);
          assert.equal(typeof s.totalCoverage, "number");
          assert.equal(
            s.compliance,
            s.totalCoverage! - s.licenseRequirement!,
            `${app.id} ${s.metricId}`,
          );
          assert.equal(
            s.totalCoverage,
            s.licensesPurchased! + s.downgradesReceived! + s.crossEditionReceived! -
              s.downgradesGiven! - s.crossEditionGiven!,
          );
          assert.equal(s.availableLicenses, Math.max(0, s.compliance!));
          const mine = allocation.filter((a) => a.metricId === s.metricId);
          const sum = (f: "requirement" | "coverage" | "compliance") =>
            mine.reduce((t, a) => t + a[f]!, 0);
          assert.equal(sum("requirement"), s.licenseRequirement);
          assert.equal(sum("coverage"), s.totalCoverage);
          assert.equal(sum("compliance"), s.compliance);
          const u = usage.find((x) => x.metricId === s.metricId)!;
          assert.equal(u.isPartial, u.mainCoverage! < s.licenseRequirement!);
        }
      }
      assert.ok(summaries > 10, `only ${summaries} summaries`);
    });
  });

  it("answers 404 for an application the registry does not know", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const client = clientOf(srv.url);
      await rejectsNotFound(client.licenses.complianceSummary("APP9999").toArray(), "summary");
      await rejectsNotFound(
        client.licenses.complianceAllocation("APP9999").toArray(),
        "allocation",
      );
      await rejectsNotFound(client.licenses.complianceUsage("APP9999").toArray(), "usage");
    });
  });
});

describe("organisation tree through the client", () => {
  it("names every organizationId the estate uses, with parents in the tree", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const nodes = await client.organizations.tree().toArray();
      const byId = new Map(nodes.map((n) => [n.id, n]));
      for (const n of nodes) {
        assert.equal(typeof n.name, "string");
        assert.equal(typeof n.isLegal, "boolean");
        if (n.parentId !== null) assert.ok(byId.has(n.parentId), `${n.id}: parent ${n.parentId}`);
      }
      assert.equal(nodes.filter((n) => n.parentId === null).length, 1, "one root");
      const used = new Set<string | null>();
      for (const c of await client.estate.computers().toArray()) used.add(c.organizationId);
      for (const l of await client.licenses.list().toArray()) used.add(l.organizationId);
      used.delete(null);
      for (const id of used) assert.ok(byId.has(id), `organisation ${id} has no name`);
      const node = await client.organizations.node(nodes[1].id!);
      assert.deepEqual({ ...node, links: undefined }, { ...nodes[1], links: undefined });
      await rejectsNotFound(client.organizations.node("ORG99"), "node");
    });
  });

  it("refuses a tree answer without a nodes array, naming the operation", async () => {
    await withServer({ computers: 10 }, async (srv) => {
      const broken: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        if (!String(input instanceof Request ? input.url : input).includes("/tree")) return res;
        await res.body?.cancel();
        return new Response(JSON.stringify({ items: [] }), {
          headers: { "content-type": "application/json" },
        });
      };
      await assert.rejects(
        clientOf(srv.url, broken).organizations.tree().toArray(),
        (e) => e instanceof ShapeError && /organizations\.tree .*no nodes array/.test(e.message),
      );
    });
  });
});

describe("registry metrics through the client", () => {
  it("name every license's metric with a list price in USD for licensed products", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const licenses = await client.licenses.list().toArray();
      const pairs = new Set(licenses.map((l) => `${l.applicationId}|${l.metricId}`));
      for (const pair of pairs) {
        const [app, metric] = pair.split("|") as [string, string];
        const metrics = await client.registry.metrics(app).toArray();
        const m = metrics.find((x) => x.id === metric);
        assert.ok(m, `${app} has no metric ${metric}`);
        assert.equal(typeof m.name, "string");
        assert.ok(typeof m.licenseCost === "number" && m.licenseCost > 0, `${pair} price`);
        assert.equal(m.licenseCostCurrency, "USD");
        const one = await client.registry.metric(app, metric);
        assert.equal(one.licenseCost, m.licenseCost);
      }
      assert.ok(pairs.size > 5);
      await rejectsNotFound(client.registry.metrics("APP9999").toArray(), "metrics");
      await rejectsNotFound(client.registry.metric(licenses[0].applicationId!, "MET99"), "metric");
    });
  });
});

describe("maintenance periods through the client", () => {
  it("ended ones add up to each license's accumulated costs, the running one costs the current", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const pages = [];
      for await (const page of client.licenses.maintenancePeriods({ pageSize: 25 }).pages()) {
        pages.push(page);
      }
      assert.ok(pages.length > 1, "several pages");
      const all = pages.flatMap((p) => p.items);
      assert.ok(all.every((p) => p.validFrom instanceof Date && p.validTo instanceof Date));
      const cents = (v: number | null) => Math.round((v ?? 0) * 100);
      const licenseIds = [...new Set(all.map((p) => p.licenseId!))];
      for (const id of licenseIds.slice(0, 15)) {
        const periods = await client.licenses.licenseMaintenancePeriods(id).toArray();
        assert.deepEqual(
          periods.map((p) => p.id),
          all.filter((p) => p.licenseId === id).map((p) => p.id),
        );
        const costs = await client.licenses.costsSummary(id);
        const ended = periods.filter((p) => p.validTo! <= TEST_NOW);
        const running = periods.filter((p) => p.validFrom! <= TEST_NOW && TEST_NOW < p.validTo!);
        const maintenance = ended.reduce((t, p) => t + cents(p.maintenanceCost), 0);
        const support = ended.reduce((t, p) => t + cents(p.supportCost), 0);
        assert.equal(maintenance, cents(costs.accumulatedMaintenanceCost), `${id} maintenance`);
        assert.equal(support, cents(costs.accumulatedSupportCost), `${id} support`);
        assert.equal(running.length, 1, `${id} has one running period`);
        assert.equal(cents(running[0].maintenanceCost), cents(costs.currentMaintenanceCost), id);
        assert.equal(ended.length + 1, periods.length, `${id}: no period in the future`);
        for (const p of periods) assert.equal(p.purchaseCurrency, costs.currency);
      }
      await rejectsNotFound(
        client.licenses.licenseMaintenancePeriods("LIC99999").toArray(),
        "license",
      );
    });
  });
});

describe("virtual machines and clusters through the client", () => {
  it("lists each host's guests, whose own records name that host", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const computers = await client.estate.computers().toArray();
      const ids = new Set(computers.map((c) => c.id));
      const guests = await client.estate.computers({ filter: "isVirtual -eq true" }).toArray();
      const hosts = new Set<string>();
      for (const g of guests) {
        const detail = await client.estate.computer(g.id!);
        if (detail.hostComputerId) hosts.add(detail.hostComputerId);
      }
      assert.ok(hosts.size > 0);
      let vms = 0;
      for (const host of hosts) {
        assert.ok(ids.has(host), `host ${host} exists`);
        for await (const vm of client.estate.virtualMachines(host, { pageSize: 3 })) {
          vms++;
          assert.ok(ids.has(vm.id), `VM ${vm.id} is a computer`);
          assert.equal((await client.estate.computer(vm.id!)).hostComputerId, host);
          assert.ok(vm.lastScanDate instanceof Date);
          assert.equal(vm.isInventoried, true);
        }
      }
      assert.ok(vms > 0);
      await rejectsNotFound(client.estate.virtualMachines("C999999").toArray(), "host");
    });
  });

  it("reads a cluster, its members and its history; the latest count is its members' guests", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const clusters = await client.estate.dataCenterClusters().toArray();
      assert.ok(clusters.length > 0);
      for (const c of clusters) {
        const detail = await client.estate.dataCenterCluster(c.id!);
        assert.equal(detail.name, c.name);
        const members = await client.estate.dccMembers(c.id!).toArray();
        let guests = 0;
        for (const m of members) {
          assert.equal((await client.estate.dccMember(c.id!, m.id!)).computerId, m.computerId);
          guests += (await client.estate.virtualMachines(m.computerId!).toArray()).length;
        }
        const history = await client.estate.dccHistory(c.id!).toArray();
        assert.ok(history.length > 0 && history.every((h) => h.virtualMachineDate instanceof Date));
        const latest = history.reduce((a, b) =>
          a.virtualMachineDate! > b.virtualMachineDate! ? a : b
        );
        assert.equal(latest.virtualMachineCount, guests, `${c.id}: latest VM count`);
      }
      await rejectsNotFound(client.estate.dataCenterCluster("DCC99"), "cluster");
      await rejectsNotFound(client.estate.dccMembers("DCC99").toArray(), "members");
      await rejectsNotFound(client.estate.dccHistory("DCC99").toArray(), "history");
    });
  });
});

describe("users, user entitlements and tracking per computer through the client", () => {
  it("has an account for every user the estate references, with the user's latest logon", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const accounts = await client.estate.userAccounts({ pageSize: 50 }).toArray();
      const byId = new Set(accounts.map((a) => a.id));
      const entitlements = await client.licenses.userEntitlements().toArray();
      assert.ok(entitlements.length > 0);
      const states = new Set(
        (await client.licenses.entitlementStates().toArray()).map((s) => s.id),
      );
      for (const e of entitlements) {
        assert.ok(byId.has(e.userId), `entitled user ${e.userId} has an account`);
        assert.ok(states.has(e.entitlementStateId), `state ${e.entitlementStateId}`);
      }
      const user = entitlements[0].userId!;
      const detail = await client.estate.userAccount(user);
      const logons = await client.estate.userLogonHistory(user).toArray();
      const latest = Math.max(...logons.map((l) => l.lastLogon!.getTime()));
      assert.equal(detail.lastLogon?.getTime(), latest);
      await rejectsNotFound(client.estate.userAccount("U99999"), "user");
    });
  });

  it("reads a computer's license tracking, equal to the application view of it", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const client = clientOf(srv.url);
      const tracked = await client.licenses.computerTracking(
        (await client.licenses.list().toArray())[0].applicationId!,
      ).toArray();
      const computer = tracked[0]?.computerId ??
        (await client.estate.computers().toArray())[0].id!;
      const rows = await client.licenses.computerLicenseTracking(computer!).toArray();
      assert.ok(rows.length > 0, `${computer}: no tracking rows`);
      for (const r of rows) assert.equal(r.computerId, computer);
      for (const r of rows) {
        const detail = await client.licenses.computerTrackingDetail(r.applicationId!, computer!)
          .toArray();
        assert.ok(detail.some((d) => d.id === r.id), `${r.id} in the application view`);
      }
      await rejectsNotFound(
        client.licenses.computerLicenseTracking("C999999").toArray(),
        "computer",
      );
    });
  });
});
