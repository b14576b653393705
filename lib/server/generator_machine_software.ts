/**
 * A computer's installed software: its operating system and one product per software group it
 * has (with the group's bundle components), drawn from the stream of the computer whose choices
 * it repeats (a disaster-recovery replica repeats its primary's), plus the installs the plan
 * forces. Hosts run their hypervisor or operating system only.
 *
 * @module
 */

import { type AppDecl, APPS, GROUPS, OS_CHOICES } from "./generator_catalogue.ts";
import { APP_INFOS, appOf, FAMILIES } from "./generator_context.ts";
import type { MachineBase } from "./generator_machine.ts";
import { Hypervisor, Kind, type Plan } from "./generator_plan.ts";
import type { Random } from "./random.ts";

/** Installed products of one computer. */
export interface Software {
  /** Product index of the operating system (also `installs[0]`). */
  readonly osApp: number;
  /** Its declaration. */
  readonly osDecl: AppDecl;
  /** Product indexes, in install order. */
  readonly installs: number[];
  /** Per install: the bundle product it is a component of, or -1. */
  readonly bundleOf: number[];
  /** Products installed because the plan forces them (never left uninstalled). */
  readonly forcedApps: ReadonlySet<number>;
}

const GROUP_MEMBERS = GROUPS.map((g) => ({
  key: g.key,
  presence: g.presence as Readonly<Record<number, number | undefined>>,
  apps: g.members.map(([k]) => appOf(k)),
  weights: g.members.map(([, w]) => w),
}));
const OS_APPS = Object.fromEntries(
  Object.entries(OS_CHOICES).map(([p, list]) => [
    p,
    { apps: list.map(([k]) => appOf(k)), weights: list.map(([, w]) => w) },
  ]),
) as Record<number, { apps: number[]; weights: number[] }>;
const VMTOOLS = appOf("vmtools");
const FAMILY = Object.fromEntries(FAMILIES.map((f, i) => [f.key, i])) as Record<string, number>;

/** One product per group the profile has (or the plan forces), with its components. */
function addGroupInstalls(
  appR: Random,
  profile: number,
  forced: ReadonlyMap<string, string> | undefined,
  out: { installs: number[]; bundleOf: number[]; forcedApps: Set<number> },
): void {
  for (const g of GROUP_MEMBERS) {
    const presence = g.presence[profile] ?? 0;
    const rollIn = appR.next(), rollPick = appR.next();
    const forcedApp = forced?.get(g.key);
    if (forcedApp === undefined && (presence === 0 || rollIn >= presence)) continue;
    let app: number;
    if (forcedApp) app = appOf(forcedApp);
    else {
      let x = rollPick * g.weights.reduce((s, w) => s + w, 0);
      let k = 0;
      while (k < g.apps.length - 1 && (x -= g.weights[k]) >= 0) k++;
      app = g.apps[k];
    }
    if (forcedApp !== undefined) out.forcedApps.add(app);
    out.installs.push(app);
    out.bundleOf.push(-1);
    for (const c of APP_INFOS[app].components) {
      out.installs.push(c);
      out.bundleOf.push(app);
    }
  }
}

/**
 * Draw a computer's installs from `appR`, the apps stream of `plan.appSource[m.index]`.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { planSoftware } from "./generator_machine_software.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * import { streamFor } from "./generator_context.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const plan = buildPlan(1, 40);
 * const ctx = createContext({ seed: 1, now, n: 40, plan, emit: () => {} });
 * const sw = planSoftware(planMachine(ctx, 3), plan, streamFor(1, "apps", plan.appSource[3]));
 * console.log(sw.installs[0] === sw.osApp); // true
 * ```
 */
export function planSoftware(m: MachineBase, plan: Plan, appR: Random): Software {
  const { hostPlan, myHost, profile } = m;
  const osApp = hostPlan
    ? appOf(hostPlan.osApp)
    : OS_APPS[profile].apps[appR.weightedIndex(OS_APPS[profile].weights)];
  const out = { installs: [osApp], bundleOf: [-1], forcedApps: new Set<number>() };
  if (myHost && myHost.hypervisor === Hypervisor.Esxi && m.kind === Kind.Vm) {
    out.installs.push(VMTOOLS);
    out.bundleOf.push(-1);
  }
  if (!hostPlan) addGroupInstalls(appR, profile, plan.forced.get(plan.appSource[m.index]), out);
  return { osApp, osDecl: APPS[osApp], ...out };
}

/**
 * Whether any install belongs to the license family with the given key.
 *
 * @example
 * ```ts
 * import { hasFamily } from "./generator_machine_software.ts";
 * console.log(hasFamily({ installs: [] }, "sql-server")); // false
 * ```
 */
export function hasFamily(sw: Pick<Software, "installs">, key: string): boolean {
  return sw.installs.some((a) => APP_INFOS[a].family === FAMILY[key]);
}

/**
 * Whether the product with the given key is among the installs.
 *
 * @example
 * ```ts
 * import { hasApp } from "./generator_machine_software.ts";
 * console.log(hasApp({ installs: [] }, "vmtools")); // false
 * ```
 */
export function hasApp(sw: Pick<Software, "installs">, key: string): boolean {
  return sw.installs.includes(appOf(key));
}
