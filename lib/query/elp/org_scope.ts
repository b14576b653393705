/**
 * The ELP of one organisation as SAM tools scope it: the organisation **and its descendants** in
 * the organisation tree, with
 *
 * - purchased = Σ quantity allocated to an organisation of the scope (the service's license
 *   entitlements by organisation, `/licenses-entitlements`; where the service lacks them, each
 *   license counts for its own organisation);
 * - received = Σ quantity of transfers whose holder (computer or user) belongs to the scope;
 * - given = Σ quantity of transfers charged to an allocation of the scope: a transfer's units
 *   come from the allocation of the licensed product in the holder's own organisation while it
 *   has units left, then from the license's organisation, then from the other organisations'
 *   allocations, largest first, so no allocation gives more than it holds and purchased −
 *   given is never negative where the data gives away no more than was bought;
 * - requirement = Σ requirement of the metric-tracking rows of the scope's computers.
 *
 * Every transfer, allocation and computer counts in exactly one organisation, so the figures
 * of disjoint scopes add up to the estate's (purchased, entitlements, requirement, position);
 * shortfalls do not add up: one organisation's surplus does not cover another's shortfall.
 *
 * @module
 */

import type { ElpInputs, ElpLicense, ElpRequirementRow, ElpTransfer } from "./position.ts";

/** A node of the organisation tree. */
export interface OrgNode {
  readonly id: string | null;
  readonly parentId: string | null;
}

/** An allocation of licenses to an organisation (`/licenses-entitlements`). */
export interface OrgAllocation {
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly organizationId: string | null;
  readonly quantity: number | null;
}

/** A transfer as the organisation scope reads it. */
export interface OrgTransfer extends ElpTransfer {
  readonly id?: string | null;
  /** The organisation of the transfer's holder (computer or user). */
  readonly organizationId?: string | null;
}

/** What {@link scopeElpInputs} reads. */
export interface OrgScopeInputs {
  /** Licenses, for their organisation (charging, and allocations when the service has none). */
  readonly licenses: readonly (ElpLicense & { readonly organizationId?: string | null })[];
  /** Allocations to organisations; `null` when the service does not offer them. */
  readonly allocations: readonly OrgAllocation[] | null;
  readonly transfers: readonly OrgTransfer[];
  readonly requirements: readonly ElpRequirementRow[];
}

/**
 * The organisation `id` and all its descendants in `nodes`, or `undefined` when the tree does
 * not hold `id`. An empty tree (the service has none) scopes to `id` alone.
 *
 * @example
 * ```ts
 * import { organizationSubtree } from "./org_scope.ts";
 * const tree = [
 *   { id: "ORG01", parentId: null },
 *   { id: "ORG05", parentId: "ORG01" },
 *   { id: "ORG06", parentId: "ORG05" },
 *   { id: "ORG07", parentId: "ORG05" },
 * ];
 * console.log([...organizationSubtree(tree, "ORG05")!]); // ["ORG05", "ORG06", "ORG07"]
 * console.log(organizationSubtree(tree, "ORG99")); // undefined
 * ```
 */
export function organizationSubtree(
  nodes: readonly OrgNode[],
  id: string,
): Set<string> | undefined {
  if (nodes.length === 0) return new Set([id]);
  if (!nodes.some((n) => n.id === id)) return undefined;
  const children = new Map<string, string[]>();
  for (const n of nodes) {
    if (n.id && n.parentId) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n.id]);
  }
  const out = new Set<string>();
  const visit = (node: string) => {
    if (out.has(node)) return;
    out.add(node);
    for (const child of children.get(node) ?? []) visit(child);
  };
  visit(id);
  return out;
}

const units = (n: number | null | undefined) =>
  typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
const pair = (app: string | null, metric: string | null) => `${app}\u0000${metric}`;

/** Units allocated per application × metric × organisation (left after charges). */
function allocationBook(inputs: OrgScopeInputs): Map<string, Map<string, number>> {
  const rows = inputs.allocations ??
    inputs.licenses.map((l) => ({ ...l, organizationId: l.organizationId ?? null }));
  const book = new Map<string, Map<string, number>>();
  for (const a of rows) {
    if (!a.applicationId || !a.metricId || !a.organizationId) continue;
    const key = pair(a.applicationId, a.metricId);
    let orgs = book.get(key);
    if (!orgs) book.set(key, orgs = new Map());
    orgs.set(a.organizationId, (orgs.get(a.organizationId) ?? 0) + units(a.quantity));
  }
  return book;
}

/**
 * Charges each transfer's units to allocations of its licensed product (see the module doc);
 * returns the organisation charged and the units, per transfer (a transfer may span several).
 */
function chargeTransfers(
  inputs: OrgScopeInputs,
  book: Map<string, Map<string, number>>,
): Map<OrgTransfer, [string | null, number][]> {
  const licenseOrg = new Map(inputs.licenses.map((l) => [l.id ?? "", l.organizationId ?? null]));
  const ordered = [...inputs.transfers].sort((a, b) =>
    (a.id ?? "") < (b.id ?? "") ? -1 : (a.id ?? "") > (b.id ?? "") ? 1 : 0
  );
  const out = new Map<OrgTransfer, [string | null, number][]>();
  for (const t of ordered) {
    const left = book.get(pair(t.fromApplicationId, t.metricId)) ?? new Map<string, number>();
    const own = licenseOrg.get(t.licenseId ?? "") ?? null;
    const order = [
      t.organizationId ?? null,
      own,
      ...[...left].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([org]) => org),
    ];
    let need = units(t.quantity);
    const charges: [string | null, number][] = [];
    for (const org of order) {
      if (need <= 0 || org === null) continue;
      const take = Math.min(need, left.get(org) ?? 0);
      if (take <= 0) continue;
      left.set(org, left.get(org)! - take);
      charges.push([org, take]);
      need -= take;
    }
    if (need > 0) charges.push([own ?? t.organizationId ?? null, need]);
    out.set(t, charges);
  }
  return out;
}

/**
 * The ELP inputs of an organisation scope (a set of organisation ids, {@link organizationSubtree})
 * given the organisation of each computer.
 *
 * @example
 * ```ts
 * import { scopeElpInputs } from "./org_scope.ts";
 * import { computeElp } from "./position.ts";
 * const inputs = scopeElpInputs({
 *   licenses: [{ id: "L1", organizationId: "HQ", applicationId: "DB19", metricId: "CORE", quantity: 10 }],
 *   allocations: [
 *     { applicationId: "DB19", metricId: "CORE", organizationId: "HQ", quantity: 6 },
 *     { applicationId: "DB19", metricId: "CORE", organizationId: "IT", quantity: 4 },
 *   ],
 *   transfers: [{
 *     id: "T1", licenseId: "L1", organizationId: "IT", fromApplicationId: "DB19",
 *     toApplicationId: "DB12", metricId: "CORE", quantity: 2, isDowngrade: true,
 *   }],
 *   requirements: [{ computerId: "C1", applicationId: "DB12", metricId: "CORE", requirement: 2 }],
 * }, new Set(["IT"]), () => "IT");
 * const [db12, db19] = computeElp(inputs);
 * console.log(db12.received.downgrade, db12.shortfall); // 2 0
 * console.log(db19.purchased, db19.given, db19.entitlements); // 4 2 2
 * ```
 */
export function scopeElpInputs(
  inputs: OrgScopeInputs,
  scope: ReadonlySet<string>,
  orgOfComputer: (computerId: string | null | undefined) => string | null | undefined,
): ElpInputs {
  const book = allocationBook(inputs);
  // One line per organisation of the scope, naming it, so a position's purchases can be shown.
  const licenses: (ElpLicense & { organizationId: string })[] = [];
  for (const [key, orgs] of book) {
    const [applicationId, metricId] = key.split("\u0000");
    for (const [org, quantity] of orgs) {
      if (scope.has(org)) licenses.push({ applicationId, metricId, quantity, organizationId: org });
    }
  }
  const transfers: ElpTransfer[] = [];
  for (const [t, charges] of chargeTransfers(inputs, book)) {
    const holder = t.organizationId ?? null;
    if (holder !== null && scope.has(holder)) transfers.push({ ...t, fromApplicationId: null });
    const given = charges.filter(([org]) => org !== null && scope.has(org));
    const quantity = given.reduce((n, [, q]) => n + q, 0);
    if (quantity > 0) transfers.push({ ...t, toApplicationId: null, quantity });
  }
  return {
    licenses,
    transfers,
    requirements: inputs.requirements.filter((r) => {
      const org = orgOfComputer(r.computerId);
      return org !== null && org !== undefined && scope.has(org);
    }),
  };
}
