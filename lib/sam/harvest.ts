/**
 * Harvest: which idle installs of a short application × metric to remove, and what each removal
 * frees — the requirement the metric tracking counts for it, never one unit per install by
 * assumption. Installs are grouped into **harvest units**, the installs that must all go for a
 * requirement to drop:
 *
 * - an ordinary install: its computer's metric-tracking requirement (per device 1, per core its
 *   cores × core factor with minimums, …);
 * - a physical host whose row carries the requirement (a per-core product on its VMs): every
 *   install of the application on the host and on each VM whose host it is; the host's
 *   requirement drops only when none of them remains, since any one left still needs all of it;
 * - a per-user metric: every install of the application on the computers of the same user (the
 *   computer's most frequent user); the user still needs the license while one remains.
 *
 * A unit is harvestable when every install in it is installed, idle for at least `idleDays`
 * (idle days from the last use; a never-used install from its first discovery; unknown: idle
 * forever) and none is excluded. Units are taken most idle first (then largest requirement)
 * until the shortfall is covered.
 *
 * @module
 */

/** An installed application on a computer, with its usage. */
export interface InstallUsage {
  /** The computer. */
  readonly computerId: string;
  /** The application. */
  readonly applicationId: string;
  /** When it was last used; null: never. */
  readonly lastUsed: Date | null;
  /** When it was first discovered; null: unknown. */
  readonly firstDiscovered: Date | null;
  /** Whole days unused; null: unknown (idle forever). */
  readonly idleDays: number | null;
}

/** A metric-tracking row as harvest reads it. */
export interface HarvestRow {
  /** The computer the row counts. */
  readonly computerId: string | null;
  /** The units the row requires. */
  readonly requirement: number | null;
  /** Non-zero when the row is a physical host's requirement. */
  readonly physicalHost?: number | null;
}

/** A computer as harvest reads it. */
export interface HarvestComputer {
  /** The computer's id. */
  readonly id: string | null;
  /** The host it runs on, for a virtual machine. */
  readonly hostComputerId?: string | null;
  /** Its most frequent user. */
  readonly mostFrequentUser?: string | null;
}

/** Installs that must all be removed for `frees` units of requirement to drop. */
export interface HarvestUnit {
  /** `install`, `host` (the host's requirement) or `user` (one user's requirement). */
  readonly kind: "install" | "host" | "user";
  /** The computer (install, host) or user the requirement belongs to. */
  readonly holder: string;
  /** The installs to remove, together. */
  readonly installs: readonly InstallUsage[];
  /** Units of the metric the removals free together. */
  readonly frees: number;
}

/** What {@link harvestUnits} reads for one application × metric. */
export interface HarvestInputs {
  /** Its metric-tracking rows (requirement above 0, or moved to a host). */
  readonly rows: readonly HarvestRow[];
  /** Installed installs of the application, by computer id. */
  readonly installs: ReadonlyMap<string, InstallUsage>;
  /** Computers by id. */
  readonly computers: ReadonlyMap<string | null, HarvestComputer>;
  /** Whether the metric counts users. */
  readonly perUser: boolean;
}

/** The list under `key` in `lists`, made empty when there is none. */
function listIn<T>(lists: Map<string, T[]>, key: string): T[] {
  let list = lists.get(key);
  if (list === undefined) lists.set(key, list = []);
  return list;
}

const units = (n: number | null | undefined) => (typeof n === "number" && n > 0 ? n : 0);

/**
 * The harvest units of one application × metric (see the module doc), in holder order.
 *
 * @example
 * ```ts
 * import { harvestUnits } from "./harvest.ts";
 * const idle = (computerId: string) =>
 *   ({ computerId, applicationId: "DB", lastUsed: null, firstDiscovered: null, idleDays: null });
 * const [host] = harvestUnits({
 *   rows: [{ computerId: "H1", requirement: 16, physicalHost: 1 }, { computerId: "VM1", requirement: 0 }],
 *   installs: new Map([["VM1", idle("VM1")], ["VM2", idle("VM2")]]),
 *   computers: new Map([["VM1", { id: "VM1", hostComputerId: "H1" }], ["VM2", { id: "VM2", hostComputerId: "H1" }]]),
 *   perUser: false,
 * });
 * console.log(host.kind, host.frees, host.installs.length); // "host" 16 2
 * ```
 */
export function harvestUnits(inputs: HarvestInputs): HarvestUnit[] {
  const { rows, installs, computers } = inputs;
  const hostOf = (id: string) => computers.get(id)?.hostComputerId ?? null;
  const hosts = new Map<string, number>();
  for (const r of rows) {
    if (r.computerId && units(r.physicalHost) > 0 && units(r.requirement) > 0) {
      hosts.set(r.computerId, (hosts.get(r.computerId) ?? 0) + units(r.requirement));
    }
  }
  // Each host's installs (its own and its guests'), in install order, from one pass.
  const onHosts = new Map<string, InstallUsage[]>();
  for (const i of installs.values()) {
    const own = hosts.has(i.computerId) ? i.computerId : null;
    const guestOf = hostOf(i.computerId);
    for (const host of [own, guestOf === own ? null : guestOf]) {
      if (host !== null && hosts.has(host)) listIn(onHosts, host).push(i);
    }
  }
  const out: HarvestUnit[] = [];
  for (const [host, frees] of hosts) {
    out.push({ kind: "host", holder: host, installs: onHosts.get(host) ?? [], frees });
  }
  const onHost = (id: string) => hosts.has(id) || hosts.has(hostOf(id) ?? "");
  const groups = new Map<string, { frees: number; computers: Set<string> }>();
  for (const r of rows) {
    if (!r.computerId || onHost(r.computerId) || units(r.requirement) === 0) continue;
    const holder = inputs.perUser
      ? computers.get(r.computerId)?.mostFrequentUser ?? r.computerId
      : r.computerId;
    const g = groups.get(holder) ?? { frees: 0, computers: new Set<string>() };
    g.frees += units(r.requirement);
    g.computers.add(r.computerId);
    groups.set(holder, g);
  }
  // A user's installs, in install order, from one pass.
  const byUser = new Map<string, InstallUsage[]>();
  if (inputs.perUser) {
    for (const i of installs.values()) {
      const user = computers.get(i.computerId)?.mostFrequentUser ?? i.computerId;
      if (groups.has(user)) listIn(byUser, user).push(i);
    }
  }
  for (const [holder, g] of groups) {
    const on = inputs.perUser
      ? byUser.get(holder) ?? []
      : [...g.computers].flatMap((c) => installs.get(c) ?? []);
    out.push({ kind: inputs.perUser ? "user" : "install", holder, installs: on, frees: g.frees });
  }
  return out.sort((a, b) => (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0));
}

/** What decides whether a unit may be harvested. */
export interface HarvestRules {
  /** Minimum idle days. */
  readonly idleDays: number;
  /** Installs never to harvest. */
  readonly excluded: (install: InstallUsage) => boolean;
}

/**
 * Whether a unit is harvestable: it has installs, frees something, and every install is idle
 * for at least `idleDays` (unknown idleness counts as idle) and not excluded.
 *
 * @example
 * ```ts
 * import { harvestable } from "./harvest.ts";
 * const install = { computerId: "C1", applicationId: "A", lastUsed: null, firstDiscovered: null, idleDays: 120 };
 * const unit = { kind: "install", holder: "C1", installs: [install], frees: 1 } as const;
 * console.log(harvestable(unit, { idleDays: 90, excluded: () => false })); // true
 * console.log(harvestable(unit, { idleDays: 180, excluded: () => false })); // false
 * ```
 */
export function harvestable(unit: HarvestUnit, rules: HarvestRules): boolean {
  return unit.frees > 0 && unit.installs.length > 0 &&
    unit.installs.every((i) =>
      (i.idleDays === null || i.idleDays >= rules.idleDays) && !rules.excluded(i)
    );
}

/** The least idle install of a unit, in days (Infinity: all unknown). */
function unitIdle(unit: HarvestUnit): number {
  return Math.min(...unit.installs.map((i) => i.idleDays ?? Infinity));
}

/**
 * The harvestable units to remove to cover `shortfall`: most idle first, then the largest
 * requirement, then by holder; stops once the freed units reach the shortfall.
 *
 * @example
 * ```ts
 * import { chooseHarvest } from "./harvest.ts";
 * const unit = (holder: string, idleDays: number, frees: number) => ({
 *   kind: "install" as const, holder, frees,
 *   installs: [{ computerId: holder, applicationId: "A", lastUsed: null, firstDiscovered: null, idleDays }],
 * });
 * const chosen = chooseHarvest([unit("C1", 100, 1), unit("C2", 400, 1), unit("C3", 10, 1)], 1, {
 *   idleDays: 90, excluded: () => false,
 * });
 * console.log(chosen.map((u) => u.holder)); // ["C2"]
 * ```
 */
export function chooseHarvest(
  units: readonly HarvestUnit[],
  shortfall: number,
  rules: HarvestRules,
): HarvestUnit[] {
  const idler = (a: HarvestUnit, b: HarvestUnit) => {
    const x = unitIdle(a), y = unitIdle(b);
    return x === y ? 0 : x > y ? -1 : 1;
  };
  const ordered = units.filter((u) => harvestable(u, rules)).sort((a, b) =>
    idler(a, b) || b.frees - a.frees ||
    (a.holder < b.holder ? -1 : a.holder > b.holder ? 1 : 0)
  );
  const out: HarvestUnit[] = [];
  let freed = 0;
  for (const u of ordered) {
    if (freed >= shortfall) break;
    out.push(u);
    freed += u.frees;
  }
  return out;
}
