/**
 * License coverage of the estate generator, by samkit's ELP rules: an install (or a host row of
 * a host-based product) that needs licenses takes them from every license that can cover it
 * while capacity remains — the given license first (a cluster's Datacenter license for its
 * hosts), then licenses of the same application, then licenses of other applications of the
 * family with downgrade or cross-edition rights (one such license per computer, or per user for
 * per-user products, and application: the spec's transfer detail is one object) — never
 * skipping at random. Each license used
 * gets a tracking row, a transfer row when it is another application's (quantity = the units it
 * covered) and an assignment row when it is assigned to computers or users. The install's state
 * follows: Licensed, Licensed via transfer, Under-licensed (partly covered) or Unlicensed.
 *
 * @module
 */

import { MET, STATE } from "./generator_catalogue.ts";
import {
  APP_INFOS,
  ASSIGNED,
  canCover,
  type Ctx,
  type LicenseBook,
  pad,
  PAIR,
  userId,
} from "./generator_context.ts";

/** What one install (or host row) needs covered. */
export interface CoverRequest {
  /** Computer id the tracking and transfer rows belong to. */
  readonly computerId: string;
  /** Organisation id of that computer. */
  readonly organizationId: string;
  /** Product index of the install. */
  readonly app: number;
  readonly family: number;
  readonly metric: string;
  readonly requirement: number;
  /** Primary user index of the computer (-1 for none): per-user products track users. */
  readonly user: number;
  /** A license tried before any other (-1 for none). */
  readonly first: number;
  /** The install is on a cross-platform machine (a Mac) for cross-platform transfers. */
  readonly crossPlatform: boolean;
  /** Extra fields of computer assignment rows. */
  readonly assignment: {
    readonly invalidAssignmentReasons: number;
    readonly hasVmUseRights: boolean;
    readonly numberOfSupportedVirtualMachines: number;
  };
}

/**
 * The licenses that may cover an install of `app`, in the order they are tried.
 *
 * @example
 * ```ts ignore
 * const order = coverageOrder(ctx.book, family, app, -1);
 * ```
 */
export function coverageOrder(
  book: LicenseBook,
  family: number,
  app: number,
  first: number,
): number[] {
  const all = book.allByFamily[family] ?? [];
  const usable = (l: number) => l !== first && canCover(book.list[l].app, app);
  const same = all.filter((l) => usable(l) && book.list[l].app === app);
  const others = all.filter((l) => usable(l) && book.list[l].app !== app);
  return [
    ...(first >= 0 && canCover(book.list[first].app, app) ? [first] : []),
    ...same,
    ...others,
  ];
}

/**
 * Cover `req.requirement` units from free license capacity, emit the tracking, transfer and
 * assignment rows, and return the entitlement state id.
 *
 * @example
 * ```ts ignore
 * const state = cover(ctx, request); // "ES01" when fully covered by its own licenses
 * ```
 */
export function cover(ctx: Ctx, req: CoverRequest): string {
  const { book } = ctx;
  const used: [number, number][] = [];
  let left = req.requirement;
  const byUser = req.metric === MET.users && req.user >= 0;
  const holder = `${req.app}|${byUser ? `u:${req.user}` : `c:${req.computerId}`}`;
  for (const l of coverageOrder(book, req.family, req.app, req.first)) {
    if (left <= 0) break;
    const units = Math.min(left, book.remaining[l]);
    if (units <= 0) continue;
    if (book.list[l].app !== req.app) {
      // One transfer per holder and application (the spec's transfer detail is one object).
      if (book.transferHolders.has(holder)) continue;
      book.transferHolders.add(holder);
    }
    book.remaining[l] -= units;
    left -= units;
    used.push([l, units]);
  }
  const partial = left > 0;
  for (const [l, units] of used) emitUse(ctx, req, l, units, partial);
  if (used.length === 0) return STATE.unlicensed;
  if (partial) return STATE.underLicensed;
  return used.some(([l]) => book.list[l].app !== req.app) ? STATE.viaTransfer : STATE.licensed;
}

/** The rows of license `l` covering `units` of the request. */
function emitUse(ctx: Ctx, req: CoverRequest, l: number, units: number, partial: boolean): void {
  const { book, emit, ids } = ctx;
  const license = book.list[l];
  const info = APP_INFOS[req.app];
  const transfer = license.app !== req.app;
  const byUser = req.metric === MET.users && req.user >= 0;
  const pairKey = `${req.app}|${l}`;
  const tracking = {
    metricId: req.metric,
    applicationId: info.id,
    licenseId: license.id,
    organizationId: req.organizationId,
    coverageTrait: partial ? 2 : transfer ? 3 : 1,
    initialRequirement: req.requirement,
    receivedCoverage: units,
    primaryUseRights: units,
    fullUseRights: units,
  };
  if (byUser) {
    emit("user_tracking", {
      id: `TU${pad(++ids.userTracking, 6)}`,
      userId: userId(req.user),
      ...tracking,
    });
  } else {
    emit("computer_tracking", {
      id: `TC${pad(++ids.computerTracking, 6)}`,
      computerId: req.computerId,
      ...tracking,
      requirement: req.requirement,
    });
  }
  const kind = byUser ? PAIR.user : PAIR.computer;
  book.trackingPairs.set(pairKey, (book.trackingPairs.get(pairKey) ?? 0) | kind);
  if (transfer) {
    emitTransfer(ctx, req, l, units, byUser);
    book.transferPairs.set(pairKey, (book.transferPairs.get(pairKey) ?? 0) | kind);
  }
  emitAssignment(ctx, req, l, units);
}

function emitTransfer(
  ctx: Ctx,
  req: CoverRequest,
  l: number,
  units: number,
  byUser: boolean,
): void {
  const { book, emit, ids } = ctx;
  const license = book.list[l];
  const from = APP_INFOS[license.app], to = APP_INFOS[req.app];
  const row = {
    metricId: req.metric,
    fromApplicationId: from.id,
    toApplicationId: to.id,
    licenseId: license.id,
    organizationId: req.organizationId,
    isUpgrade: false,
    isDowngrade: from.releaseMs > to.releaseMs || from.rank > to.rank,
    isCrossEdition: from.decl.edition !== to.decl.edition,
    isCrossPlatform: req.crossPlatform,
    quantity: units,
  };
  if (byUser) {
    emit("user_transfers", {
      id: `UT${pad(++ids.userTransfer, 6)}`,
      userId: userId(req.user),
      ...row,
    });
  } else {
    emit("computer_transfers", {
      id: `CT${pad(++ids.computerTransfer, 6)}`,
      computerId: req.computerId,
      ...row,
    });
  }
}

function emitAssignment(ctx: Ctx, req: CoverRequest, l: number, units: number): void {
  const { book, emit, ids } = ctx;
  const license = book.list[l];
  const applicationId = APP_INFOS[req.app].id;
  if (license.assignment === "Computer") {
    book.assigned[l] |= ASSIGNED.computer;
    emit("computer_assignments", {
      id: `AC${pad(++ids.computerAssignment, 6)}`,
      licenseId: license.id,
      applicationId,
      computerId: req.computerId,
      quantity: units,
      ...req.assignment,
    });
  } else if (license.assignment === "User" && req.user >= 0) {
    book.assigned[l] |= ASSIGNED.user;
    emit("user_assignments", {
      id: `AU${pad(++ids.userAssignment, 6)}`,
      licenseId: license.id,
      applicationId,
      userId: userId(req.user),
      quantity: 1,
      invalidAssignmentReasons: 0,
    });
  }
}
