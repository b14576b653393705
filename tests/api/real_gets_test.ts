/**
 * Every GET of the public service (the fixture written from routes.md and public-api.md) has a
 * client operation and a row in the operations table of docs/operations.md.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { AREA_PREFIX, OPERATIONS, type OperationSpec } from "../../lib/api/operations.ts";

interface RealGet {
  readonly method: string;
  readonly path: string;
  readonly area: string;
  readonly summary: string;
}

const FIXTURE = new URL("../contract/fixtures/real_gets.json", import.meta.url);
const TABLE = new URL("../../docs/operations.md", import.meta.url);
const gets: readonly RealGet[] = JSON.parse(Deno.readTextFileSync(FIXTURE)).gets;

/** A path with its parameter names blanked and the registry spelt as the public service does. */
const shapeOf = (path: string) =>
  path.replace("/softwareregistry/", "/software-registry/").replace(/\{\w+\}/g, "{}");

const operationFor = (get: RealGet): OperationSpec | undefined =>
  OPERATIONS.find((op) =>
    op.method === get.method && shapeOf(AREA_PREFIX[op.area] + op.path) === shapeOf(get.path)
  );

describe("the public service's GETs", () => {
  it("are 112 distinct reads in the fixture", () => {
    assert.equal(gets.length, 112);
    assert.equal(new Set(gets.map((g) => shapeOf(g.path))).size, 112);
    assert.ok(gets.every((g) => g.method === "GET"));
  });

  it("each have an operation of the table, in the fixture's area, with a client function", () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "unused" });
    const missing: string[] = [];
    for (const get of gets) {
      const op = operationFor(get);
      if (!op) {
        missing.push(`${get.method} ${get.path} (${get.summary})`);
        continue;
      }
      assert.equal(op.area, get.area, `${get.path}: area`);
      const [area, name] = op.id.split(".") as [keyof SamClient, string];
      const fn = (client[area] as unknown as Record<string, unknown>)[name];
      assert.equal(typeof fn, "function", `client.${op.id} for ${get.path}`);
    }
    assert.deepEqual(missing, [], "GETs of the public service without a client operation");
  });

  it("each have a row in docs/operations.md naming the client function and the path", () => {
    const rows = Deno.readTextFileSync(TABLE).split("\n").filter((l) => l.startsWith("| `"));
    for (const get of gets) {
      const op = operationFor(get)!;
      const row = rows.find((r) => r.includes(`\`${op.id}\``));
      assert.ok(row, `docs/operations.md has no row for ${op.id}`);
      const path = /\| `(\/api\/[^`]+)` +\|/.exec(row)?.[1];
      assert.equal(shapeOf(path ?? ""), shapeOf(get.path), `${op.id}: path in the table`);
    }
    assert.equal(rows.length, OPERATIONS.length, "one row per operation");
  });
});
