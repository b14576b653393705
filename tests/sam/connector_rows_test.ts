import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createQueryContext } from "../../lib/query/context.ts";
import { type ConnectorContext, connectorRows } from "../../lib/sam/connector_rows.ts";

const at = (d: string) => new Date(`${d}T00:00:00Z`);
const connectors = [
  { id: "K2", name: "Azure", type: "azure", createdAt: at("2023-01-01"), status: null },
  {
    id: "K1",
    name: null,
    type: "aws",
    createdAt: at("2023-12-15"),
    status: { type: "failed", errorCode: " E1 ", updatedAt: at("2024-02-01") },
  },
  { id: null, name: "ghost", type: "aws", createdAt: null, status: null },
];
const records: Record<string, unknown[]> = {
  K2: [
    { calendarMonth: "2024-01-01", type: "succeeded", lastSuccessTime: at("2024-01-05") },
    { calendarMonth: "2023-12-01", type: "failed", errorCode: "E9" },
  ],
};

function stubContext(): ConnectorContext & { loaded: string[] } {
  const loaded: string[] = [];
  const client = {
    connectors: {
      list: () => connectors,
      retrievals: (id: string) => (loaded.push(id), records[id] ?? []),
    },
  };
  return { client, query: createQueryContext(), loaded } as unknown as
    & ConnectorContext
    & { loaded: string[] };
}

describe("connector rows", () => {
  it("one row per connector with an id, by name, with status, figures and month counts", async () => {
    const ctx = stubContext();
    const { connectors: rows } = await connectorRows(ctx, ["2024-01", "2023-12", "2023-11"]);
    assert.deepEqual(
      rows.map((r) => [r.connector, r.errorCode, r.retrievals, r.monthsOk, r.monthsFailed]),
      [["(unnamed) (K1)", "E1", 0, 0, 0], ["Azure", null, 2, 1, 1]],
    );
    assert.deepEqual(rows[1].lastSuccess, at("2024-01-05"));
    assert.deepEqual([rows[0].monthsNeverRan, rows[1].monthsNeverRan], [2, 1]);
    assert.deepEqual(ctx.loaded.sort(), ["K1", "K2"]);
  });

  it("one row per connector and month, connector by connector, most recent month first", async () => {
    const { months } = await connectorRows(stubContext(), ["2024-01", "2023-12", "2023-11"]);
    assert.deepEqual(months.map((m) => [m.connector, m.month, m.status, m.flagged]), [
      ["(unnamed) (K1)", "2024-01", "Never ran", true],
      ["(unnamed) (K1)", "2023-12", "Never ran", true],
      ["(unnamed) (K1)", "2023-11", "Not created", false],
      ["Azure", "2024-01", "OK", false],
      ["Azure", "2023-12", "Failed", true],
      ["Azure", "2023-11", "Never ran", true],
    ]);
  });
});
