/**
 * The contract cases, grouped so that a test file can register the groups it holds: every mock
 * route read through its operation in both dialects, real fields known and typed, aliases,
 * transfers, filters on real fields and the registry's default path.
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ResourceName } from "../../lib/api/catalogue.ts";
import type { SamClient } from "../../lib/api/client.ts";
import { APP, FAMILY, LICENSE_FACTS, PC } from "./fixtures/tenant.ts";
import {
  contractClient,
  expectedKinds,
  operationsFor,
  rawItems,
  readOperation,
  samplePath,
  typingProblems,
} from "./contract_helpers.ts";
import { type MockRoute, ROUTES } from "./mock_routes.ts";
import { type Dialect, type MockService, startMockService } from "./mock_service.ts";

/** A running mock and a client for it, opened before a group's cases and closed after. */
export interface Harness {
  mock: MockService;
  client: SamClient;
}

/**
 * Opens a mock of the dialect around the enclosing `describe`.
 *
 * @example
 * ```ts ignore
 * describe("real", () => { const h = harness("real"); it("…", () => h.mock.url); });
 * ```
 */
export function harness(dialect: Dialect): Harness {
  const h = {} as Harness;
  before(async () => {
    h.mock = await startMockService({ dialect });
    h.client = contractClient(h.mock);
  });
  after(async () => await h.mock.close());
  return h;
}

/** Which routes a group covers. */
export type RouteSelection = (route: MockRoute) => boolean;

/** Every route. */
export const ALL_ROUTES: RouteSelection = () => true;

const label = (r: MockRoute) => `GET ${r.template}`;

/**
 * Every selected route has an operation, and reading it through the client gives items without
 * error, each with at least one catalogue field set and every catalogue field typed.
 *
 * @example
 * ```ts ignore
 * routeReads("real", ALL_ROUTES);
 * ```
 */
export function routeReads(dialect: Dialect, select: RouteSelection): void {
  describe(`routes read through their operation (${dialect} dialect)`, () => {
    const h = harness(dialect);
    for (const route of ROUTES.filter(select)) {
      it(`${label(route)}: an operation reads it, items normalised`, async () => {
        const ops = operationsFor(route);
        assert.ok(ops.length > 0, `no operation in lib/api/operations.ts for ${label(route)}`);
        for (const op of ops) {
          const items = await readOperation(h.client, op, route);
          assert.ok(items.length > 0, `${op.id} yielded no item for ${samplePath(route, dialect)}`);
          const kinds = expectedKinds(route, dialect);
          const raw = await rawItems(h.mock, samplePath(route, dialect));
          assert.equal(items.length, raw.length, `${op.id}: as many items as the service sent`);
          items.forEach((item, i) => {
            const resource = op.resource as ResourceName;
            assert.deepEqual(
              typingProblems(item, resource, kinds, { onlyKnown: true, raw: raw[i]! }),
              [],
              `${op.id} (${resource}) item ${i + 1}`,
            );
            const set = [...kinds.keys()].filter((k) => raw[i]![k] != null && item[k] != null);
            assert.ok(set.length > 0, `${op.id}: every field null (${Object.keys(item)})`);
          });
        }
      });
    }
  });
}

/**
 * Every real field the service sends on a selected route is in the catalogue of its operation's
 * resource and comes out typed.
 *
 * @example
 * ```ts ignore
 * realFieldsKnown(ALL_ROUTES);
 * ```
 */
export function realFieldsKnown(select: RouteSelection): void {
  describe("every real field is known to the catalogue and typed (real dialect)", () => {
    const h = harness("real");
    for (const route of ROUTES.filter(select)) {
      it(`${label(route)}: real fields known and typed`, async () => {
        const ops = operationsFor(route);
        assert.ok(ops.length > 0, `no operation in lib/api/operations.ts for ${label(route)}`);
        const kinds = expectedKinds(route, "real");
        for (const op of ops) {
          const items = await readOperation(h.client, op, route);
          const raw = await rawItems(h.mock, samplePath(route, "real"));
          const problems = new Set(
            items.flatMap((item, i) =>
              typingProblems(item, op.resource as ResourceName, kinds, {
                onlyKnown: false,
                raw: raw[i] ?? {},
              })
            ),
          );
          assert.deepEqual([...problems], [], `${op.id} (${op.resource})`);
        }
      });
    }
  });
}

const ALIASES: [op: string, route: string, real: string, neutral: string][] = [
  ["estate.dataCenterClusters", "/dcc", "isVMwareDRS", "isVendorDRS"],
  [
    "estate.computer",
    "/computers/{id}",
    "isIncludedInWindowsServerRequirement",
    "isIncludedInServerOsRequirement",
  ],
  [
    "estate.computerApplication",
    "/computers/{id}/applications/{applicationid}",
    "isMSDN",
    "isVendorDN",
  ],
  ["estate.metrics", "/computers-metering", "windowsServer", "serverOs"],
  ["estate.metrics", "/computers-metering", "windowsServerFlag", "serverOsFlag"],
  ["estate.metrics", "/computers-metering", "sqlServer", "databaseServer"],
];

/**
 * The neutral names read the same values as the real names, in both dialects.
 *
 * @example
 * ```ts ignore
 * aliasesReadable("real");
 * ```
 */
export function aliasesReadable(dialect: Dialect): void {
  describe(`real names and neutral aliases both readable (${dialect} dialect)`, () => {
    const h = harness(dialect);
    for (const [id, path, real, neutral] of ALIASES) {
      it(`${id}: ${real} and ${neutral} agree and are typed`, async () => {
        const route = ROUTES.find((r) => r.template.endsWith(path) && !r.added)!;
        const op = operationsFor(route).find((o) => o.id === id);
        assert.ok(op, `operation ${id} serves ${label(route)}`);
        const items = await readOperation(h.client, op, route);
        for (const item of items) {
          assert.notEqual(item[real] ?? null, null, `${id}: ${real} is null`);
          assert.deepEqual(item[neutral], item[real], `${id}: ${neutral} differs from ${real}`);
          assert.ok(op.resource && typeof item[real] !== "string", `${id}: ${real} not typed`);
        }
      });
    }
  });
}

/**
 * "Get application license transfers for a computer" yields the transfer (a paged collection on
 * the real service, one object in the spec), never all-null fields.
 *
 * @example
 * ```ts ignore
 * transfersYieldItems("real");
 * ```
 */
export function transfersYieldItems(dialect: Dialect): void {
  describe(`computer transfer detail (${dialect} dialect)`, () => {
    const h = harness(dialect);
    it("licenses.computerTransfer yields the transfer with its fields set", async () => {
      const transfer = h.client.licenses.computerTransfer(APP.office2016, PC.quarantined);
      const items: Record<string, unknown>[] = Symbol.asyncIterator in Object(transfer)
        ? await (transfer as unknown as { toArray(): Promise<Record<string, unknown>[]> })
          .toArray()
        : [await transfer as unknown as Record<string, unknown>];
      assert.equal(items.length, 1);
      assert.equal(items[0]!.licenseId, LICENSE_FACTS[1]!.id);
      assert.equal(items[0]!.quantity, 1);
      assert.equal(items[0]!.isDowngrade, true);
    });
  });
}

/**
 * Filters on real fields are sent to the service (recorded by the mock) and answered by it.
 *
 * @example
 * ```ts ignore
 * realFieldFilters((name) => name.startsWith("license"));
 * ```
 */
export function realFieldFilters(select: (name: string) => boolean): void {
  describe("filters on real fields are sent, not refused (real dialect)", () => {
    const h = harness("real");
    const sentFilter = (path: string) =>
      h.mock.requests.filter((r) => r.path === path).map((r) => r.query.filter).at(-1);
    const cases: [string, string, string, () => Promise<unknown[]>, number][] = [
      [
        "license vendor",
        "/api/sam/v1/licenses",
        "vendor -eq Insight",
        () => h.client.licenses.list({ filter: "vendor -eq Insight" }).toArray(),
        2,
      ],
      [
        "license isSubscription",
        "/api/sam/v1/licenses",
        "isSubscription -eq true",
        () => h.client.licenses.list({ filter: "isSubscription -eq true" }).toArray(),
        1,
      ],
      [
        "computer coreCount",
        "/api/sam/estate/v1/computers",
        "coreCount -ge 16",
        () => h.client.estate.computers({ filter: "coreCount -ge 16" }).toArray(),
        2,
      ],
      [
        "registry familyId",
        "/api/sam/software-registry/v1/applications",
        `familyId -eq "${FAMILY.office}"`,
        () =>
          h.client.registry.applications({ filter: `familyId -eq "${FAMILY.office}"` }).toArray(),
        3,
      ],
      [
        "dcc (Q2 in the spec)",
        "/api/sam/estate/v1/dcc",
        "isVMwareDRS -eq true",
        () =>
          h.client.estate.dataCenterClusters(
            { filter: "isVMwareDRS -eq true" } as Parameters<
              SamClient["estate"]["dataCenterClusters"]
            >[0],
          ).toArray(),
        1,
      ],
      [
        "an unknown field, left for the server",
        "/api/sam/v1/licenses",
        "futureField -eq 1",
        () => h.client.licenses.list({ filter: "futureField -eq 1" }).toArray(),
        0,
      ],
    ];
    for (const [name, path, filter, read, count] of cases.filter(([n]) => select(n))) {
      it(`${name}: "${filter}" is sent and answered`, async () => {
        const items = await read();
        assert.equal(sentFilter(path), filter, `the filter reached ${path}`);
        assert.equal(items.length, count);
      });
    }
  });
}

/**
 * With no registry prefix configured, the registry is read on the dialect's path.
 *
 * @example
 * ```ts ignore
 * registryDefault("real");
 * ```
 */
export function registryDefault(dialect: Dialect): void {
  describe(`registry default path (${dialect} dialect)`, () => {
    const h = harness(dialect);
    it("registry.applications reads every application with no prefix configured", async () => {
      const apps = await h.client.registry.applications().toArray();
      assert.deepEqual(apps.map((a) => a.id).sort(), Object.values(APP).sort());
    });
  });
}
