/**
 * Disaster-recovery pairs and forced installs of the estate plan. About 3% of the Windows
 * server VMs pair up: the replica repeats its primary's installs (and runs on another host),
 * and the first pair runs SQL Server. The first Windows end-user machine gets Visual Studio and
 * AutoCAD, so that small estates still show user-license transfers.
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import { Kind, type PlanArrays } from "./generator_plan_types.ts";
import type { Random } from "./random.ts";

/** Forced installs: computer → group key → app key (or "" for any member). */
export type ForcedInstalls = Map<number, Map<string, string>>;

/** Record a forced install. */
function force(forced: ForcedInstalls, i: number, group: string, app = ""): void {
  const m = forced.get(i) ?? new Map<string, string>();
  forced.set(i, m);
  m.set(group, app);
}

/** Pair Windows VMs for disaster recovery (shuffles `winVms`). */
function pairReplicas(
  r: Random,
  a: PlanArrays,
  winVms: number[],
  hostCount: number,
  forced: ForcedInstalls,
): void {
  if (winVms.length < 2) return;
  r.shuffle(winVms);
  const pairs = Math.max(1, Math.round(winVms.length * 0.03));
  for (let p = 0; p < pairs; p++) {
    const x = winVms[2 * p], y = winVms[2 * p + 1];
    if (y === undefined) break;
    a.sibling[x] = y;
    a.sibling[y] = x;
    a.replicaPair[y] = p;
    a.appSource[y] = x;
    if (hostCount > 1 && a.hostOf[y] === a.hostOf[x]) {
      a.hostOf[y] = (a.hostOf[x] + 1) % hostCount;
    }
    if (p === 0) {
      force(forced, x, "sql");
      force(forced, y, "sql");
    }
  }
}

/**
 * Pair replicas among `winVms` and force the installs small estates need; returns the forced
 * installs and fills the sibling, replica and app-source arrays of `a`.
 *
 * @example
 * ```ts
 * import { planReplicas } from "./generator_plan_replicas.ts";
 * import { Kind } from "./generator_plan_types.ts";
 * import { Random } from "./random.ts";
 * const n = 2;
 * const a = {
 *   n, kind: new Uint8Array([Kind.Vm, Kind.Vm]), profile: new Uint8Array([1, 1]),
 *   org: new Uint8Array(n), user: new Int32Array(n).fill(-1),
 *   hostOrdinal: new Int32Array(n).fill(-1), hostOf: new Int32Array(n),
 *   sibling: new Int32Array(n).fill(-1), replicaPair: new Int32Array(n).fill(-1),
 *   appSource: new Int32Array([0, 1]), profileCount: [0, 2, 0, 0, 0, 0],
 * };
 * const forced = planReplicas(new Random(1), a, { winVms: [0, 1], hostCount: 1 });
 * console.log(a.sibling[0] >= 0, forced.size); // true 2
 * ```
 */
export function planReplicas(
  r: Random,
  a: PlanArrays,
  options: { winVms: number[]; hostCount: number },
): ForcedInstalls {
  const forced: ForcedInstalls = new Map();
  pairReplicas(r, a, options.winVms, options.hostCount, forced);
  for (let i = 0; i < a.n; i++) {
    if (a.profile[i] === Profile.Win && a.kind[i] !== Kind.Host) {
      force(forced, i, "visual-studio", "vs2019-pro");
      force(forced, i, "autocad", "autocad2022");
      break;
    }
  }
  return forced;
}
