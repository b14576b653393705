import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type FieldSpec,
  type ResourceName,
  RESOURCES,
  visibleFields,
} from "../../lib/api/catalogue.ts";
import {
  and,
  contains,
  endsWith,
  eq,
  exists,
  type FilterNode,
  filterPredicate,
  type FilterValue,
  ge,
  gt,
  isIn,
  le,
  lt,
  ne,
  not,
  notContains,
  notIn,
  OPERATORS_BY_TYPE,
  or,
  printFilter,
  startsWith,
} from "../../lib/api/filter.ts";
import type { RunningServer } from "../../lib/server/server.ts";
import { api, getToken, withServer } from "../helpers/server.ts";

type Item = Record<string, unknown>;

/** Every item of a collection, page by page (page_size 1000). */
async function readAll(srv: RunningServer, token: string, path: string, filter?: string) {
  const items: Item[] = [];
  for (let page = 1;; page++) {
    const q = `page_size=1000&page_number=${page}` +
      (filter === undefined ? "" : `&filter=${encodeURIComponent(filter)}`);
    const res = await api(srv, `${path}?${q}`, { token });
    assert.equal(res.status, 200, `${path} ${filter}: ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    if (res.body.items.length < 1000) return items;
  }
}

/** A wire item with license dates read back into Dates, for the evaluator. */
function normalise(resource: ResourceName, item: Item): Item {
  const out: Item = { ...item };
  for (const f of visibleFields(resource)) {
    if (f.wire === "licenseDate" && typeof out[f.name] === "string") {
      out[f.name] = new Date(`${out[f.name]} UTC`);
    }
  }
  return out;
}

/** The typed values a field takes in the items (nulls left out). */
function valuesOf(items: Item[], f: FieldSpec): FilterValue[] {
  const out: FilterValue[] = [];
  for (const item of items) {
    const v = item[f.name];
    if (v === null || v === undefined) continue;
    switch (f.type) {
      case "number":
        out.push(Number(v));
        break;
      case "boolean":
        out.push(v === true || v === "true");
        break;
      case "date":
        out.push(v instanceof Date ? v : new Date(String(v)));
        break;
      default:
        out.push(String(v));
    }
  }
  return out;
}

/** Mixed-case version of a string, to check case-insensitive matching. */
const flipCase = (s: string) =>
  [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join("");

/** Filters on one field exercising every operator its type allows. */
function filtersFor(f: FieldSpec, values: FilterValue[]): FilterNode[] {
  if (values.length === 0) return [exists(f.name, true), exists(f.name, false)];
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = sorted[Math.floor(sorted.length / 2)];
  const other = sorted[0];
  const out: FilterNode[] = [];
  for (const op of OPERATORS_BY_TYPE[f.type]) {
    switch (op) {
      case "eq":
        out.push(eq(f.name, mid));
        if (typeof mid === "string") out.push(eq(f.name, flipCase(mid)));
        break;
      case "ne":
        out.push(ne(f.name, mid));
        break;
      case "gt":
        out.push(gt(f.name, mid as number | Date));
        break;
      case "ge":
        out.push(ge(f.name, mid as number | Date));
        break;
      case "lt":
        out.push(lt(f.name, mid as number | Date));
        break;
      case "le":
        out.push(le(f.name, mid as number | Date));
        break;
      case "in":
        out.push(isIn(f.name, [mid, other]));
        break;
      case "notin":
        out.push(notIn(f.name, [mid, other]));
        break;
      case "exists":
        out.push(exists(f.name, true), exists(f.name, false));
        break;
      case "contains":
        out.push(contains(f.name, flipCase(String(mid).slice(1, 4) || String(mid))));
        break;
      case "notcontains":
        out.push(notContains(f.name, String(mid).slice(0, 2) || String(mid)));
        break;
      case "startswith":
        out.push(startsWith(f.name, flipCase(String(mid).slice(0, 3) || String(mid))));
        break;
      case "endswith":
        out.push(endsWith(f.name, String(mid).slice(-3) || String(mid)));
        break;
    }
  }
  return out;
}

const COLLECTIONS: [string, ResourceName][] = [
  ["/api/sam/estate/v1/computers", "Computer"],
  ["/api/sam/estate/v1/computers-applications", "ComputerApplication"],
  ["/api/sam/estate/v1/computers-metering", "MetricTracking"],
  ["/api/sam/v1/licenses", "License"],
  ["/api/sam/softwareregistry/v1/applications", "RegistryApplication"],
];

describe("filters over HTTP", () => {
  it("match what evaluateFilter keeps of the unfiltered collection, for every operator and type", async () => {
    await withServer({ computers: 60 }, async (srv) => {
      const token = await getToken(srv);
      let checked = 0;
      const kept = new Set<string>();
      for (const [path, resource] of COLLECTIONS) {
        const spec = RESOURCES[resource];
        const all = await readAll(srv, token, path);
        assert.ok(all.length > 0, path);
        const typed = all.map((i) => normalise(resource, i));
        for (const f of visibleFields(resource)) {
          if (f.type === "strings" || f.name.includes(".")) continue;
          for (const node of filtersFor(f, valuesOf(typed, f))) {
            const text = printFilter(node);
            const got = await readAll(srv, token, path, text);
            const keep = filterPredicate(node, spec);
            const want = all.filter((_, i) => keep(typed[i]));
            assert.deepEqual(got, want, `${path} ${text}`);
            if (want.length > 0 && want.length < all.length) {
              kept.add(`${f.type}:${node.kind === "cmp" ? node.op : ""}`);
            }
            checked++;
          }
        }
      }
      assert.ok(checked > 150, `checked ${checked}`);
      // The filters told items apart (not all or nothing) for each type's core operators.
      for (const probe of ["string:eq", "string:contains", "number:gt", "date:le", "boolean:eq"]) {
        assert.ok(kept.has(probe), probe);
      }
    });
  });

  it("match evaluateFilter for random -and / -or / -not combinations", async () => {
    await withServer({ computers: 80 }, async (srv) => {
      const token = await getToken(srv);
      const path = "/api/sam/estate/v1/computers";
      const all = await readAll(srv, token, path);
      const fields = visibleFields("Computer");
      const leaves = fields.flatMap((f) => filtersFor(f, valuesOf(all, f)));
      const leaf = fc.constantFrom(...leaves);
      const tree = fc.letrec<{ node: FilterNode }>((tie) => ({
        node: fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          leaf,
          fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((xs) => and(...xs)),
          fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((xs) => or(...xs)),
          tie("node").map((x) => not(x)),
        ),
      })).node;
      await fc.assert(
        fc.asyncProperty(tree, async (node) => {
          const got = await readAll(srv, token, path, printFilter(node));
          const keep = filterPredicate(node, RESOURCES.Computer);
          assert.deepEqual(got, all.filter((i) => keep(i)));
        }),
        { numRuns: 40, seed: 42 },
      );
    });
  });
});
