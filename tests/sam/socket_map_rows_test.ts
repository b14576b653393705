import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { hostRows, vmRows } from "../../lib/sam/socket_map_rows.ts";
import { DEFAULT_CORE_FACTORS } from "../../lib/sam/processor_licensing.ts";

const rules = {
  rule: { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 },
  factors: DEFAULT_CORE_FACTORS,
};

describe("socket map rows", () => {
  it("a host row: socket map's make, else the computer's; figures from the hardware", () => {
    const computer = { id: "H1", hostName: null, manufacturer: "Dell", model: "R740" };
    const hardware = { socketCount: 2, processorCount: 2, coreCount: 40 };
    const socketMap = { manufacturer: "HPE", model: null, socketCount: 2 };
    const inventory = {
      hosts: [
        { computer, hardware, socketMap, vms: 3 },
        { computer: { ...computer, hostName: "h2" }, hardware: null, socketMap: null, vms: 0 },
      ],
    };
    const clusters = { ofHost: (id: string) => `DC-${id}` };
    const [full, bare] = hostRows(inventory as never, clusters, rules);
    assert.equal(full.hostName, "H1");
    assert.equal(full.manufacturer, "HPE");
    assert.equal(full.model, "R740");
    assert.equal(full.cluster, "DC-H1");
    assert.equal(full.vms, 3);
    assert.equal(full.perCoreRequirement, 40);
    assert.equal(full.coreFactorRequirement, 40);
    assert.equal(full.note, null);
    assert.equal(bare.manufacturer, "Dell");
    assert.equal(bare.perCoreRequirement, null);
    assert.equal(bare.note, "No hardware data");
  });

  it("VM rows: known hosts first, by host then name, cluster of the VM or its host", () => {
    const vm = (id: string, host: string, hostId: string | null) => ({
      computer: { id, hostName: id, operatingSystem: "Linux", isServer: true },
      detail: hostId ? { hostComputerId: hostId } : null,
      hardware: id === "V1" ? { processorCount: 1, coreCount: 4, logicalProcessorCount: 8 } : null,
      hostId,
      host,
      hypervisor: "KVM",
    });
    const inventory = {
      vms: [vm("V4", "(host unknown)", null), vm("V3", "h2", "H2"), vm("V2", "h1", "H1")].concat(
        vm("V1", "h2", "H2"),
      ),
    };
    const clusters = {
      ofVm: (id: string, hostId: string | null) => hostId ? `${id}@${hostId}` : null,
    };
    const rows = vmRows(inventory as never, clusters);
    assert.deepEqual(rows.map((r) => r.hostName), ["V2", "V1", "V3", "V4"]);
    assert.equal(rows[1].cluster, "V1@H2");
    assert.equal(rows[1].cores, 4);
    assert.equal(rows[1].note, null);
    assert.equal(rows[3].note, "No computer detail; No hardware data");
  });
});
