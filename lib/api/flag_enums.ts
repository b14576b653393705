/**
 * The flag enums of the public service: integer bitmasks its documents declare (`x-enumFlags`)
 * and its examples show as arrays of names. samkit reads every form the service may send — a
 * number (`3`), an array of names (`["MissingApplication", "MissingLicenseCount"]`) or names in
 * one comma-separated string (`"MissingApplication, MissingLicenseCount"`) — as one typed form:
 * the list of names of the bits set, in the document's bit order. `None` (0) is the empty list.
 *
 * Names and bit values are the vendor's (licenses.yaml: `IncompleteLicenseReason`,
 * `InvalidAssignmentReasons`, `UseRightType`). A bit no document names is kept as its decimal
 * value (`"64"`), and a name no document lists is kept as sent, so a newer service never fails a
 * read; a value of another shape (an object, `true`, a fraction) is not a flag set.
 *
 * @module
 */

/** The name of a flag enum of the vendor's documents. */
export type FlagEnumName =
  | "IncompleteLicenseReason"
  | "InvalidAssignmentReasons"
  | "UseRightType";

/** One flag enum: its names by bit value (0 is `None`), and composite names (`All`). */
export interface FlagEnum {
  /** Single-bit names with their bit, in the document's order. */
  readonly bits: readonly (readonly [name: string, bit: number])[];
  /** Names standing for several bits (`All` = 255), read but never written. */
  readonly composites: Readonly<Record<string, number>>;
}

const bits = (names: string, values: readonly number[]) =>
  names.trim().split(/\s+/).map((n, i) => [n, values[i]!] as const);

/**
 * Every flag enum of the vendor's documents, with its names and bit values.
 *
 * @example
 * ```ts
 * import { FLAG_ENUMS } from "./flag_enums.ts";
 * console.log(FLAG_ENUMS.IncompleteLicenseReason.bits[0]); // ["MissingApplication", 1]
 * ```
 */
export const FLAG_ENUMS: Readonly<Record<FlagEnumName, FlagEnum>> = {
  IncompleteLicenseReason: {
    bits: bits(
      `MissingApplication MissingLicenseCount MissingMetric MissingBaseLicenses
      InvalidSubscriptionPeriod MissingValidFromToDate MissingAgreementNumber
      MissingAssignmentType`,
      [1, 2, 4, 8, 16, 32, 64, 128],
    ),
    composites: { All: 255 },
  },
  InvalidAssignmentReasons: {
    bits: bits(
      `SubscriptionExpired Unassigned ComputerMissing InactiveComputer UserMissing
      DatacenterMissing InvalidMetric NoEliglibleApplicationInstalled
      NoEligibleApplicationIsInstalledOnAnyComputerWhereUserIsPrimary
      UserHasNotUsedAnyEligibleApplication Incomplete OverAssignment InvalidQuantity
      UserHasNotUsedAnyEligibleApplicationWithinPeriod InvalidMetricGroup InvalidProcessorCount`,
      [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768],
    ),
    composites: {},
  },
  UseRightType: {
    bits: bits(
      `Standard UpgradeRights DowngradeRights CrossEdition VirtualDesktopAccess VmSupport
      NinetyDayRule ProcessorLimitations ProcessorCoreLimitations NamedComputer NamedDatacenter
      NamedApplicationCluster NamedUser Site CrossPlatform`,
      [1, 2, 4, 8, 16, 32, 256, 512, 1024, 8192, 16384, 32768, 65536, 131072, 262144],
    ),
    composites: {},
  },
};

const MAX_BITS = 2 ** 31;
const isMask = (n: number) => Number.isInteger(n) && n >= 0 && n < MAX_BITS;

/**
 * The names of the bits set in a bitmask, in the enum's bit order; an undeclared bit as its
 * decimal value. `undefined` when `mask` is not a non-negative 31-bit integer.
 *
 * @example
 * ```ts
 * import { flagNames } from "./flag_enums.ts";
 * console.log(flagNames("IncompleteLicenseReason", 5)); // ["MissingApplication", "MissingMetric"]
 * console.log(flagNames("UseRightType", 64)); // ["64"]
 * console.log(flagNames("UseRightType", 0)); // []
 * ```
 */
export function flagNames(name: FlagEnumName, mask: number): string[] | undefined {
  if (!isMask(mask)) return undefined;
  const out: string[] = [];
  let rest = mask;
  for (const [flag, bit] of FLAG_ENUMS[name].bits) {
    if ((rest & bit) !== 0) out.push(flag);
    rest &= ~bit;
  }
  for (let bit = 1; rest !== 0; bit *= 2) {
    if ((rest & bit) !== 0) out.push(String(bit));
    rest &= ~bit;
  }
  return out;
}

/**
 * The bitmask of a list of names (case-insensitive; a composite such as `All` adds its bits,
 * `None` adds nothing, a decimal adds itself). `undefined` when a name is neither in the enum
 * nor a number.
 *
 * @example
 * ```ts
 * import { flagMask } from "./flag_enums.ts";
 * console.log(flagMask("UseRightType", ["NamedComputer", "UpgradeRights"])); // 8194
 * console.log(flagMask("UseRightType", ["Nonsense"])); // undefined
 * ```
 */
export function flagMask(name: FlagEnumName, names: readonly string[]): number | undefined {
  let mask = 0;
  for (const raw of names) {
    const bit = bitOf(name, raw);
    if (bit === undefined) return undefined;
    mask |= bit;
  }
  return mask;
}

function bitOf(name: FlagEnumName, raw: string): number | undefined {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return isMask(Number(text)) ? Number(text) : undefined;
  const lower = text.toLowerCase();
  if (lower === "none" || lower === "") return 0;
  const e = FLAG_ENUMS[name];
  for (const [flag, bit] of e.bits) if (flag.toLowerCase() === lower) return bit;
  for (const [flag, bits] of Object.entries(e.composites)) {
    if (flag.toLowerCase() === lower) return bits;
  }
  return undefined;
}

/**
 * A flag value in any form the service sends, as the list of names: a bitmask (a number or
 * decimal text), an array of names, or names separated by commas (or `|`). Names keep the
 * enum's spelling and bit order; unknown names are kept as sent, after the known ones; `None`
 * and empty entries are dropped. `undefined` when the value is of no flag form.
 *
 * @example
 * ```ts
 * import { readFlags } from "./flag_enums.ts";
 * const r = (v: unknown) => readFlags("IncompleteLicenseReason", v);
 * console.log(r(5)); // ["MissingApplication", "MissingMetric"]
 * console.log(r(["MissingMetric", "MissingApplication"])); // ["MissingApplication", "MissingMetric"]
 * console.log(r("missingmetric, MissingApplication")); // ["MissingApplication", "MissingMetric"]
 * console.log(r("None"), r(true)); // [] undefined
 * ```
 */
export function readFlags(name: FlagEnumName, value: unknown): string[] | undefined {
  if (typeof value === "number") return flagNames(name, value);
  let parts: string[];
  if (typeof value === "string") parts = value.split(/[,|]/);
  else if (Array.isArray(value) && value.every((v) => typeof v === "string" || isNum(v))) {
    parts = value.map(String);
  } else return undefined;
  let mask = 0;
  const unknown: string[] = [];
  for (const part of parts) {
    const bit = bitOf(name, part);
    if (bit === undefined) {
      if (!unknown.includes(part.trim())) unknown.push(part.trim());
    } else mask |= bit;
  }
  return [...flagNames(name, mask)!, ...unknown];
}

const isNum = (v: unknown) => typeof v === "number" && isMask(v);
