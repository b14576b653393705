/**
 * An application's license coverage: the licensed quantity against the metric requirement and
 * against installations. A negative surplus is a shortfall. Requirements are fractional sums, so
 * they and the surplus are rounded to the millionth (binary noise never shows as a shortfall).
 *
 * @module
 */

import type { Comparator } from "../../lib/query/sort.ts";

/** An application's surplus or shortfall. */
export interface Coverage {
  /** Units licensed. */
  readonly licensed: number;
  /** Installations. */
  readonly installations: number;
  /** The requirement, rounded to the millionth. */
  readonly requirement: number;
  /** Licensed − requirement (rounded; negative: short). */
  readonly vsRequirement: number;
  /** Licensed − installations (negative: more installations than licenses). */
  readonly vsInstallations: number;
  /** Units short of the requirement (0 when covered). */
  readonly shortfall: number;
  /** Licensed − requirement unrounded, for ordering ({@link shortfallsFirst}). */
  readonly gap: number;
}

/**
 * Rounds to the millionth.
 *
 * @example
 * ```ts
 * import { round6 } from "./coverage.ts";
 * console.log(round6(0.1 + 0.2)); // 0.3
 * ```
 */
export function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/**
 * The coverage of `licensed` units against a requirement and installations.
 *
 * @example
 * ```ts
 * import { coverage } from "./coverage.ts";
 * console.log(coverage({ licensed: 5, requirement: 7.5, installations: 3 }).shortfall); // 2.5
 * ```
 */
export function coverage(
  { licensed, requirement, installations }: {
    readonly licensed: number;
    readonly requirement: number;
    readonly installations: number;
  },
): Coverage {
  const required = round6(requirement);
  const vsRequirement = round6(licensed - required);
  return {
    licensed,
    installations,
    requirement: required,
    vsRequirement,
    vsInstallations: licensed - installations,
    shortfall: vsRequirement < 0 ? -vsRequirement : 0,
    gap: licensed - required,
  };
}

/**
 * Orders shortfalls first, the largest first; covered items compare equal (chain a name order).
 *
 * @example
 * ```ts
 * import { shortfallsFirst } from "./coverage.ts";
 * import { asc, sortBy } from "../../lib/query/sort.ts";
 * const rows = [{ n: "a", gap: 2 }, { n: "b", gap: -1 }, { n: "c", gap: -5 }];
 * console.log(sortBy(rows, shortfallsFirst, asc((r) => r.n)).map((r) => r.n)); // ["c", "b", "a"]
 * ```
 */
export const shortfallsFirst: Comparator<{ readonly gap: number }> = (a, b) => {
  if ((a.gap < 0) !== (b.gap < 0)) return a.gap < 0 ? -1 : 1;
  return a.gap < 0 ? a.gap - b.gap : 0;
};

/** Per application id: units licensed, installations, requirement. */
export interface Usage {
  /** Units licensed per application. */
  readonly licensed: ReadonlyMap<string, number>;
  /** Installations per application. */
  readonly installations: ReadonlyMap<string | null, number>;
  /** Requirement per application. */
  readonly requirement: ReadonlyMap<string | null, number>;
}

/**
 * The coverage of each application that has licenses (of those `applications` holds, when
 * given) or a requirement, with its id.
 *
 * @example
 * ```ts
 * import { coverages } from "./coverage.ts";
 * const usage = {
 *   licensed: new Map([["A1", 2], ["A2", 0]]),
 *   installations: new Map([["A2", 4]]),
 *   requirement: new Map([["A3", 1.5]]),
 * };
 * console.log(coverages(usage).map((c) => `${c.id}:${c.vsRequirement}`)); // ["A1:2", "A3:-1.5"]
 * ```
 */
export function coverages(
  usage: Usage,
  applications?: { has(id: string): boolean },
): (Coverage & { readonly id: string })[] {
  const ids = new Set([
    ...[...usage.licensed].filter(([id, q]) => q > 0 && (applications?.has(id) ?? true)),
    ...[...usage.requirement].filter(([id, r]) => id !== null && r > 0),
  ].map(([id]) => id!));
  return [...ids].map((id) => ({
    id,
    ...coverage({
      licensed: usage.licensed.get(id) ?? 0,
      installations: usage.installations.get(id) ?? 0,
      requirement: usage.requirement.get(id) ?? 0,
    }),
  }));
}
