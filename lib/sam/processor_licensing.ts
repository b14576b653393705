/**
 * Processor licensing figures of a host, computed from parameters (never from product names):
 *
 * - per-core requirement: the sum over processors of max(cores of the processor,
 *   `minCoresPerProcessor`), at least `minCoresPerServer`, rounded up to a multiple of
 *   `corePackSize`; the processors are the inventoried ones (`processorCount`, else the socket
 *   count) with the cores spread evenly over them. A manual socket-count override is shown but
 *   does not change the figures;
 *   the rule is written for x86 servers (one publisher's per-core server products), so a host
 *   whose processors are known not to be x86 (IBM POWER, ARM, SPARC) shows none, with a note
 *   ({@link perCoreApplies});
 * - core-factor requirement: cores × the factor of the processor manufacturer (`coreFactors`,
 *   matched case-insensitively as a part of the manufacturer's name, else its `default`),
 *   rounded up.
 *
 * @module
 */

import type { Resource } from "../api/catalogue.ts";
import { ParamError } from "../report/errors.ts";
import type { ParamSpec } from "../report/model.ts";
import { integerParam, jsonParam } from "../report/param_builders.ts";

/** The default core factors by processor manufacturer. */
export const DEFAULT_CORE_FACTORS: Readonly<Record<string, number>> = {
  Intel: 0.5,
  AMD: 0.5,
  IBM: 1,
  Apple: 1,
  default: 1,
};

/**
 * The report parameters of the two rules (per-core minimums and pack size, core factors).
 *
 * @example
 * ```ts
 * import { LICENSING_PARAMS } from "./processor_licensing.ts";
 * console.log(LICENSING_PARAMS.corePackSize.default); // 2
 * ```
 */
export const LICENSING_PARAMS: Readonly<Record<string, ParamSpec>> = {
  minCoresPerProcessor: integerParam("Per-core rule: cores counted at least per processor", {
    default: 8,
    min: 0,
    max: 1024,
  }),
  minCoresPerServer: integerParam("Per-core rule: cores counted at least per server", {
    default: 16,
    min: 0,
    max: 4096,
  }),
  corePackSize: integerParam("Per-core rule: cores are licensed in packs of this size", {
    default: 2,
    min: 1,
    max: 1024,
  }),
  coreFactors: jsonParam(
    'Core factor by processor manufacturer (matched as part of the name), with a "default"',
    { default: DEFAULT_CORE_FACTORS },
  ),
};

/** Parameters of the per-core rule. */
export interface PerCoreRule {
  /** Cores counted at least per processor. */
  readonly minCoresPerProcessor: number;
  /** Cores counted at least per server. */
  readonly minCoresPerServer: number;
  /** Cores are bought in packs of this size. */
  readonly corePackSize: number;
}

/** Both rules, read from the report's parameters. */
export interface LicensingRules {
  /** The per-core rule. */
  readonly rule: PerCoreRule;
  /** Core factors by manufacturer (with `default`). */
  readonly factors: Readonly<Record<string, number>>;
}

/**
 * The rules from the report's parameters (defaults 8, 16, 2 and {@link DEFAULT_CORE_FACTORS});
 * a `coreFactors` that is not an object of positive numbers is a {@link ParamError}.
 *
 * @example
 * ```ts
 * import { licensingRules } from "./processor_licensing.ts";
 * console.log(licensingRules({ corePackSize: 4 }).rule.corePackSize); // 4
 * ```
 */
export function licensingRules(params: Readonly<Record<string, unknown>>): LicensingRules {
  const rule: PerCoreRule = {
    minCoresPerProcessor: params.minCoresPerProcessor as number ?? 8,
    minCoresPerServer: params.minCoresPerServer as number ?? 16,
    corePackSize: params.corePackSize as number ?? 2,
  };
  return { rule, factors: readFactors(params.coreFactors) };
}

function readFactors(value: unknown): Record<string, number> {
  if (value === undefined || value === null) return { ...DEFAULT_CORE_FACTORS };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ParamError("coreFactors", 'expected a JSON object such as {"Intel":0.5,"default":1}');
  }
  const out: Record<string, number> = {};
  for (const [key, factor] of Object.entries(value as Record<string, unknown>)) {
    if (typeof factor !== "number" || !Number.isFinite(factor) || factor <= 0) {
      throw new ParamError("coreFactors", `the factor of "${key}" must be a positive number`);
    }
    out[key] = factor;
  }
  return out;
}

/**
 * The per-core requirement of a host: the sum over its processors of max(cores,
 * `minCoresPerProcessor`) (cores spread evenly over the processors), at least
 * `minCoresPerServer`, rounded up to a multiple of `corePackSize`. `null` without a processor
 * or core count.
 *
 * @example
 * ```ts
 * import { perCoreRequirement } from "./processor_licensing.ts";
 * const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
 * console.log(perCoreRequirement(2, 12, rule)); // 16 (2 × max(6, 8))
 * console.log(perCoreRequirement(2, 40, rule)); // 40
 * console.log(perCoreRequirement(1, 4, rule)); // 16
 * ```
 */
export function perCoreRequirement(
  processors: number | null,
  cores: number | null,
  rule: PerCoreRule,
): number | null {
  if (!processors || processors < 1 || cores === null || !Number.isFinite(cores) || cores < 0) {
    return null;
  }
  const n = Math.round(processors);
  const base = Math.floor(cores / n);
  const extra = Math.round(cores - base * n); // processors with one core more than `base`
  const least = rule.minCoresPerProcessor;
  const counted = extra * Math.max(base + 1, least) + (n - extra) * Math.max(base, least);
  const wanted = Math.max(counted, rule.minCoresPerServer);
  const pack = Math.max(1, rule.corePackSize);
  return Math.ceil(wanted / pack) * pack;
}

/**
 * The core factor of a processor manufacturer: the first key (other than `default`, longest
 * first) contained case-insensitively in the manufacturer's name, else `default`, else 1.
 *
 * @example
 * ```ts
 * import { coreFactorOf } from "./processor_licensing.ts";
 * console.log(coreFactorOf("GenuineIntel", { Intel: 0.5, default: 1 })); // 0.5
 * console.log(coreFactorOf(null, { Intel: 0.5, default: 1 })); // 1
 * ```
 */
export function coreFactorOf(
  manufacturer: string | null,
  factors: Readonly<Record<string, number>>,
): number {
  const name = (manufacturer ?? "").toLowerCase();
  const keys = Object.keys(factors).filter((k) => k !== "default" && k.trim() !== "")
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  for (const key of keys) {
    if (name !== "" && name.includes(key.toLowerCase())) return factors[key];
  }
  return factors.default ?? 1;
}

/**
 * The core-factor requirement: cores × factor, rounded up (binary noise removed first, so
 * 0.7 × 10 is 7). `null` without a core count.
 *
 * @example
 * ```ts
 * import { coreFactorRequirement } from "./processor_licensing.ts";
 * console.log(coreFactorRequirement(40, 0.5), coreFactorRequirement(6, 0.75)); // 20 5
 * ```
 */
export function coreFactorRequirement(cores: number | null, factor: number): number | null {
  if (cores === null || !Number.isFinite(cores)) return null;
  return Math.ceil(Number((cores * factor).toPrecision(12)));
}

/** The note of a host the per-core rule does not apply to. */
export const PER_CORE_X86_ONLY = "Per-core rule not applied: it is for x86 servers";

/**
 * Whether the per-core rule applies to a host: not when its processors are known not to be x86
 * (IBM POWER, ARM, SPARC, Apple silicon — by the processor manufacturer or type); an unknown
 * processor keeps the rule (and the figure says what it assumed).
 *
 * @example
 * ```ts
 * import { perCoreApplies } from "./processor_licensing.ts";
 * console.log(perCoreApplies({ processorManufacturer: "IBM", processorType: "POWER9" })); // false
 * console.log(perCoreApplies({ processorManufacturer: "Intel" })); // true
 * console.log(perCoreApplies({})); // true
 * ```
 */
export function perCoreApplies(
  hw: Pick<Partial<Resource<"Hardware">>, "processorManufacturer" | "processorType">,
): boolean {
  const text = `${hw.processorManufacturer ?? ""} ${hw.processorType ?? ""}`;
  if (/intel|amd|advanced micro/i.test(hw.processorManufacturer ?? "")) return true;
  return !/\bibm\b|power\s?\d|\barm\b|ampere|graviton|sparc|fujitsu|apple/i.test(text);
}

/** A host's hardware figures and both requirements (all `null` without hardware data). */
export interface HostFigures {
  /** Sockets: the hardware's, else the socket map's. */
  readonly sockets: number | null;
  /** Whether the socket count is a manual override. */
  readonly manualOverride: boolean | null;
  /** Inventoried processors. */
  readonly processors: number | null;
  /** Physical cores. */
  readonly cores: number | null;
  /** Logical processors (threads). */
  readonly logicalProcessors: number | null;
  /** The processor type. */
  readonly processorType: string | null;
  /** The per-core requirement. */
  readonly perCoreRequirement: number | null;
  /** The core factor of the processor manufacturer. */
  readonly coreFactor: number | null;
  /** The core-factor requirement. */
  readonly coreFactorRequirement: number | null;
}

/**
 * The figures of a host from its hardware inventory and socket map (either may be missing).
 *
 * @example
 * ```ts
 * import { DEFAULT_CORE_FACTORS, hostFigures } from "./processor_licensing.ts";
 * const rule = { minCoresPerProcessor: 8, minCoresPerServer: 16, corePackSize: 2 };
 * const hw = { socketCount: 2, processorCount: 2, coreCount: 40, processorManufacturer: "Intel" };
 * const f = hostFigures(hw, null, { rule, factors: DEFAULT_CORE_FACTORS });
 * console.log(f.perCoreRequirement, f.coreFactorRequirement); // 40 20
 * ```
 */
export function hostFigures(
  hw: Partial<Resource<"Hardware">> | null,
  socketMap: Pick<Resource<"SocketMap">, "socketCount"> | null,
  { rule, factors }: LicensingRules,
): HostFigures {
  const sockets = hw?.socketCount ?? socketMap?.socketCount ?? null;
  const processors = hw?.processorCount ?? null;
  const cores = hw?.coreCount ?? null;
  const factor = hw ? coreFactorOf(hw.processorManufacturer ?? null, factors) : null;
  return {
    sockets,
    manualOverride: hw?.isSocketCountManualOverrideEnabled ?? null,
    processors,
    cores,
    logicalProcessors: hw?.logicalProcessorCount ?? null,
    processorType: hw?.processorType ?? null,
    perCoreRequirement: hw && perCoreApplies(hw)
      ? perCoreRequirement(processors ?? sockets, cores, rule)
      : null,
    coreFactor: factor,
    coreFactorRequirement: hw && factor !== null ? coreFactorRequirement(cores, factor) : null,
  };
}
