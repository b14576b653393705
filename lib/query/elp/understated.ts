/**
 * Requirements that rest on missing hardware data. A computer (a VM host, a physical server)
 * without hardware inventory counts 0 cores, so its metric-tracking row carries only the
 * metric's minimum: the requirement is understated, not measured. The ELP marks each position
 * with how many of its requiring computers have no hardware data, by the same test as
 * `hardware-socket-map` ("No hardware data": the computer's hardware read answers 404).
 *
 * Only rows that can rest on hardware are checked: a requirement above 0 counted from nothing
 * (`initialRequirement` 0, the minimum applied) or on a host the service calls unknown
 * (`unknownPhysicalHost`). Where the service does not serve hardware reads (403, 405, 501),
 * the service's own flag decides.
 *
 * @module
 */

import type { Resource } from "../../api/catalogue.ts";
import { isMissingRead } from "../names.ts";
import type { QueryContext } from "../context.ts";
import { detailsById } from "../details.ts";

/** A metric-tracking row as this check reads it. */
export interface HardwareRow {
  readonly computerId: string | null;
  readonly applicationId: string | null;
  readonly metricId: string | null;
  readonly requirement: number | null;
  readonly initialRequirement: number | null;
  readonly unknownPhysicalHost?: number | null;
}

/**
 * Whether a row's requirement may rest on hardware data (see the module doc).
 *
 * @example
 * ```ts
 * import { restsOnHardware } from "./understated.ts";
 * const row = { computerId: "H1", applicationId: "A", metricId: "CORE", requirement: 16, initialRequirement: 0 };
 * console.log(restsOnHardware(row), restsOnHardware({ ...row, initialRequirement: 32 })); // true false
 * ```
 */
export function restsOnHardware(row: HardwareRow): boolean {
  if (!row.computerId || !((row.requirement ?? 0) > 0)) return false;
  return row.initialRequirement === 0 || (row.unknownPhysicalHost ?? 0) > 0;
}

/**
 * Per application × metric (`applicationId\u0000metricId`), the computers whose requirement
 * rests on missing hardware data.
 *
 * @example
 * ```ts
 * import { understatedBy } from "./understated.ts";
 * const rows = [
 *   { computerId: "H1", applicationId: "A", metricId: "CORE", requirement: 16, initialRequirement: 0 },
 *   { computerId: "H2", applicationId: "A", metricId: "CORE", requirement: 16, initialRequirement: 0 },
 * ];
 * console.log(understatedBy(rows, new Set(["H1"])).get("A\u0000CORE")); // Set { "H1" }
 * ```
 */
export function understatedBy(
  rows: Iterable<HardwareRow>,
  withoutHardware: ReadonlySet<string>,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!restsOnHardware(r) || !withoutHardware.has(r.computerId!)) continue;
    const key = `${r.applicationId}\u0000${r.metricId}`;
    out.set(key, (out.get(key) ?? new Set()).add(r.computerId!));
  }
  return out;
}

/**
 * The computers among `rows` ({@link restsOnHardware}) without hardware data: one hardware read
 * per computer through the run's fan-out (cache key `estate.hardware:<id>`, shared with
 * `hardware-socket-map`), 404 meaning none.
 *
 * @example
 * ```ts ignore
 * import { computersWithoutHardware } from "./understated.ts";
 * const missing = await computersWithoutHardware(ctx, requirements);
 * ```
 */
export async function computersWithoutHardware(
  ctx: {
    readonly client: {
      readonly estate: {
        hardware(id: string, o?: { signal?: AbortSignal }): Promise<Resource<"Hardware">>;
      };
    };
    readonly query: QueryContext;
  },
  rows: readonly HardwareRow[],
): Promise<Set<string>> {
  const checked = rows.filter(restsOnHardware);
  const ids = [...new Set(checked.map((r) => r.computerId!))].sort();
  try {
    const hardware = await detailsById(
      ctx,
      ids.map((id) => ({ id })),
      "estate.hardware",
      (id) => ctx.client.estate.hardware(id),
    );
    return new Set(ids.filter((id) => hardware.get(id) === null));
  } catch (error) {
    if (!isMissingRead(error)) throw error;
    return new Set(
      checked.filter((r) => (r.unknownPhysicalHost ?? 0) > 0).map((r) => r.computerId!),
    );
  }
}
