/**
 * When an install's license could be reclaimed: it is idle for at least the top threshold (or
 * forever) and its computer-application entitlement state says it consumes a license (a state
 * named `Licensed…` or `Under-licensed`, not `Unlicensed`).
 *
 * @module
 */

import type { LicensesApi } from "../../lib/api/client.ts";
import type { QueryContext } from "../../lib/query/context.ts";

/**
 * Whether an entitlement state means the install consumes a license: a name starting a word with
 * `licensed` (`Licensed`, `Licensed <via upgrade & downgrade>`, `Under-licensed`), not
 * `Unlicensed`.
 *
 * @example
 * ```ts
 * import { consumesLicense } from "./reclaimable.ts";
 * console.log(consumesLicense("Under-licensed"), consumesLicense("Unlicensed")); // true false
 * ```
 */
export function consumesLicense(stateName: string | null | undefined): boolean {
  return /(^|[\s-])licensed\b/i.test(stateName ?? "");
}

/** Whether a computer's install of an application consumes a license. */
export type IsLicensed = (install: {
  readonly computerId: string | null;
  readonly applicationId: string | null;
}) => boolean;

/**
 * Which installs consume a license, from the entitlement states (read once per run, cache key
 * `licenses.entitlementStates`) and the computer-application entitlements (streamed).
 *
 * @example
 * ```ts ignore
 * import { licensedInstalls } from "./reclaimable.ts";
 * const isLicensed = await licensedInstalls(ctx);
 * console.log(isLicensed({ computerId: "C000001", applicationId: "APP0001" }));
 * ```
 */
export async function licensedInstalls(ctx: {
  readonly client: {
    readonly licenses: Pick<LicensesApi, "computerEntitlements" | "entitlementStates">;
  };
  readonly query: QueryContext;
  readonly signal: AbortSignal;
}): Promise<IsLicensed> {
  const states = await ctx.query.all(
    "licenses.entitlementStates",
    () => ctx.client.licenses.entitlementStates(),
  );
  const licensedStates = new Set(states.filter((s) => consumesLicense(s.name)).map((s) => s.id));
  const licensed = new Set<string>();
  for await (const e of ctx.client.licenses.computerEntitlements({ signal: ctx.signal })) {
    if (e.entitlementStateId && licensedStates.has(e.entitlementStateId)) {
      licensed.add(`${e.computerId}\u0000${e.applicationId}`);
    }
  }
  return (i) => licensed.has(`${i.computerId}\u0000${i.applicationId}`);
}

/**
 * Whether an install's license could be reclaimed: licensed, and idle `top` days or more (or
 * forever: `idleDays` null).
 *
 * @example
 * ```ts
 * import { isReclaimable } from "./reclaimable.ts";
 * console.log(isReclaimable(true, null, 180), isReclaimable(true, 90, 180)); // true false
 * ```
 */
export function isReclaimable(licensed: boolean, idleDays: number | null, top: number): boolean {
  return licensed && (idleDays === null || idleDays >= top);
}
