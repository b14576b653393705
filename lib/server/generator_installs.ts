/**
 * The installed products of one computer: whether each is still installed (a bundle component
 * follows its bundle), its usage, the `computer_applications`, `application_usage` and
 * `user_application_usage` rows, the running usage aggregates, and the licensing of each
 * installed licensable product.
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import { APP_INFOS, type Ctx, DAY, HOUR, iso, userId } from "./generator_context.ts";
import { licenseInstall } from "./generator_install_licensing.ts";
import type { Machine } from "./generator_machine.ts";
import { Kind } from "./generator_plan.ts";
import {
  drawInstallUsage,
  duration,
  type Usage,
  usageTotals,
  type UsageWindow,
} from "./generator_usage.ts";

/** What the installs of one computer share. */
interface InstallScope {
  /** The users whose usage is recorded. */
  readonly users: readonly number[];
  readonly window: UsageWindow;
  /** Per install index: 1 when installed. */
  readonly installed: Uint8Array;
}

/** The users whose usage is recorded: the end user, or one or two administrators who log on. */
function usageUsers(ctx: Ctx, m: Machine): number[] {
  if (m.endUser) return [ctx.plan.user[m.index]];
  return m.logons.list.slice(0, m.random.chance(0.2) ? 2 : 1).map((l) => l.user);
}

/** Install counts per license family. */
function familyCounts(installs: readonly number[]): Map<number, number> {
  const familyCount = new Map<number, number>();
  for (const a of installs) {
    const f = APP_INFOS[a].family;
    if (f >= 0) familyCount.set(f, (familyCount.get(f) ?? 0) + 1);
  }
  return familyCount;
}

/** Whether install `k` is still installed (a component follows its bundle). */
function isInstalledAt(m: Machine, k: number, installed: Uint8Array): boolean {
  const { installs, bundleOf, forcedApps } = m.sw;
  const a = installs[k];
  const bundle = bundleOf[k];
  if (bundle >= 0) return installed[installs.indexOf(bundle)] === 1;
  const core = k === 0 || APP_INFOS[a].decl.alwaysUsed === true;
  return core || forcedApps.has(a) || !m.random.chance(0.03);
}

/** The `application_usage` and `user_application_usage` rows, and the usage aggregates. */
function emitUserUsage(
  ctx: Ctx,
  m: Machine,
  a: number,
  bundleId: string | null,
  isInstalled: boolean,
  usersWithUsage: readonly [number, Usage][],
): void {
  const { agg, emit } = ctx;
  const info = APP_INFOS[a];
  for (const [u, use] of usersWithUsage) {
    emit("application_usage", {
      computerId: m.id,
      userId: userId(u),
      bundleApplicationId: bundleId,
      applicationId: info.id,
      firstUsed: iso(use.firstUsed),
      lastUsedDate: iso(use.lastUsed),
      usedCount: use.usedCount,
      usedMinutes: use.usedMinutes,
      usedDays: use.usedDays,
      isInstalled,
    });
    if (m.endUser) {
      agg.appEndUsers[a]++;
      emit("user_application_usage", {
        userId: userId(u),
        applicationId: info.id,
        bundleApplicationId: bundleId,
        lastUsedDate: iso(use.lastUsed),
      });
    } else {
      agg.appAdmins[a].add(u);
      const key = u * APP_INFOS.length + a;
      const prev = agg.adminUsage.get(key);
      if (prev === undefined || use.lastUsed > prev) agg.adminUsage.set(key, use.lastUsed);
    }
  }
}

/** Emit install `k` with its usage; returns whether it is installed. */
function emitInstall(ctx: Ctx, m: Machine, k: number, scope: InstallScope): boolean {
  const r = m.random;
  const a = m.sw.installs[k];
  const info = APP_INFOS[a];
  const bundle = m.sw.bundleOf[k];
  const core = k === 0 || info.decl.alwaysUsed === true;
  const isInstalled = isInstalledAt(m, k, scope.installed);
  scope.installed[k] = isInstalled ? 1 : 0;
  const use = drawInstallUsage(r, scope.users, scope.window, info.decl.alwaysUsed === true);
  const firstDiscovered = Math.max(
    m.life.clientInstall,
    use.discovered - r.int(0, 14) * DAY - r.int(0, DAY),
  );
  const t = usageTotals(use.perUser);
  const bundleId = bundle >= 0 ? APP_INFOS[bundle].id : null;
  const usersWithUsage = use.perUser.filter(([u]) => u >= 0);
  ctx.emit("computer_applications", {
    computerId: m.id,
    applicationId: info.id,
    bundleApplicationId: bundleId,
    packageGUID: info.packageGUID,
    averageUsedTime: duration(t.usedCount === 0 ? 0 : t.usedMinutes / t.usedCount),
    firstDiscovered: iso(firstDiscovered),
    firstUsed: iso(t.firstUsed),
    lastUsed: iso(t.lastUsed),
    usedCount: t.usedCount,
    usedUser: usersWithUsage.length,
    usedMinutes: t.usedMinutes,
    usedDays: t.usedDays,
    isInstalled,
    isOEM: k === 0 && m.profile === Profile.Win && !m.isVirtual,
    isVendorDN: info.decl.devNetwork === true,
    isVirtual: m.kind === Kind.Vdi && !core && r.chance(0.1),
    isOverridden: r.chance(0.01),
    isRecognized: r.chance(0.98),
    isRegistry: m.names.windows && r.chance(0.85),
    unbundled: false,
    bundleUsagePercentage: bundleId === null ? null : 100,
  });
  ctx.agg.appComputers[a]++;
  if (isInstalled) ctx.agg.appInstalls[a]++;
  emitUserUsage(ctx, m, a, bundleId, isInstalled, usersWithUsage);
  return isInstalled;
}

/**
 * Emit every install of a computer with its usage and licensing; returns the list price of its
 * licensable installs in cents of its currency (for its `computer_costs` row).
 *
 * @example
 * ```ts
 * import { emitInstalls } from "./generator_installs.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * const cents = emitInstalls(ctx, planMachine(ctx, 0));
 * console.log(tables.has("computer_applications"), cents >= 0); // true true
 * ```
 */
export function emitInstalls(ctx: Ctx, m: Machine): number {
  const scope: InstallScope = {
    users: usageUsers(ctx, m),
    window: { floor: m.life.clientInstall + HOUR, lastScan: m.life.lastScan, now: ctx.now },
    installed: new Uint8Array(m.sw.installs.length),
  };
  const familyCount = familyCounts(m.sw.installs);
  let appCostCents = 0;
  m.sw.installs.forEach((a, k) => {
    const isInstalled = emitInstall(ctx, m, k, scope);
    if (isInstalled && APP_INFOS[a].family >= 0) {
      appCostCents += licenseInstall(ctx, m, a, familyCount);
    }
  });
  return appCostCents;
}
