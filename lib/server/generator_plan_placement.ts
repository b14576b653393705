/**
 * Placement of the estate plan's non-host computers: each one's software profile (Windows,
 * Windows server, Linux, AIX, Mac), organisation, primary user (end-user machines) and the host
 * a virtual machine or VDI machine runs on.
 *
 * @module
 */

import { END_USER_ORG_WEIGHTS, Profile, SERVER_ORG_WEIGHTS } from "./generator_catalogue.ts";
import { Kind, type PlanArrays } from "./generator_plan_types.ts";
import type { Random } from "./random.ts";

/** What placement counted. */
export interface Placement {
  /** End users (one per end-user machine). */
  readonly endUsers: number;
  /** Windows server virtual machines, candidates for disaster-recovery pairs. */
  readonly winVms: number[];
  /** Physical Windows servers and Windows VMs, for expected core requirements. */
  readonly winServerPhysical: number;
  readonly winServerVirtual: number;
}

/** The profile of a non-host computer of kind `kd`. */
function profileOf(r: Random, kd: Kind): Profile {
  if (kd === Kind.Mac) return Profile.Mac;
  if (kd === Kind.Desktop || kd === Kind.Laptop || kd === Kind.Vdi) return Profile.Win;
  if (kd === Kind.Server) {
    return r.weighted<Profile>([[Profile.WinServer, 70], [Profile.Linux, 22], [Profile.Aix, 8]]);
  }
  return r.chance(0.75) ? Profile.WinServer : Profile.Linux;
}

/**
 * Place every non-host computer (profile, organisation, user, host), filling `a`; users are
 * numbered after the `adminCount` administrators.
 *
 * @example
 * ```ts
 * import { placeComputers } from "./generator_plan_placement.ts";
 * import { Kind } from "./generator_plan_types.ts";
 * import { Random } from "./random.ts";
 * const n = 4;
 * const kind = new Uint8Array([Kind.Desktop, Kind.Laptop, Kind.Server, Kind.Mac]);
 * const a = {
 *   n, kind, profile: new Uint8Array(n), org: new Uint8Array(n),
 *   user: new Int32Array(n).fill(-1), hostOrdinal: new Int32Array(n).fill(-1),
 *   hostOf: new Int32Array(n).fill(-1), sibling: new Int32Array(n).fill(-1),
 *   replicaPair: new Int32Array(n).fill(-1), appSource: new Int32Array(n),
 *   profileCount: [0, 0, 0, 0, 0, 0],
 * };
 * const placed = placeComputers(new Random(1), a, { adminCount: 2, hostCount: 0 });
 * console.log(placed.endUsers, a.user[0]); // 3 2
 * ```
 */
export function placeComputers(
  r: Random,
  a: PlanArrays,
  options: { adminCount: number; hostCount: number },
): Placement {
  let endUsers = 0;
  const winVms: number[] = [];
  let winServerPhysical = 0, winServerVirtual = 0;
  for (let i = 0; i < a.n; i++) {
    a.appSource[i] = i;
    const kd = a.kind[i] as Kind;
    if (kd === Kind.Host) {
      a.profileCount[Profile.Host]++;
      continue;
    }
    const p = profileOf(r, kd);
    a.profile[i] = p;
    a.profileCount[p]++;
    if (p === Profile.WinServer) {
      if (kd === Kind.Vm) {
        winServerVirtual++;
        winVms.push(i);
      } else winServerPhysical++;
    }
    const endUser = kd <= Kind.Vdi;
    a.org[i] = r.weightedIndex(endUser ? END_USER_ORG_WEIGHTS : SERVER_ORG_WEIGHTS);
    if (endUser) a.user[i] = options.adminCount + endUsers++;
    if (kd === Kind.Vm || kd === Kind.Vdi) a.hostOf[i] = r.int(0, options.hostCount - 1);
  }
  return { endUsers, winVms, winServerPhysical, winServerVirtual };
}
