/**
 * The reference server's deterministic estate generator. It streams the rows of a realistic,
 * fully cross-referenced software-asset-management estate to a sink, one row at a time, keyed by
 * the catalogue's storage tables and columns (`RESOURCES.X.table`, `RESOURCES.X.columnOf`).
 *
 * Same seed and size give the same rows on every machine: all randomness comes from the seeded
 * generator of `random.ts`, and all dates are computed from `now` (default 2026-11-01T00:00:00Z),
 * never from the clock.
 *
 * Value forms: strings, finite numbers, booleans, `null`, dates as `toISOString()` strings and
 * string arrays (`listItems`) as arrays. Money is rounded to cents, and every summary equals the sum
 * of its rows when summed in cents.
 *
 * Ids are readable: computers `C000001`, users `U00001`, organisations `ORG01` (see
 * {@link ORGANIZATIONS}), products `APP0001`, licenses `LIC00001`, metrics `MET01` (see
 * {@link METRICS}), contracts `AGR0001`, clusters `DCC01`, connectors `CCN01`, policies `POL01`.
 * Organisations, users, metrics, contracts and custom compare values have no table of their own;
 * rows reference them by id.
 *
 * With `computers: 0` only the reference tables are filled (`registry_applications`,
 * `entitlement_states`, `extended_coverage_types`, `policies`, `policy_fields`); every estate,
 * license and connector table is empty.
 *
 * @module
 */

import { RESOURCES } from "../api/catalogue.ts";
import {
  ENTITLEMENT_STATES,
  EXTENDED_COVERAGE_TYPES,
  METRICS,
  ORGANIZATIONS,
  POLICIES,
  registryRealFields,
} from "./generator_catalogue.ts";
import { FURTHER_READ_TABLES } from "./further_reads.ts";
import { emitComputer } from "./generator_computers.ts";
import { emitConnectors } from "./generator_connectors.ts";
import { APP_INFOS, day, iso, pad, type Row, type RowSink, userId } from "./generator_context.ts";
import { emitLicenseSummaries } from "./generator_licenses.ts";
import { buildPlan, clusterRealFields, HYPERVISOR_LABEL } from "./generator_plan.ts";
import { PublicReads } from "./generator_public.ts";
import { createContext } from "./generator_setup.ts";

export type { RowSink } from "./generator_context.ts";
export {
  CONNECTOR_PROVIDER_NAMES,
  ENTITLEMENT_STATES,
  METRICS,
  ORGANIZATIONS,
} from "./generator_catalogue.ts";

/** Options of {@link generateEstate}. */
export interface GenerateOptions {
  /** Seed of the pseudo-random generator (default 1). */
  seed?: number;
  /** Number of computers (default 1000); 0 gives an empty estate. */
  computers?: number;
  /** The estate's "now"; every date is relative to it (default {@link DEFAULT_NOW}). */
  now?: Date;
}

/** Row count per generated table (every one of `ESTATE_TABLES` is present, zero when empty). */
export type EstateStats = Record<string, number>;

/** The fixed default "now" of generated estates. */
export const DEFAULT_NOW: Date = new Date("2026-11-01T00:00:00.000Z");

/** The default number of computers. */
export const DEFAULT_COMPUTERS = 1000;

/**
 * Every storage table of the catalogue the generator fills, in catalogue order: all but the
 * further reads' tables, which the server derives from a stored estate (`further_reads.ts`).
 *
 * @example
 * ```ts
 * import { ESTATE_TABLES } from "./generator.ts";
 * console.log(ESTATE_TABLES.includes("computers"), ESTATE_TABLES.includes("article_numbers")); // true false
 * ```
 */
export const ESTATE_TABLES: readonly string[] = [
  ...new Set(Object.values(RESOURCES).map((r) => r.table).filter((t) => t !== "")),
].filter((t) => !FURTHER_READ_TABLES.includes(t));

/** Options are not usable (negative or fractional size, non-finite seed, invalid date). */
export class GenerateOptionsError extends RangeError {
  /**
   * @param message What is wrong.
   *
   * @example
   * ```ts
   * import { GenerateOptionsError } from "./generator.ts";
   * console.log(new GenerateOptionsError("bad").name); // "GenerateOptionsError"
   * ```
   */
  constructor(message: string) {
    super(message);
    this.name = "GenerateOptionsError";
  }
}

function emitReference(emit: (table: string, row: Row) => void, now: number): void {
  for (const app of APP_INFOS) {
    const eol = app.decl.eol === null ? null : day(app.decl.eol);
    emit("registry_applications", {
      id: app.id,
      name: app.decl.name,
      manufacturer: app.decl.manufacturer,
      version: app.decl.version,
      edition: app.decl.edition,
      family: app.decl.family,
      isEndOfLife: eol !== null && eol <= now,
      endOfLifeDate: iso(eol),
      releaseDate: iso(app.releaseMs),
      ...registryRealFields(app.decl, { ...app, components: app.components.length, now }),
    });
  }
  for (const s of ENTITLEMENT_STATES) {
    emit("entitlement_states", { id: s.id, name: s.name, description: s.description });
  }
  for (const name of EXTENDED_COVERAGE_TYPES) emit("extended_coverage_types", { name });
  POLICIES.forEach((p, k) => {
    emit("policies", { id: p.id });
    p.fields.forEach((f, j) =>
      emit("policy_fields", {
        id: `PF${pad(k + 1, 2)}${pad(j + 1, 2)}`,
        name: f.name,
        description: f.description,
        isRequired: f.isRequired,
        isComboBox: f.listItems.length > 0,
        isEditingAllowed: f.isEditingAllowed,
        listItems: [...f.listItems],
        policyId: p.id,
      })
    );
  });
}

/**
 * Generate an estate and stream its rows to `sink`.
 *
 * @param options Seed, size and "now".
 * @param sink Called once per row with the storage table and the row (storage columns).
 * @returns Row counts per table.
 * @throws {GenerateOptionsError} For a negative or fractional size, a non-finite seed or an
 *   invalid date.
 *
 * @example Count the computers of a small estate
 * ```ts
 * import { generateEstate } from "./generator.ts";
 * const stats = generateEstate({ seed: 7, computers: 50 }, () => {});
 * console.log(stats.computers); // 50
 * ```
 */
export function generateEstate(options: GenerateOptions, sink: RowSink): EstateStats {
  const seed = options.seed ?? 1;
  const n = options.computers ?? DEFAULT_COMPUTERS;
  const nowDate = options.now ?? DEFAULT_NOW;
  if (!Number.isFinite(seed)) throw new GenerateOptionsError("seed must be a finite number");
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new GenerateOptionsError(`computers must be a whole number >= 0, not ${n}`);
  }
  const now = nowDate.getTime();
  if (!Number.isFinite(now)) throw new GenerateOptionsError("now must be a valid date");

  const stats: EstateStats = Object.fromEntries(ESTATE_TABLES.map((t) => [t, 0]));
  // The public service's extra reads (generator_public.ts) watch rows once the plan is built.
  const tap: { reads?: PublicReads } = {};
  const emit = (table: string, row: Row) => {
    const count = stats[table];
    if (count === undefined) throw new Error(`Generator bug: unknown table ${table}`);
    stats[table] = count + 1;
    sink(table, row);
    tap.reads?.observe(table, row);
  };

  emitReference(emit, now);
  if (n === 0) return stats;

  const plan = buildPlan(seed, n);
  const reads = tap.reads = new PublicReads(plan);
  for (const c of plan.clusters) {
    emit("data_center_clusters", {
      id: c.id,
      name: c.name,
      description: c.description,
      hypervisor: HYPERVISOR_LABEL[c.hypervisor],
      isAutoGenerated: c.isAutoGenerated,
      isHighAvailability: c.isHighAvailability,
      isHypervisorFromSIM: c.isHypervisorFromSIM,
      isVendorDRS: c.isVendorDRS,
      ...clusterRealFields(plan, c, now),
    });
  }
  const ctx = createContext({ seed, now, n, emit, plan });
  for (let i = 0; i < n; i++) emitComputer(ctx, i);

  const apps = APP_INFOS.length;
  for (const [key, last] of ctx.agg.adminUsage) {
    emit("user_application_usage", {
      userId: userId(Math.floor(key / apps)),
      applicationId: APP_INFOS[key % apps].id,
      bundleApplicationId: null,
      lastUsedDate: iso(last),
    });
  }
  for (const app of APP_INFOS) {
    const computers = ctx.agg.appComputers[app.index];
    if (computers === 0) continue;
    emit("application_usage_summary", {
      applicationId: app.id,
      computers,
      users: ctx.agg.appEndUsers[app.index] + ctx.agg.appAdmins[app.index].size,
      installations: ctx.agg.appInstalls[app.index],
    });
  }
  emitLicenseSummaries(ctx);
  emitConnectors(ctx);
  reads.emit(ctx);
  return stats;
}

/**
 * Generate an estate into memory: every catalogue table → its rows (empty tables included).
 * Meant for tests and small estates.
 *
 * @example
 * ```ts
 * import { collectEstate } from "./generator.ts";
 * const estate = collectEstate({ seed: 1, computers: 20 });
 * console.log(estate.get("computers")?.length); // 20
 * ```
 */
export function collectEstate(options: GenerateOptions): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>(ESTATE_TABLES.map((t) => [t, []]));
  generateEstate(options, (table, row) => out.get(table)!.push(row));
  return out;
}

/**
 * The user ids of an estate of the given size (administrators, end users, then users who left).
 *
 * @example
 * ```ts
 * import { estateUserIds } from "./generator.ts";
 * console.log(estateUserIds({ seed: 1, computers: 20 }).length > 0); // true
 * ```
 */
export function estateUserIds(options: GenerateOptions): string[] {
  const n = options.computers ?? DEFAULT_COMPUTERS;
  if (n === 0) return [];
  const plan = buildPlan(options.seed ?? 1, n);
  return Array.from({ length: plan.userCount }, (_, u) => userId(u));
}

/** Organisation ids, for callers that only need the list. */
export const ORGANIZATION_IDS: readonly string[] = ORGANIZATIONS.map((o) => o.id);
/** Metric ids, for callers that only need the list. */
export const METRIC_IDS: readonly string[] = METRICS.map((m) => m.id);
