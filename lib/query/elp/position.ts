/**
 * The effective license position (ELP) per application and metric, computed from the API's raw
 * rows by samkit's own rules (README, "Effective license position"):
 *
 * - purchased = Σ quantity of the application's licenses of that metric;
 * - received / given = Σ quantity of license transfers (computer and user transfers) into / out
 *   of the application, received split by kind (downgrade, upgrade, cross-edition,
 *   cross-platform, other — the first flag that holds);
 * - entitlements = purchased + received − given;
 * - requirement = Σ `requirement` of the metric-tracking rows (which already apply core factor,
 *   minimums, exclusions, secondary use and extended coverage; a host-based product's VM
 *   installs carry 0 and their host the requirement);
 * - position = entitlements − requirement; shortfall and surplus its negative and positive parts;
 *   compliance = entitlements ÷ requirement (null without a requirement).
 *
 * Units of different metrics never meet: every figure is per application × metric.
 *
 * @module
 */

/** A license as the ELP reads it. */
export interface ElpLicense {
  /** The license's id. */
  readonly id?: string | null;
  /** The application it licenses. */
  readonly applicationId: string | null;
  /** The metric it is counted in. */
  readonly metricId: string | null;
  /** The units it grants. */
  readonly quantity: number | null;
}

/** A license transfer (computer or user) with its detail's quantity and flags. */
export interface ElpTransfer {
  /** The license the units come from. */
  readonly licenseId?: string | null;
  /** The application giving the units. */
  readonly fromApplicationId: string | null;
  /** The application receiving them. */
  readonly toApplicationId: string | null;
  /** The metric they are counted in. */
  readonly metricId: string | null;
  /** The units moved. */
  readonly quantity: number | null;
  /** A downgrade right. */
  readonly isDowngrade?: boolean | null;
  /** An upgrade right. */
  readonly isUpgrade?: boolean | null;
  /** A cross-edition right. */
  readonly isCrossEdition?: boolean | null;
  /** A cross-platform right. */
  readonly isCrossPlatform?: boolean | null;
}

/** A metric-tracking row (one per computer, application and metric). */
export interface ElpRequirementRow {
  /** The computer it counts on. */
  readonly computerId?: string | null;
  /** The application counted. */
  readonly applicationId: string | null;
  /** The metric it is counted in. */
  readonly metricId: string | null;
  /** The units it requires. */
  readonly requirement: number | null;
}

/** What {@link computeElp} reads. */
export interface ElpInputs {
  /** The licenses that make the entitlements. */
  readonly licenses: Iterable<ElpLicense>;
  /** The transfers received and given. */
  readonly transfers: Iterable<ElpTransfer>;
  /** The metric-tracking rows that make the requirement. */
  readonly requirements: Iterable<ElpRequirementRow>;
}

/** The kinds of received transfers, in the order a transfer's flags are tested. */
export const TRANSFER_KINDS = [
  "downgrade",
  "upgrade",
  "crossEdition",
  "crossPlatform",
  "other",
] as const;

/** A kind of transfer. */
export type TransferKind = typeof TRANSFER_KINDS[number];

/** The ELP of one application and metric. */
export interface ElpLine {
  /** The application. */
  readonly applicationId: string;
  /** The metric. */
  readonly metricId: string;
  /** Licensed quantity bought. */
  readonly purchased: number;
  /** Units received by transfers, by kind. */
  readonly received: Readonly<Record<TransferKind, number>>;
  /** Units received in all. */
  readonly receivedTotal: number;
  /** Units given to other applications by transfers. */
  readonly given: number;
  /** purchased + received − given. */
  readonly entitlements: number;
  /** Σ requirement of the metric-tracking rows. */
  readonly requirement: number;
  /** Metric-tracking rows with a requirement above 0 (installs or hosts to license). */
  readonly requiringRows: number;
  /** entitlements − requirement. */
  readonly position: number;
  /** max(0, −position). */
  readonly shortfall: number;
  /** max(0, position). */
  readonly surplus: number;
  /** entitlements ÷ requirement, null when nothing is required. */
  readonly compliance: number | null;
}

/**
 * The kind of a transfer: the first of its flags that holds (downgrade, upgrade, cross-edition,
 * cross-platform), else `other`.
 *
 * @example
 * ```ts
 * import { transferKind } from "./position.ts";
 * console.log(transferKind({ isDowngrade: true, isCrossEdition: true })); // "downgrade"
 * console.log(transferKind({})); // "other"
 * ```
 */
export function transferKind(t: Omit<Partial<ElpTransfer>, "metricId">): TransferKind {
  if (t.isDowngrade) return "downgrade";
  if (t.isUpgrade) return "upgrade";
  if (t.isCrossEdition) return "crossEdition";
  if (t.isCrossPlatform) return "crossPlatform";
  return "other";
}

/** Rounds away float noise (requirements can be fractional with core factors). */
function clean(n: number): number {
  return Number(n.toPrecision(12));
}

interface Tally {
  purchased: number;
  received: Record<TransferKind, number>;
  given: number;
  requirement: number;
  requiringRows: number;
}

const finite = (
  n: number | null | undefined,
) => (typeof n === "number" && Number.isFinite(n) ? n : 0);

/**
 * The ELP per application × metric, for every pair that has a license, a transfer or a
 * requirement, ordered by application id then metric id.
 *
 * @example
 * ```ts
 * import { computeElp } from "./position.ts";
 * const [office2016, office2019] = computeElp({
 *   licenses: [{ applicationId: "OFF19", metricId: "INST", quantity: 10 }],
 *   transfers: [{
 *     fromApplicationId: "OFF19", toApplicationId: "OFF16", metricId: "INST", quantity: 3,
 *     isDowngrade: true,
 *   }],
 *   requirements: [
 *     ...Array.from({ length: 3 }, () => ({ applicationId: "OFF16", metricId: "INST", requirement: 1 })),
 *     ...Array.from({ length: 9 }, () => ({ applicationId: "OFF19", metricId: "INST", requirement: 1 })),
 *   ],
 * });
 * console.log(office2016.entitlements, office2016.position); // 3 0
 * console.log(office2019.entitlements, office2019.shortfall); // 7 2
 * ```
 */
export function computeElp(inputs: ElpInputs): ElpLine[] {
  const tallies = new Map<string, Tally>();
  const tally = (app: string | null, metric: string | null): Tally | undefined => {
    if (!app || !metric) return undefined;
    const key = `${app}\u0000${metric}`;
    let t = tallies.get(key);
    if (!t) {
      const received = Object.fromEntries(TRANSFER_KINDS.map((k) => [k, 0])) as Tally["received"];
      tallies.set(key, t = { purchased: 0, received, given: 0, requirement: 0, requiringRows: 0 });
    }
    return t;
  };
  for (const l of inputs.licenses) {
    const t = tally(l.applicationId, l.metricId);
    if (t) t.purchased += finite(l.quantity);
  }
  for (const tr of inputs.transfers) {
    const q = finite(tr.quantity);
    const into = tally(tr.toApplicationId, tr.metricId);
    if (into) into.received[transferKind(tr)] += q;
    const from = tally(tr.fromApplicationId, tr.metricId);
    if (from) from.given += q;
  }
  for (const r of inputs.requirements) {
    const t = tally(r.applicationId, r.metricId);
    if (!t) continue;
    t.requirement += finite(r.requirement);
    if (finite(r.requirement) > 0) t.requiringRows++;
  }
  return [...tallies].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, t]) => {
    const [applicationId, metricId] = key.split("\u0000");
    const receivedTotal = TRANSFER_KINDS.reduce((n, k) => n + t.received[k], 0);
    const entitlements = clean(t.purchased + receivedTotal - t.given);
    const requirement = clean(t.requirement);
    const position = clean(entitlements - requirement);
    return {
      applicationId,
      metricId,
      purchased: clean(t.purchased),
      received: t.received,
      receivedTotal: clean(receivedTotal),
      given: clean(t.given),
      entitlements,
      requirement,
      requiringRows: t.requiringRows,
      position,
      shortfall: position < 0 ? -position : 0,
      surplus: position > 0 ? position : 0,
      compliance: requirement > 0 ? entitlements / requirement : null,
    };
  });
}
