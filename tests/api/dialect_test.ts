import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import {
  REAL_REGISTRY_PREFIX,
  RegistryPrefix,
  registryPrefixes,
  SPEC_REGISTRY_PREFIX,
} from "../../lib/api/base_url.ts";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import { NotFoundError, ShapeError } from "../../lib/api/errors.ts";
import { openSource } from "../../lib/cli/source.ts";
import { UsageError } from "../../lib/cli/usage_error.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";

const NO_ENV = () => undefined;
const APPS = "/applications";

function clientOf(srv: RunningServer, extra: Parameters<typeof createClient>[0] = {}): SamClient {
  return createClient({
    baseUrl: srv.url,
    clientId: "demo",
    clientSecret: "demo-secret",
    env: NO_ENV,
    ...extra,
  });
}

/** Requests the server saw under a registry prefix (any path below it). */
function hits(srv: RunningServer, prefix: string): number {
  let n = 0;
  for (const [path, count] of srv.stats.byPath) if (path.startsWith(prefix + "/")) n += count;
  return n;
}

/** A server that knows the spec's registry spelling only (a strict spec service). */
const SPEC_ONLY = { computers: 20, dialect: "spec", registryAlias: false } as const;
const REAL = { computers: 20, dialect: "real" } as const;

describe("registry prefix detection", () => {
  it("uses the public spelling on the real dialect, never trying the spec's", async () => {
    await withServer(REAL, async (srv) => {
      const client = clientOf(srv);
      assert.equal(client.registryPrefix.settled, false);
      assert.equal(
        client.registryPrefix.describe(),
        `${REAL_REGISTRY_PREFIX} (not detected: no registry read was made)`,
      );
      const apps = await client.registry.applications().toArray();
      assert.ok(apps.length > 0);
      assert.equal(client.registryPrefix.describe(), `${REAL_REGISTRY_PREFIX} (detected)`);
      assert.equal(hits(srv, SPEC_REGISTRY_PREFIX), 0);
      // One read, and the second read that verifies it (registry pages state no total_items).
      assert.equal(srv.stats.path(REAL_REGISTRY_PREFIX + APPS), 2);
    });
  });

  it("falls back to the spec spelling on a 404 and remembers it for the client", async () => {
    await withServer(SPEC_ONLY, async (srv) => {
      const client = clientOf(srv);
      const apps = await client.registry.applications().toArray();
      const again = await client.registry.application(apps[0]!.id!);
      await client.registry.applications({ filter: "isEndOfLife -eq true" }).toArray();
      assert.equal(again.id, apps[0]!.id);
      assert.equal(client.registryPrefix.describe(), `${SPEC_REGISTRY_PREFIX} (detected)`);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 1, "one 404 under the public spelling");
      assert.equal(hits(srv, SPEC_REGISTRY_PREFIX), 5, "two reads of each list, one object");
      const other = clientOf(srv);
      await other.registry.applications().toArray();
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 2, "each client detects for itself");
    });
  });

  it("detects once when many registry reads start together", async () => {
    await withServer(SPEC_ONLY, async (srv) => {
      const ids = (await clientOf(srv).registry.applications().toArray()).slice(0, 8)
        .map((a) => a.id!);
      const before = hits(srv, REAL_REGISTRY_PREFIX);
      const client = clientOf(srv);
      const got = await Promise.all(ids.map((id) => client.registry.application(id)));
      assert.deepEqual(got.map((a) => a.id), ids);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX) - before, 1);
    });
  });

  it("does not flip on an unknown id: a 404 under both spellings settles nothing", async () => {
    await withServer(REAL, async (srv) => {
      const client = clientOf(srv);
      const error = await client.registry.application("NO-SUCH-APP").catch((e) => e);
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.path, `${REAL_REGISTRY_PREFIX}${APPS}/NO-SUCH-APP`);
      assert.equal(client.registryPrefix.settled, false);
      assert.equal(
        client.registryPrefix.describe(),
        `${REAL_REGISTRY_PREFIX} (not detected: no registry request answered)`,
      );
      await client.registry.applications().toArray();
      assert.equal(client.registryPrefix.describe(), `${REAL_REGISTRY_PREFIX} (detected)`);
      const before = hits(srv, SPEC_REGISTRY_PREFIX);
      const again = await client.registry.application("NO-SUCH-APP").catch((e) => e);
      assert.ok(again instanceof NotFoundError);
      assert.equal(hits(srv, SPEC_REGISTRY_PREFIX), before, "settled: no second spelling tried");
      assert.equal(client.registryPrefix.current, REAL_REGISTRY_PREFIX);
    });
  });

  it("keeps a detected spec spelling through an unknown id", async () => {
    await withServer(SPEC_ONLY, async (srv) => {
      const client = clientOf(srv);
      await client.registry.applications().toArray();
      const error = await client.registry.application("NO-SUCH-APP").catch((e) => e);
      assert.ok(error instanceof NotFoundError);
      assert.equal(client.registryPrefix.current, SPEC_REGISTRY_PREFIX);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 1);
    });
  });

  it("does not detect on a failure other than 404", async () => {
    const prefix = new RegistryPrefix(registryPrefixes({ env: NO_ENV }));
    const tried: string[] = [];
    const error = await prefix.use((p) => {
      tried.push(p);
      return Promise.reject(new TypeError("connection reset"));
    }).catch((e) => e);
    assert.ok(error instanceof TypeError);
    assert.deepEqual(tried, [REAL_REGISTRY_PREFIX]);
    assert.equal(prefix.settled, false);
  });
});

describe("registry prefix overrides", () => {
  it("takes the option as the only prefix: no fallback, no detection", async () => {
    await withServer(REAL, async (srv) => {
      const client = clientOf(srv, { registryPrefix: "softwareregistry" });
      const error = await client.registry.applications().toArray().catch((e) => e);
      assert.ok(error instanceof NotFoundError);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 0);
      assert.equal(client.registryPrefix.describe(), `${SPEC_REGISTRY_PREFIX} (set by option)`);
    });
  });

  it("takes SAM_REGISTRY_PREFIX when no option is given, and the option over it", async () => {
    await withServer(SPEC_ONLY, async (srv) => {
      const env = (name: string) => name === "SAM_REGISTRY_PREFIX" ? "softwareregistry" : undefined;
      const client = clientOf(srv, { env });
      assert.ok((await client.registry.applications().toArray()).length > 0);
      assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 0);
      assert.equal(
        client.registryPrefix.describe(),
        `${SPEC_REGISTRY_PREFIX} (SAM_REGISTRY_PREFIX)`,
      );
      const both = clientOf(srv, { env, registryPrefix: "/api/sam/software-registry/v1/" });
      assert.equal(both.registryPrefix.current, REAL_REGISTRY_PREFIX);
    });
  });

  it("refuses a prefix that is not a segment or a path, naming the setting", () => {
    assert.throws(
      () => registryPrefixes({ registryPrefix: "soft ware?x=1" }),
      /registryPrefix "soft ware\?x=1" is not a path segment/,
    );
    assert.throws(
      () => registryPrefixes({ env: () => "a b" }),
      /SAM_REGISTRY_PREFIX "a b"/,
    );
  });

  it("passes --registry-prefix through the CLI source, and refuses a bad one as usage", async () => {
    await withServer({ ...SPEC_ONLY, token: "dialect-test-token" }, async (srv) => {
      const api = await openSource({
        baseUrl: srv.url,
        token: "dialect-test-token",
        registryPrefix: "softwareregistry",
      });
      try {
        await api.client.registry.applications().toArray();
        assert.equal(
          api.client.registryPrefix.describe(),
          `${SPEC_REGISTRY_PREFIX} (set by option)`,
        );
        assert.equal(hits(srv, REAL_REGISTRY_PREFIX), 0);
      } finally {
        await api.close();
      }
      const error = await openSource({ baseUrl: srv.url, token: "t", registryPrefix: "a b" })
        .catch((e) => e);
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^--registry-prefix "a b" is not a path segment/);
    });
  });
});

/** A (applicationId, computerId) pair with a computer transfer in the server's estate. */
function transferKey(srv: RunningServer): [string, string] {
  const r = RESOURCES.ComputerTransferDetail;
  const { rows } = srv.store.query({ resource: r.name, where: {}, limit: 1, noTotal: true });
  const row = rows[0];
  assert.ok(row, "the estate has a computer transfer");
  return [String(row[r.columnOf("toApplicationId")]), String(row[r.columnOf("computerId")])];
}

describe("license transfers for a computer", () => {
  it("reads the spec's one object and the real service's paged collection alike", async () => {
    const read = (dialect: "spec" | "real") =>
      withServer({ computers: 40, dialect }, async (srv) => {
        const [app, computer] = transferKey(srv);
        const items = await clientOf(srv).licenses.computerTransfer(app, computer).toArray();
        return items.map(({ links: _links, ...rest }) => rest);
      });
    const [spec, real] = [await read("spec"), await read("real")];
    assert.equal(spec.length, 1);
    assert.ok(real.length >= 1);
    assert.deepEqual(real[0], spec[0]);
    for (const item of real) {
      const values = Object.values(item).filter((v) => v !== null && v !== undefined);
      assert.ok(values.length >= 4, `an item with only ${values.length} values: never all-null`);
    }
  });

  it("reads the object form once even at one item per page", async () => {
    await withServer({ computers: 40 }, async (srv) => {
      const [app, computer] = transferKey(srv);
      const client = clientOf(srv);
      const items = await client.licenses.computerTransfer(app, computer, { pageSize: 1 })
        .toArray();
      assert.equal(items.length, 1);
      assert.equal(items[0]!.computerId, computer);
    });
  });

  it("pages an envelope and refuses an envelope whose items are not objects", async () => {
    const item = (n: number) => ({
      computerId: "C1",
      toApplicationId: "A1",
      fromApplicationId: `F${n}`,
    });
    const bodies = [
      { items: [item(1), item(2)], pagination: { page_number: 1, page_size: 2, total_pages: 2 } },
      { items: [item(3)], pagination: { page_number: 2, page_size: 2, total_pages: 2 } },
    ];
    const fake: typeof fetch = (input) => {
      const page = Number(new URL(String(input)).searchParams.get("page_number"));
      return Promise.resolve(Response.json(bodies[page - 1]));
    };
    const client = createClient({
      baseUrl: "http://x.invalid",
      token: "t",
      fetch: fake,
      env: NO_ENV,
    });
    const items = await client.licenses.computerTransfer("A1", "C1", { pageSize: 2 }).toArray();
    assert.deepEqual(items.map((i) => i.fromApplicationId), ["F1", "F2", "F3"]);

    const bad: typeof fetch = () => Promise.resolve(Response.json({ items: [1], pagination: {} }));
    const broken = createClient({
      baseUrl: "http://x.invalid",
      token: "t",
      fetch: bad,
      env: NO_ENV,
    });
    const error = await broken.licenses.computerTransfer("A1", "C1").toArray().catch((e) => e);
    assert.ok(error instanceof ShapeError, String(error));
    assert.match(error.message, /licenses\.computerTransfer/);
  });

  it("refuses the one-object form when it is for another computer", async () => {
    const other: typeof fetch = () =>
      Promise.resolve(Response.json({ computerId: "C2", toApplicationId: "A1" }));
    const client = createClient({
      baseUrl: "http://x.invalid",
      token: "t",
      fetch: other,
      env: NO_ENV,
    });
    const error = await client.licenses.computerTransfer("A1", "C1").toArray().catch((e) => e);
    assert.ok(error instanceof ShapeError, String(error));
    assert.match(error.message, /computerId "C2"/);
  });
});
