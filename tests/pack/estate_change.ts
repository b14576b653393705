/**
 * Test helper: an estate that changes between two pack runs of one source — two reference
 * servers of one seed behind a loopback proxy whose upstream is switched between the runs — with
 * a computer (and its install) only before, installs added and a license added after.
 *
 * @module
 */

import type { RunningServer } from "../../lib/server/server.ts";
import { forwardRequest } from "../helpers/forward.ts";

/** The application whose position the change moves. */
export const CHANGED_APP = "APP0029";
/** The computer only the first estate has (with an install of {@link CHANGED_APP}). */
export const GONE_COMPUTER = "C900001";
/** Its host name. */
export const GONE_HOST = "GONE-PC-01";
/** The license only the second estate has (2 units of {@link CHANGED_APP}). */
export const ADDED_LICENSE = "LIC900001";

/** A proxy on loopback to a switchable upstream. */
export interface SwitchingProxy {
  /** Its address. */
  readonly url: string;
  /** Sends every later request to `next`. */
  to(next: string): void;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * A loopback proxy whose upstream can be switched: runs through it read one address, one source.
 *
 * @example Usage
 * ```ts ignore
 * import { switchingProxy } from "./estate_change.ts";
 *
 * const proxy = switchingProxy(first.url);
 * proxy.to(second.url);
 * await proxy.close();
 * ```
 */
export function switchingProxy(upstream: string): SwitchingProxy {
  let target = upstream;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => forwardRequest(req, target),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    to(next: string) {
      target = next;
    },
    close: () => server.shutdown(),
  };
}

/** An install of {@link CHANGED_APP} (one per installation) on a computer. */
function install(srv: RunningServer, computerId: string): void {
  srv.store.insert("metric_tracking", {
    computerId,
    metricId: "MET01",
    applicationId: CHANGED_APP,
    initialRequirement: 1,
    coreFactor: 1,
    minimumRequirement: 0,
    requirement: 1,
  });
  srv.store.insert("computer_application_entitlements", {
    computerId,
    applicationId: CHANGED_APP,
    metricId: "MET01",
    entitlementStateId: "ES02",
  });
}

/**
 * Changes two servers of one seed apart: `before` gets {@link GONE_COMPUTER} with an install;
 * `after` gets `count` installs on computers that had none and {@link ADDED_LICENSE}. Returns
 * the computers given installs, with their host names.
 *
 * @example Usage
 * ```ts ignore
 * import { changeEstate } from "./estate_change.ts";
 *
 * const added = changeEstate(a, b, 5);
 * ```
 */
export function changeEstate(
  before: RunningServer,
  after: RunningServer,
  count = 5,
): { id: string; host: string }[] {
  const model = before.store.first("Computer", { id: "C000002" })!;
  before.store.insert("computers", {
    id: GONE_COMPUTER,
    hostName: GONE_HOST,
    status: "Active",
    organizationId: model.organizationId,
    isVirtual: 0,
    isServer: 0,
  });
  install(before, GONE_COMPUTER);
  const has = new Set(
    after.store.query({
      resource: "MetricTracking",
      where: { applicationId: CHANGED_APP },
      limit: 1000,
    }).rows.map((r) => r.computerId),
  );
  const added = after.store.query({ resource: "Computer", sort: "id:asc", limit: 200 }).rows
    .filter((c) => !has.has(c.id)).slice(0, count)
    .map((c) => ({ id: c.id as string, host: c.hostName as string }));
  for (const { id } of added) install(after, id);
  const license = after.store.first("License", { applicationId: CHANGED_APP })!;
  const { __rowid: _, ...copy } = license;
  after.store.insert("licenses", { ...copy, id: ADDED_LICENSE, quantity: 2, initialQuantity: 2 });
  return added;
}
