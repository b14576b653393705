/**
 * A service that sends numbers where text is expected: an id of 12345678901234567890 (read as
 * 12345678901234567000 once parsed), a host name of `1e999` (read as Infinity). Such a value is
 * not the one the service meant, so it is refused, naming the operation, the item and the field,
 * on collections, single reads and the further reads alike, and a report over it writes nothing;
 * a number exact in a double is still read as its text. A negative zero is read as zero, so no
 * report shows "-$0.00".
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { NormalisationError } from "../../lib/api/errors.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { licenseCostSummary } from "../../reports/mod.ts";

const TOKEN = "tok-hostile-numbers-0123456789";

/** Runs `fn` with a client of a server answering every GET with the JSON text `body`. */
async function withBody(body: string, fn: (client: SamClient) => Promise<void>) {
  const srv = serveHostile(() =>
    new Response(body, { headers: { "content-type": "application/json" } })
  );
  try {
    await fn(createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined, retries: 0 }));
  } finally {
    await srv.close();
  }
}

/** A read, the JSON it is answered with, and what the error must name. */
interface Case {
  readonly what: string;
  readonly read: (c: SamClient) => Promise<unknown>;
  readonly body: string;
  readonly message: RegExp;
}

const CASES: readonly Case[] = [
  {
    what: "a license id beyond 2^53 in the license list",
    read: (c) => c.licenses.list().toArray(),
    body: '{"items":[{"id":"L1","quantity":1},{"id":12345678901234567890,"quantity":2}]}',
    message: /^licenses\.list: License\.id of item "12345678901234567000" \(item 2 of page 1\)/,
  },
  {
    what: "a computer id of 1e999 in the computer list",
    read: (c) => c.estate.computers().toArray(),
    body: '{"items":[{"id":1e999,"hostName":"h1"}]}',
    message: /^estate\.computers: Computer\.id of item "Infinity" \(item 1 of page 1\)/,
  },
  {
    what: "a host name of 1e999 on a computer read by id",
    read: (c) => c.estate.computer("C1"),
    body: '{"id":"C1","hostName":1e999}',
    message: /^estate\.computer: ComputerDetail\.hostName of item "C1": cannot read Infinity/,
  },
  {
    what: "a family name beyond 2^53 on a further registry read",
    read: (c) => c.registry.family("F1"),
    body: '{"id":"F1","name":98765432109876543210}',
    message:
      /^registry\.family: RegistryFamily\.name of item "F1": cannot read 98765432109876540000/,
  },
  {
    what: "a user id beyond 2^53 in a further estate read",
    read: (c) => c.estate.userDiscoveries().toArray(),
    body: '{"items":[{"id":-9007199254740993,"userName":"u"}]}',
    message: /^estate\.userDiscoveries: UserDiscovery\.id of item "-9007199254740992"/,
  },
];

describe("numbers where text is expected", () => {
  for (const { what, read, body, message } of CASES) {
    it(`refuses ${what}, naming the operation, the item and the field`, async () => {
      await withBody(body, async (client) => {
        const error = await read(client).then(() => undefined, (e) => e);
        assert.ok(error instanceof NormalisationError, `read as ${JSON.stringify(error)}`);
        assert.match(error.message, message);
        assert.match(error.message, /exact/);
      });
    });
  }

  it("reads a number exact in a double as its text", async () => {
    await withBody(
      '{"items":[{"id":9007199254740991,"hostName":-12.5},{"id":0,"hostName":1e3}]}',
      async (client) => {
        const computers = await client.estate.computers().toArray();
        assert.deepEqual(computers.map((c) => [c.id, c.hostName]), [
          ["9007199254740991", "-12.5"],
          ["0", "1000"],
        ]);
      },
    );
  });
});

describe("negative zero", () => {
  it("is read as zero, as a JSON number and as text", async () => {
    await withBody(
      '{"items":[{"id":"L1","quantity":-0,"purchaseValue":"-0.00"},{"id":"L2","quantity":"-0"}]}',
      async (client) => {
        const licenses = await client.licenses.list().toArray();
        for (const l of licenses) {
          assert.ok(Object.is(l.quantity, 0), `${l.id} quantity ${Object.is(l.quantity, -0)}`);
        }
        assert.ok(Object.is(licenses[0]!.purchaseValue, 0));
      },
    );
  });
});

describe("a report over a license list with an id beyond 2^53", () => {
  let server: RunningServer;
  let proxy: FaultProxy;
  before(async () => {
    server = await startServer({ port: 0, computers: 20, seed: 5, quiet: true, token: "t" });
    proxy = startFaultProxy({ upstream: server.url });
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  it("fails license-cost-summary naming the operation, item and field, and writes nothing", async () => {
    proxy.inject({
      kind: "editBody",
      path: /^\/api\/sam\/v1\/licenses$/,
      times: Infinity,
      edit: (t) => t.replace(/"id":"LIC\d+"/, '"id":12345678901234567890'),
    });
    const base = await Deno.makeTempDir({ prefix: "samkit-hostile-numbers-" });
    const dir = `${base}/out`;
    try {
      const error = await runReportForTest({
        server: { url: proxy.url, token: "t" },
        report: licenseCostSummary,
        formats: ["json", "csv"],
        dir,
      }).then(() => undefined, (e: Error) => e);
      assert.ok(proxy.fired > 0);
      assert.ok(error instanceof NormalisationError, `the report finished: ${error}`);
      assert.match(error.message, /^licenses\.list: License\.id of item "12345678901234567000"/);
      const written = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
      assert.deepEqual(written, [], "files written");
    } finally {
      proxy.inject(undefined);
      await Deno.remove(base, { recursive: true });
    }
  });
});
