/**
 * A service that answers a collection read under a parent (a computer's applications, an
 * application's license tracking, a cluster's applications) with items of another parent — it
 * ignored the path parameter, or a gateway rewrote the path: the items name their parent, and an
 * item naming another one than the path asked for fails the read, naming the operation, the item
 * and the field, as a single object read for another id already did. Taking them would file one
 * computer's (or application's) rows under another without a word. An item that does not name
 * its parent is read as before.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { ShapeError } from "../../lib/api/errors.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { licensePosition } from "../../reports/mod.ts";

const TOKEN = "tok-hostile-scope-0123456789";

/** A read under a parent, the field its items name the parent by, and the parent asked for. */
interface Scoped {
  readonly op: string;
  readonly read: (c: SamClient) => Promise<unknown[]>;
  readonly field: string;
  readonly asked: string;
  /** An item of the resource, the parent field left out. */
  readonly item: Record<string, unknown>;
  /** Sent as one flat object per page rather than an envelope. */
  readonly flat?: true;
}

const SCOPED: readonly Scoped[] = [
  {
    op: "estate.computerApplications",
    read: (c) => c.estate.computerApplications("C1").toArray(),
    field: "computerId",
    asked: "C1",
    item: { applicationId: "A1", name: "Office" },
  },
  {
    op: "estate.processors",
    read: (c) => c.estate.processors("C1").toArray(),
    field: "computerId",
    asked: "C1",
    item: { name: "Xeon", coreCount: 8 },
  },
  {
    op: "licenses.computerTracking",
    read: (c) => c.licenses.computerTracking("A1").toArray(),
    field: "applicationId",
    asked: "A1",
    item: { computerId: "C1", licenseId: "L1" },
  },
  {
    op: "licenses.costs",
    read: (c) => c.licenses.costs("L1").toArray(),
    field: "licenseId",
    asked: "L1",
    item: { organizationId: "O1", currency: "USD" },
  },
  {
    op: "estate.userMetering",
    read: (c) => c.estate.userMetering("U1").toArray(),
    field: "userId",
    asked: "U1",
    item: { applicationId: "A1", usedCount: 3 },
  },
  {
    op: "licenses.complianceUsage",
    read: (c) => c.licenses.complianceUsage("A1").toArray(),
    field: "applicationId",
    asked: "A1",
    item: { metricId: "M1", mainCoverage: 2 },
  },
  {
    op: "licenses.computerTransfer",
    read: (c) => c.licenses.computerTransfer("A1", "C1").toArray(),
    field: "computerId",
    asked: "C1",
    item: { toApplicationId: "A1", fromApplicationId: "F1" },
  },
  {
    op: "estate.monitors",
    read: (c) => c.estate.monitors("C1").toArray(),
    field: "computerId",
    asked: "C1",
    item: { name: "Screen" },
    flat: true,
  },
];

/** Runs `read` against a service answering one item with `parent` in its parent field. */
async function readWith(s: Scoped, parent: string | null | undefined): Promise<unknown> {
  const item = parent === undefined ? s.item : { ...s.item, [s.field]: parent };
  const srv = serveHostile((_req, url) =>
    url.pathname.endsWith("/applications/A1") // the registry's check that the parent exists
      ? Response.json({ id: "A1", name: "App" })
      : Response.json(s.flat ? { ...item, _links: [] } : { items: [item] })
  );
  try {
    const client = createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined });
    return await s.read(client).then((items) => items, (e) => e);
  } finally {
    await srv.close();
  }
}

describe("items of another parent than the path asked for", () => {
  for (const s of SCOPED) {
    it(`fail ${s.op}, naming the operation, the item and ${s.field}`, async () => {
      const error = await readWith(s, `${s.asked}-OTHER`);
      assert.ok(error instanceof ShapeError, `read as ${JSON.stringify(error)}`);
      assert.match(error.message, new RegExp(`^${s.op.replace(".", "\\.")} `));
      assert.match(
        error.message,
        new RegExp(
          `(item 1 of page 1|the response) is for ${s.field} "${s.asked}-OTHER", not the .* asked`,
        ),
      );
    });

    it(`are read by ${s.op} when they name the parent asked for, in any case, or none`, async () => {
      for (const parent of [s.asked, s.asked.toLowerCase(), null, undefined]) {
        const items = await readWith(s, parent);
        assert.ok(Array.isArray(items), `${parent}: ${items}`);
        assert.equal(items.length, 1, String(parent));
      }
    });
  }
});

describe("a report over a service that answers an application's tracking with another's", () => {
  let server: RunningServer;
  let proxy: FaultProxy;
  before(async () => {
    server = await startServer({ port: 0, computers: 12, seed: 2, quiet: true, token: "t" });
    proxy = startFaultProxy({ upstream: server.url });
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  it("fails license-position naming the operation and the field, and writes nothing", async () => {
    proxy.inject({
      kind: "editBody",
      path: /^\/api\/sam\/v1\/licenses\/tracking\/[^/]+\/computers$/,
      times: Infinity,
      edit: (t) => t.replace(/"applicationId":"[^"]+"/g, '"applicationId":"APP-ELSEWHERE"'),
    });
    const base = await Deno.makeTempDir({ prefix: "samkit-hostile-scope-" });
    const dir = `${base}/out`;
    try {
      const error = await runReportForTest({
        server: { url: proxy.url, token: "t" },
        report: licensePosition,
        formats: ["json", "csv"],
        dir,
      }).then(() => undefined, (e: Error) => e);
      assert.ok(proxy.fired > 0, "the report read no application's tracking");
      assert.ok(error instanceof ShapeError, `the report finished: ${error}`);
      assert.match(error.message, /^licenses\.computerTracking .*applicationId "APP-ELSEWHERE"/);
      const written = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
      assert.deepEqual(written, [], "files written");
    } finally {
      proxy.inject(undefined);
      await Deno.remove(base, { recursive: true });
    }
  });
});
