import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type FieldSpec,
  type FlagEnumName,
  RESOURCES,
  visibleFields,
} from "../../lib/api/catalogue.ts";
import { flagNames } from "../../lib/api/flag_enums.ts";
import { expandPath, OPERATIONS, type OperationSpec } from "../../lib/api/operations.ts";
import { api, getToken, sampleParams, withServer } from "../helpers/server.ts";

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const LICENSE_DATE = /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d\d:\d\d (AM|PM)$/;

/**
 * A flag enum as the spec sends it: an integer (`n`), the bitmask of names its enum declares
 * (the list of names is the type after normalisation, and the public service's form).
 */
function checkFlags(field: string, flags: FlagEnumName, v: unknown): string {
  const names = typeof v === "number" ? flagNames(flags, v) : undefined;
  return names?.every((n) => !/^\d+$/.test(n))
    ? ""
    : `${field}: ${JSON.stringify(v)} is not a bitmask of ${flags}`;
}

/** Check one wire value against its field's type and wire quirk; returns a problem or "". */
function checkValue(f: FieldSpec, v: unknown): string {
  if (v === null) return "";
  if (f.flags) return checkFlags(f.name, f.flags, v);
  const bad = `${f.name}: ${JSON.stringify(v)} is not a ${f.wire ?? f.type}`;
  if (f.wire === "string") {
    if (typeof v !== "string") return bad;
    if (f.type === "boolean") return v === "true" || v === "false" ? "" : bad;
    return Number.isFinite(Number(v)) ? "" : bad;
  }
  if (f.wire === "licenseDate") return typeof v === "string" && LICENSE_DATE.test(v) ? "" : bad;
  switch (f.type) {
    case "string":
      return typeof v === "string" ? "" : bad;
    case "number":
      return typeof v === "number" ? "" : bad;
    case "boolean":
      return typeof v === "boolean" ? "" : bad;
    case "date":
      return typeof v === "string" && RFC3339.test(v) ? "" : bad;
    case "strings":
      return Array.isArray(v) && v.every((x) => typeof x === "string") ? "" : bad;
  }
}

/** Assert a wire object has exactly the resource's visible fields (and links), well typed. */
function assertResourceShape(op: OperationSpec, obj: Record<string, unknown>, where: string) {
  const r = RESOURCES[op.resource];
  const fields = visibleFields(op.resource);
  const expected = [...new Set(fields.map((f) => f.name.split(".")[0]))];
  if (r.links) expected.push(r.links);
  assert.deepEqual(Object.keys(obj).sort(), expected.sort(), `${where}: keys`);
  for (const f of fields) {
    const [top, sub] = f.name.split(".");
    const v = sub === undefined ? obj[top] : (obj[top] as Record<string, unknown>)[sub];
    assert.ok(v !== undefined, `${where}: ${f.name} present`);
    assert.equal(checkValue(f, v), "", where);
  }
  if (r.links) {
    const links = obj[r.links] as { href: string; method: string; rel: string }[];
    assert.ok(Array.isArray(links) && links.length > 0, `${where}: links`);
    for (const l of links) {
      assert.match(l.href, /^api\//, `${where}: link href`);
      assert.equal(l.method, "GET");
    }
    assert.ok(links.some((l) => l.rel === "self"), `${where}: self link`);
  }
}

describe("every read operation over HTTP", () => {
  it("answers 200 in its shape with every visible field of its resource", async () => {
    await withServer({}, async (srv) => {
      const token = await getToken(srv);
      const add = await api(srv, "/api/cloud-cost/v1/connectors", {
        token,
        method: "POST",
        body: {
          type: "ProviderAStore",
          connectionDetails: {
            bucketName: "cur-bucket",
            reportPrefix: "reports",
            reportName: "ops-test",
            region: "region-1",
            accessKey: "<ACCESS_KEY>",
            secretKey: "<SECRET_KEY>",
          },
        },
      });
      assert.equal(add.status, 201);
      const reads = OPERATIONS.filter((op) => op.method === "GET");
      assert.equal(reads.length, OPERATIONS.length - 4);
      for (const op of reads) {
        const params = sampleParams(srv, op);
        assert.ok(params, `${op.id}: the estate has a row to read`);
        const path = expandPath(op, params);
        const res = await api(srv, path, { token });
        assert.equal(res.status, op.status, `${op.id} ${path}: ${JSON.stringify(res.body)}`);
        assert.ok(res.headers.get("x-request-id"), `${op.id}: x-request-id`);
        if (op.shape === "collection") {
          const linksName = RESOURCES[op.resource].links ?? "links";
          assert.deepEqual(
            Object.keys(res.body).sort(),
            ["items", "pagination", linksName].sort(),
            op.id,
          );
          assert.ok(res.body.items.length > 0, `${op.id}: items`);
          const pagination = Object.keys(res.body.pagination).sort();
          const expected = op.area === "connectors"
            ? ["page_number", "page_size"]
            : op.area === "estate"
            ? ["page_number", "page_size", "total_items", "total_pages"]
            : ["page_number", "page_size", "total_pages"];
          assert.deepEqual(pagination, expected, `${op.id}: pagination`);
          for (const [i, item] of res.body.items.entries()) {
            assertResourceShape(op, item, `${op.id} item ${i}`);
          }
        } else if (op.shape === "nodes") {
          assert.deepEqual(Object.keys(res.body), ["nodes"], op.id);
          assert.ok(res.body.nodes.length > 0, `${op.id}: nodes`);
          for (const [i, node] of res.body.nodes.entries()) {
            assertResourceShape(op, node, `${op.id} node ${i}`);
          }
        } else {
          assert.equal("items" in res.body, false, `${op.id}: no items`);
          assertResourceShape(op, res.body, op.id);
        }
      }
    });
  });

  it("sends license quirks: string quantities and values, boolean words, M/d/yyyy dates", async () => {
    await withServer({}, async (srv) => {
      const token = await getToken(srv);
      const list = await api(srv, "/api/sam/v1/licenses?page_size=50", { token });
      const withQty = list.body.items.find((l: { quantity: unknown }) => l.quantity !== null);
      assert.equal(typeof withQty.quantity, "string");
      const dated = list.body.items.find((l: { purchaseDate: unknown }) => l.purchaseDate !== null);
      assert.match(dated.purchaseDate, LICENSE_DATE);
      const stored = srv.store.first("License", { id: dated.id })!;
      const back = new Date(`${dated.purchaseDate} UTC`);
      assert.equal(
        back.getTime(),
        Math.floor(Date.parse(String(stored.purchaseDate)) / 1000) * 1000,
      );
      const detail = await api(srv, `/api/sam/v1/licenses/${encodeURIComponent(withQty.id)}`, {
        token,
      });
      for (const f of ["isSubscription", "isCrossPlatform", "isUpgrade", "isDowngrade"]) {
        const v = detail.body[f];
        assert.ok(v === null || v === "true" || v === "false", `${f}: ${v}`);
      }
      assert.equal(
        detail.body.quantity,
        String(srv.store.first("LicenseDetail", { id: withQty.id })!.quantity),
      );
    });
  });

  it("puts total_items in estate pagination only", async () => {
    await withServer({ computers: 30 }, async (srv) => {
      const token = await getToken(srv);
      const estate = await api(srv, "/api/sam/estate/v1/computers?page_size=7", { token });
      assert.deepEqual(estate.body.pagination, {
        page_size: 7,
        page_number: 1,
        total_pages: Math.ceil(30 / 7),
        total_items: 30,
      });
      for (const path of ["/api/sam/v1/licenses", "/api/sam/softwareregistry/v1/applications"]) {
        const res = await api(srv, path, { token });
        assert.equal("total_items" in res.body.pagination, false, path);
        assert.ok(res.body.pagination.total_pages >= 1, path);
        assert.ok(Array.isArray(res.body._links), path);
      }
    });
  });

  it("answers the registry under the software-registry spelling too", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      const a = await api(srv, "/api/sam/softwareregistry/v1/applications?page_size=5", { token });
      const b = await api(srv, "/api/sam/software-registry/v1/applications?page_size=5", {
        token,
      });
      assert.equal(b.status, 200);
      assert.deepEqual(b.body.items, a.body.items);
    });
  });
});
