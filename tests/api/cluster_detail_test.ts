/**
 * `GET /dcc/{id}` read whichever shape it comes in: one cluster, an envelope holding it, or the
 * vendor document's envelope of hypervisor types (then the cluster comes from `/dcc`).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import { NotFoundError, ShapeError } from "../../lib/api/errors.ts";
import { withServer } from "../helpers/server.ts";

/** A fetch that answers `/dcc/{id}` with `body` and passes every other call through. */
const answering = (body: (id: string) => unknown): typeof fetch => async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const m = /\/dcc\/([^/]+)$/.exec(url.pathname);
  if (!m) return await fetch(input, init);
  return new Response(JSON.stringify(body(decodeURIComponent(m[1]!))), {
    headers: { "content-type": "application/json" },
  });
};

const DOCUMENTED = () => ({
  items: [{ id: 1, name: "VMware ESXi" }, { id: 2, name: "Hyper-V" }],
  pagination: { page_size: 100, page_number: 1, total_pages: 1 },
});

describe("estate.dataCenterCluster", () => {
  it("reads the document's hypervisor-type answer past, taking the cluster from /dcc", async () => {
    await withServer({ computers: 200, dialect: "real" }, async (srv) => {
      const plain = createClient({
        baseUrl: srv.url,
        auth: { clientId: "demo", clientSecret: "demo-secret" },
      });
      const tolerant = createClient({
        baseUrl: srv.url,
        auth: { clientId: "demo", clientSecret: "demo-secret" },
        fetch: answering(DOCUMENTED),
      });
      const [listed] = await plain.estate.dataCenterClusters().toArray();
      const direct = await plain.estate.dataCenterCluster(listed.id!);
      const viaList = await tolerant.estate.dataCenterCluster(listed.id!);
      assert.deepEqual({ ...viaList, links: undefined }, { ...direct, links: undefined });
      await assert.rejects(
        tolerant.estate.dataCenterCluster("DCC99"),
        (e) => e instanceof NotFoundError && /hypervisor types/.test(e.message),
      );
    });
  });

  it("reads an envelope holding the cluster, and still refuses an answer of no shape", async () => {
    await withServer({ computers: 200 }, async (srv) => {
      const auth = { clientId: "demo", clientSecret: "demo-secret" };
      const plain = createClient({ baseUrl: srv.url, auth });
      const [listed] = await plain.estate.dataCenterClusters().toArray();
      const raw = { id: listed.id, name: listed.name, hypervisor: "Other", isVMwareDRS: true };
      const enveloped = createClient({
        baseUrl: srv.url,
        auth,
        fetch: answering(() => ({ items: [raw], pagination: { page_number: 1 } })),
      });
      const got = await enveloped.estate.dataCenterCluster(listed.id!);
      assert.equal(got.hypervisor, "Other");
      assert.equal(got.isVendorDRS, true);
      const broken = createClient({ baseUrl: srv.url, auth, fetch: answering(() => "oops") });
      await assert.rejects(
        broken.estate.dataCenterCluster(listed.id!),
        (e) => e instanceof ShapeError && /estate\.dataCenterCluster/.test(e.message),
      );
      const other = createClient({
        baseUrl: srv.url,
        auth,
        fetch: answering(() => ({ ...raw, id: "DCC77" })),
      });
      await assert.rejects(other.estate.dataCenterCluster(listed.id!), ShapeError);
    });
  });
});
