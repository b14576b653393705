/**
 * A service whose entity lists come without ids (computers, licenses, registry families, entitlement
 * states, users): an item without its id can be joined with nothing and read in detail by
 * nothing, and the run's lookup by id put every such computer under one key, `null` —
 * hardware-socket-map, entitlement-state-by-computer and stale-computers all exited 0 with no
 * rows. An entity list's item without an id now fails the read, naming the operation and the
 * item, and those reports fail and write nothing; a list under a parent (a computer's
 * applications) whose resource has no id is read as before.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import {
  entitlementStateByComputer,
  hardwareSocketMap,
  staleComputers,
} from "../../reports/mod.ts";

const TOKEN = "tok-hostile-missing-ids-0123456789";

/** What `read` gives over a service answering every page with `items` (errors too). */
async function readWith(read: (c: SamClient) => Promise<unknown>, items: unknown[]) {
  const srv = serveHostile(() => Response.json({ items }));
  try {
    const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
    return await read(client).then((got) => got, (e) => e);
  } finally {
    await srv.close();
  }
}

/** An entity list, and an item of it (its id left to the test). */
const LISTS: [string, (c: SamClient) => Promise<unknown>, Record<string, unknown>][] = [
  ["estate.computers", (c) => c.estate.computers().toArray(), { hostName: "pc-two" }],
  ["licenses.list", (c) => c.licenses.list().toArray(), { name: "pc-two", quantity: 1 }],
  ["registry.families", (c) => c.registry.families().toArray(), { name: "pc-two" }],
  ["estate.userDiscoveries", (c) => c.estate.userDiscoveries().toArray(), { userName: "pc-two" }],
  [
    "licenses.entitlementStates",
    (c) => c.licenses.entitlementStates().toArray(),
    { name: "pc-two" },
  ],
];

describe("an entity list's item without an id", () => {
  for (const [op, read, item] of LISTS) {
    it(`fails ${op}, naming the operation and the item`, async () => {
      for (const id of [undefined, null, ""]) {
        const error = await readWith(read, [{ ...item, id: "X1" }, { ...item, id }]);
        assert.ok(error instanceof ShapeError, `${id}: read as ${JSON.stringify(error)}`);
        assert.match(error.message, new RegExp(`^${op.replace(".", "\\.")} `));
        assert.match(error.message, /item 2 of page 1 has no id .*pc-two/);
      }
    });
  }

  it("is read as before in a list under a parent whose items carry no id", async () => {
    const got = await readWith(
      (c) => c.estate.computerApplications("C1").toArray(),
      [{ computerId: "C1", name: "Office" }],
    );
    assert.ok(Array.isArray(got), String(got));
    assert.equal(got.length, 1);
  });
});

describe("reports over a computer list without ids", () => {
  let server: RunningServer;
  let proxy: FaultProxy;
  before(async () => {
    server = await startServer({ port: 0, computers: 12, seed: 2, quiet: true, token: "t" });
    proxy = startFaultProxy({ upstream: server.url });
    proxy.inject({
      kind: "editBody",
      path: /^\/api\/sam\/estate\/v1\/computers$/,
      times: Infinity,
      edit: (t) => t.replace(/"id":"C\d+",/g, ""),
    });
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  for (const report of [hardwareSocketMap, entitlementStateByComputer, staleComputers]) {
    it(`fail ${report.id}, naming the computers and the missing id, and write nothing`, async () => {
      const base = await Deno.makeTempDir({ prefix: "samkit-hostile-ids-" });
      const dir = `${base}/out`;
      try {
        const error = await runReportForTest({
          server: { url: proxy.url, token: "t" },
          // deno-lint-ignore no-explicit-any
          report: report as any,
          formats: ["json", "csv"],
          dir,
        }).then(() => undefined, (e: Error) => e);
        assert.ok(error instanceof ShapeError, `the report finished: ${error}`);
        assert.match(error.message, /^estate\.computers .*: item 1 of page 1 has no id/);
        const written = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
        assert.deepEqual(written, [], "files written");
      } finally {
        await Deno.remove(base, { recursive: true });
      }
    });
  }
});
