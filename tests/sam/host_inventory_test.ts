import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { hostNote, isHost, vmCounts, vmHosts, vmNote } from "../../lib/sam/host_inventory.ts";
import { hostClusters } from "../../lib/sam/data_center_clusters.ts";

describe("host inventory", () => {
  it("a host is a physical server or a physical computer running VMs", () => {
    const vmHost = vmHosts(
      new Map([["V1", { hostComputerId: "H1" }], ["V2", { hostComputerId: "H1" }], ["V3", null]]),
    );
    const counts = vmCounts(vmHost);
    assert.deepEqual([...counts], [["H1", 2]]);
    assert.equal(isHost({ id: "H1", isVirtual: false, isServer: false }, counts), true);
    assert.equal(isHost({ id: "S1", isVirtual: null, isServer: true }, counts), true);
    assert.equal(isHost({ id: "V9", isVirtual: true, isServer: true }, counts), false);
    assert.equal(isHost({ id: "W1", isVirtual: false, isServer: null }, counts), false);
  });

  it("notes what is missing", () => {
    assert.equal(hostNote(null, null), "No hardware data");
    assert.equal(hostNote({}, {}), null);
    assert.equal(vmNote({}, null), "No hardware data");
    assert.equal(vmNote({}, {}), null);
  });

  it("a host's cluster is the one most of its VMs are in, ties to the smaller id", () => {
    const vmHost = new Map([["V1", "H1"], ["V2", "H1"], ["V3", "H2"], ["V4", "H2"]]);
    const covered = new Map([["V1", "DCC9"], ["V2", "DCC10"], ["V3", "DCC2"], ["V4", "DCC2"]]);
    const clusters = hostClusters(vmHost, covered);
    assert.equal(clusters.get("H1"), "DCC10"); // code-point order on a tie
    assert.equal(clusters.get("H2"), "DCC2");
  });
});
