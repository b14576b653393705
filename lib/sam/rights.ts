/**
 * Which other product a license may cover under the rights recorded in the license data: a
 * license with downgrade rights (`isDowngrade`) covers an older version of its product family,
 * one with cross-edition rights (`isCrossEdition`) a lower edition of it. Versions and editions
 * come from the registry: the same `familyId`, `versionIndex` (ties broken by `releaseDate`) and
 * `editionIndex`. A newer version or a higher edition is never covered (that is an upgrade).
 *
 * @module
 */

/** A registry application as the rights rule reads it. */
export interface ProductVersion {
  /** The application. */
  readonly id: string | null;
  /** Its product family. */
  readonly familyId?: string | null;
  /** Its version's rank in the family (higher: newer). */
  readonly versionIndex?: number | null;
  /** Its edition's rank in the family (higher: more features). */
  readonly editionIndex?: number | null;
  /** When the version was released. */
  readonly releaseDate?: Date | null;
}

/** The rights a license needs to cover another product of its family. */
export interface NeededRights {
  /** An older version: downgrade rights. */
  readonly downgrade: boolean;
  /** Another (lower) edition: cross-edition rights. */
  readonly crossEdition: boolean;
}

/** A license's recorded rights. */
export interface LicenseRights {
  /** Downgrade rights: may cover an older version. */
  readonly isDowngrade?: boolean | null;
  /** Cross-edition rights: may cover a lower edition. */
  readonly isCrossEdition?: boolean | null;
}

const known = (n: number | null | undefined): n is number => typeof n === "number";

/** -1, 0 or 1: how `a`'s version compares with `b`'s, or null when unknown. */
function compareVersion(a: ProductVersion, b: ProductVersion): number | null {
  if (!known(a.versionIndex) || !known(b.versionIndex)) return null;
  if (a.versionIndex !== b.versionIndex) return Math.sign(a.versionIndex - b.versionIndex);
  const ta = a.releaseDate?.getTime(), tb = b.releaseDate?.getTime();
  return ta === undefined || tb === undefined ? 0 : Math.sign(ta - tb);
}

/**
 * The rights a license of `licensed` needs to cover an install of `installed`, or null when no
 * right lets it (another family, a newer version, a higher edition, unknown versions, the same
 * product).
 *
 * @example
 * ```ts
 * import { neededRights } from "./rights.ts";
 * const sql2019 = { id: "SQL19E", familyId: "SQL", versionIndex: 1500, editionIndex: 200 };
 * const sql2016 = { id: "SQL16S", familyId: "SQL", versionIndex: 1300, editionIndex: 100 };
 * console.log(neededRights(sql2019, sql2016)); // { downgrade: true, crossEdition: true }
 * console.log(neededRights(sql2016, sql2019)); // null
 * ```
 */
export function neededRights(
  licensed: ProductVersion,
  installed: ProductVersion,
): NeededRights | null {
  if (!licensed.id || licensed.id === installed.id) return null;
  if (!licensed.familyId || licensed.familyId !== installed.familyId) return null;
  const version = compareVersion(licensed, installed);
  if (version === null || version < 0) return null;
  if (!known(licensed.editionIndex) || !known(installed.editionIndex)) return null;
  if (licensed.editionIndex < installed.editionIndex) return null;
  const rights = {
    downgrade: version > 0,
    crossEdition: licensed.editionIndex > installed.editionIndex,
  };
  return rights.downgrade || rights.crossEdition ? rights : null;
}

/**
 * Whether a license's recorded rights include every right needed.
 *
 * @example
 * ```ts
 * import { grants } from "./rights.ts";
 * console.log(grants({ isDowngrade: true }, { downgrade: true, crossEdition: false })); // true
 * console.log(grants({ isDowngrade: true }, { downgrade: true, crossEdition: true })); // false
 * ```
 */
export function grants(license: LicenseRights, needed: NeededRights): boolean {
  return (!needed.downgrade || license.isDowngrade === true) &&
    (!needed.crossEdition || license.isCrossEdition === true);
}

/**
 * The words for a rights move: "Downgrade", "Cross-edition" or both.
 *
 * @example
 * ```ts
 * import { rightsLabel } from "./rights.ts";
 * console.log(rightsLabel({ downgrade: true, crossEdition: true })); // "Downgrade and cross-edition"
 * ```
 */
export function rightsLabel(needed: NeededRights): string {
  if (needed.downgrade && needed.crossEdition) return "Downgrade and cross-edition";
  return needed.downgrade ? "Downgrade" : "Cross-edition";
}
