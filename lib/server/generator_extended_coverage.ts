/**
 * Extended coverage of an install by another machine's license: a Windows Server VM covered by
 * its cluster's Datacenter license or by its standalone Hyper-V host's Datacenter edition, and
 * the database on a disaster-recovery replica covered by its primary. Emits the
 * `extended_coverages` row. No random draws.
 *
 * @module
 */

import { EXTENDED_COVERAGE_TYPES } from "./generator_catalogue.ts";
import {
  APP_INFOS,
  appOf,
  canCover,
  computerId,
  type Ctx,
  FAMILIES,
  pad,
} from "./generator_context.ts";
import type { Machine } from "./generator_machine.ts";
import { Hypervisor, Kind } from "./generator_plan.ts";

/** Who covers an install, and why. */
export interface CoverageParent {
  /** The covering computer or cluster id. */
  readonly parent: string;
  /** The product whose license covers the install. */
  readonly parentApp: number;
  readonly reason: string;
  readonly description: string;
  /** Covered by a cluster's Datacenter license. */
  readonly datacenter: boolean;
  /** Covered through the cluster (`extendedCoverageForDcc`). */
  readonly dcc: boolean;
  /** Covered through the host (`extendedCoverageForHost`). */
  readonly hostCoverage: boolean;
}

const REASON_OTHER = EXTENDED_COVERAGE_TYPES[4];
const FAMILY = Object.fromEntries(FAMILIES.map((f, i) => [f.key, i])) as Record<string, number>;
/** Database families, whose replicas are covered by their primary. */
export const DB_FAMILIES: ReadonlySet<number> = new Set([
  FAMILY["sql-server"],
  FAMILY["oracle-db"],
  FAMILY["db2"],
]);

/** Coverage of a Windows Server VM by its cluster or its Hyper-V host, or null. */
function virtualisationParent(ctx: Ctx, m: Machine, a: number): CoverageParent | null {
  const host = m.myHost!;
  const { plan, book } = ctx;
  const cluster = host.cluster >= 0 ? plan.clusters[host.cluster] : null;
  const clusterLicense = cluster ? book.clusterLicense[cluster.index] : -1;
  if (clusterLicense >= 0 && canCover(book.list[clusterLicense].app, a)) {
    return {
      parent: cluster!.id,
      parentApp: book.list[clusterLicense].app,
      reason: "Datacenter",
      description: `Windows Server Datacenter licensed for cluster ${cluster!.name}`,
      datacenter: true,
      dcc: true,
      hostCoverage: false,
    };
  }
  if (!cluster && host.hypervisor === Hypervisor.HyperV && canCover(appOf(host.osApp), a)) {
    return {
      parent: computerId(host.computer),
      parentApp: appOf(host.osApp),
      reason: "Host",
      description: "Unlimited virtualisation rights of the host's Datacenter edition",
      datacenter: false,
      dcc: false,
      hostCoverage: true,
    };
  }
  return null;
}

/** Coverage of a replica's database by its disaster-recovery primary. */
function replicaParent(ctx: Ctx, m: Machine, a: number): CoverageParent {
  const pair = ctx.plan.replicaPair[m.index];
  const reason = pair % 3 === 0 ? REASON_OTHER : "Disaster recovery";
  return {
    parent: computerId(ctx.plan.sibling[m.index]),
    parentApp: a,
    reason,
    description: reason === REASON_OTHER
      ? "Passive failover instance covered by Software Assurance"
      : "Disaster-recovery replica of a licensed primary",
    datacenter: false,
    dcc: false,
    hostCoverage: false,
  };
}

/**
 * Who covers install `a` (license family `family`) of a computer, or null. `hostBased` says the
 * family is licensed per host core for this VM (then no replica coverage applies).
 *
 * @example
 * ```ts
 * import { coverageParent } from "./generator_extended_coverage.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit: () => {} });
 * const m = planMachine(ctx, 0);
 * console.log(coverageParent(ctx, m, m.sw.osApp, -1, false)); // null
 * ```
 */
export function coverageParent(
  ctx: Ctx,
  m: Machine,
  a: number,
  family: number,
  hostBased: boolean,
): CoverageParent | null {
  if (m.kind === Kind.Vm && m.myHost && FAMILIES[family]?.key === "windows-server") {
    return virtualisationParent(ctx, m, a);
  }
  if (!hostBased && ctx.plan.replicaPair[m.index] >= 0 && DB_FAMILIES.has(family)) {
    return replicaParent(ctx, m, a);
  }
  return null;
}

/**
 * Emit the `extended_coverages` row of install `a` covered by `p`.
 *
 * @example
 * ```ts
 * import { emitExtendedCoverage } from "./generator_extended_coverage.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const rows: Record<string, unknown>[] = [];
 * const emit = (table: string, row: Record<string, unknown>) => void rows.push(row);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * const m = planMachine(ctx, 0);
 * emitExtendedCoverage(ctx, m, m.sw.osApp, {
 *   parent: "C000002", parentApp: m.sw.osApp, reason: "Host", description: "example",
 *   datacenter: false, dcc: false, hostCoverage: true,
 * });
 * console.log(rows.at(-1)?.extendedComputerId); // "C000001"
 * ```
 */
export function emitExtendedCoverage(ctx: Ctx, m: Machine, a: number, p: CoverageParent): void {
  ctx.emit("extended_coverages", {
    id: `EC${pad(++ctx.ids.extendedCoverage, 6)}`,
    parentComputerId: p.parent,
    extendedComputerId: m.id,
    applicationId: APP_INFOS[p.parentApp].id,
    coveredApplicationId: APP_INFOS[a].id,
    reason: p.reason,
    reasonDescription: p.description,
    isParentComputerDatacenter: p.datacenter,
  });
}
