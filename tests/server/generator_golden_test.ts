/**
 * The golden estate: a small generated estate (120 computers, seed 5, the default "now") must
 * stay byte for byte what it was. Every test, demo and benchmark runs on the generator's
 * estate, so a change that moves a single value or random draw is seen here first, with the
 * tables it touched named.
 *
 * Each table is pinned by its row count and the first 16 hex digits of the SHA-256 of its rows
 * as JSON lines in emission order; the whole stream (table, tab, row) is pinned as well, which
 * also catches rows moved between tables or reordered across them.
 *
 * To change the estate deliberately: make the change, run
 * `deno test -P=test --no-prompt tests/server/generator_golden_test.ts`, check that the tables
 * named in the failure are the ones the change meant to touch (and no others), then paste the
 * "actual" values printed by the failing assertions into GOLDEN_TABLES and GOLDEN_STREAM below,
 * and say in the commit message that the estate changed and why.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, type Hash } from "node:crypto";
import { generateEstate } from "../../lib/server/generator.ts";

const GOLDEN_OPTIONS = { computers: 120, seed: 5 } as const;

/** Table → "rows sha256-prefix"; tables the estate leaves empty are not listed. */
const GOLDEN_TABLES: Record<string, string> = {
  computers: "120 66953495d52c5240",
  computer_contracts: "28 1c36a41143937b4f",
  computer_costs: "120 b9f8137a70cc812c",
  logon_history: "159 9b283a065ca2d875",
  environment_variables: "688 c789ca352fc8ebd6",
  computer_applications: "881 a7e658ca9fa86d7c",
  application_usage: "785 d986e91fac7c45a8",
  user_application_usage: "714 ee8ecf05faf40fdd",
  application_usage_summary: "77 890a242a7a610cf0",
  display_adapters: "119 bcdbb499463ddf78",
  drives: "172 bfb0b97d2e23b10e",
  logical_disks: "159 1a8db78e224f0553",
  monitors: "121 0b4fa61001256c28",
  network_adapters: "149 56418ddccf4a5f72",
  processors: "151 e4e0124443b75cb1",
  hardware: "119 328594c236e0c462",
  socket_maps: "119 5724c399cc9fd69c",
  registry_entries: "436 7da7eb069724b5ad",
  metric_tracking: "205 30bf76fc58165bf0",
  data_center_clusters: "3 90eb6731db81cf40",
  licenses: "58 ed65d1284e8f37b5",
  license_upgrades: "11 8fec60be59750368",
  computer_transfers: "34 99f9756870c488a5",
  custom_value_transfers: "4 a19fe9f5ea100115",
  application_transfer_summaries: "83 4208e011101356a1",
  user_transfers: "2 62a467d04420faac",
  computer_tracking: "116 2c75427a549c8a65",
  application_tracking_summaries: "79 61778eeb17ee9883",
  user_tracking: "56 2499289621c7eb14",
  policies: "3 b412347fdeac04dc",
  policy_fields: "10 064ab55e1a7de8e4",
  entitlements: "69 6f6bc45263ee70bf",
  computer_application_entitlements: "200 ad6886008a16cb99",
  entitlement_states: "6 ad9d4722014c7195",
  extended_coverage_types: "5 d4200fe78f99a567",
  extended_coverages: "10 89271b5868b6ab77",
  license_costs: "70 a0c8d4b24d106bf1",
  license_cost_summaries: "55 b9071da09ab98d21",
  computer_assignments: "20 1563a8217edc2d9a",
  datacenter_assignments: "2 a3e4bf29856a9874",
  assignment_summaries: "58 efd7d638f6b70d57",
  organization_assignments: "46 c95cec4dc33ffb0c",
  user_assignments: "56 f80f1ffe25f7d51f",
  registry_applications: "92 1fc1a0d7cc4c7c31",
  connectors: "6 34837246729c8fdd",
  retrievals: "62 fd1fe1ba5a85aba9",
  compliance_summaries: "58 4532b8146303d155",
  compliance_allocations: "170 a67983794a44ea19",
  compliance_usages: "58 fc78054e38753d07",
  organization_nodes: "10 e37aacb1138c955e",
  registry_metrics: "92 e2ccff2b70038a1d",
  maintenance_periods: "105 6d08583791b2c181",
  virtual_machines: "29 5b4406ba7404fde8",
  dcc_members: "4 4354aa5079c4fe62",
  dcc_history: "36 7778c521ccb25120",
  user_entitlements: "62 5437017f36237d0b",
  user_accounts: "88 4e6475e63b568a20",
};

/** SHA-256 of the whole stream: `table\tJSON\n` per row, in emission order. */
const GOLDEN_STREAM = "42b3c176c4ebfa2faeda2f81071c00009a13912dc0af59fbabd66d6a61e83494";

interface Fingerprint {
  readonly tables: Record<string, string>;
  readonly stream: string;
}

/** Hash an estate's rows per table and as one stream. */
function fingerprint(options: { computers: number; seed: number }): Fingerprint {
  const perTable = new Map<string, { hash: Hash; rows: number }>();
  const stream = createHash("sha256");
  generateEstate(options, (table, row) => {
    const line = `${JSON.stringify(row)}\n`;
    let entry = perTable.get(table);
    if (!entry) perTable.set(table, entry = { hash: createHash("sha256"), rows: 0 });
    entry.hash.update(line);
    entry.rows++;
    stream.update(`${table}\t${line}`);
  });
  const tables: Record<string, string> = {};
  for (const [table, { hash, rows }] of perTable) {
    tables[table] = `${rows} ${hash.digest("hex").slice(0, 16)}`;
  }
  return { tables, stream: stream.digest("hex") };
}

describe("generator golden estate (120 computers, seed 5)", () => {
  const actual = fingerprint(GOLDEN_OPTIONS);

  it("every table keeps its row count and row bytes", () => {
    assert.deepEqual(actual.tables, GOLDEN_TABLES);
  });

  it("the whole row stream keeps its bytes and order across tables", () => {
    assert.equal(actual.stream, GOLDEN_STREAM);
  });

  it("a different seed gives a different fingerprint (the check can fail)", () => {
    const other = fingerprint({ computers: GOLDEN_OPTIONS.computers, seed: 6 });
    assert.notEqual(other.stream, GOLDEN_STREAM);
    assert.notEqual(other.tables.computers, GOLDEN_TABLES.computers);
  });
});
