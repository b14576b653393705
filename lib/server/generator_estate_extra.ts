/**
 * Estate reads of the public service that the spec lacks, derived from the rows the generator
 * emits and its plan:
 * - `virtual_machines`: every computer with a `hostComputerId`, under that host (name, OS, IP,
 *   model and scan date of the guest's own row; processor and core counts of its hardware row;
 *   `powerState` `Running` when scanned in the last 30 days, else `Stopped`);
 * - `dcc_members`: the hosts of each cluster; `dcc_history`: twelve month starts per cluster,
 *   the current month's `virtualMachineCount` equal to the guests of its member hosts, earlier
 *   months 4% fewer per month back;
 * - `user_accounts`: one per user id the estate uses, with the organisation of the user's
 *   machine (administrators in `ORG07`, IT), `Inactive` with a quarantine date for users who
 *   left, and `lastLogon` the latest of the user's `logon_history` rows;
 * - `user_entitlements`: the entitlement state of each per-user product for the primary user of
 *   the computer it is installed on (the first state seen per user and product).
 *
 * @module
 */

import { MET, ORGANIZATIONS } from "./generator_catalogue.ts";
import {
  computerId,
  type Ctx,
  DAY,
  iso,
  pad,
  type Row,
  streamFor,
  userId,
} from "./generator_context.ts";
import type { Plan } from "./generator_plan.ts";

const FIRST = ["Alex", "Sam", "Maria", "Jonas", "Priya", "Chen", "Fatima", "Lucas", "Emma", "Ola"];
const LAST = ["Berg", "Novak", "Okafor", "Silva", "Tanaka", "Meyer", "Rossi", "Khan", "Larsen"];

/** The index of a computer id (`C000001` → 0). */
const computerIndex = (id: unknown): number => Number(String(id).slice(1)) - 1;

/**
 * Collects guests, logons and per-user entitlement states, then emits the estate's extra tables.
 *
 * @example
 * ```ts ignore
 * const extra = new EstateExtras(plan);
 * extra.computer(row); // for each computers row, and hardware, logon and entitlement rows
 * extra.emit(ctx);
 * ```
 */
export class EstateExtras {
  #plan: Plan;
  #guests = new Map<string, Row>();
  #cores = new Map<string, [unknown, unknown]>();
  #lastLogon = new Map<string, string>();
  #userStates = new Map<string, Row>();

  /** @param plan The estate's plan. */
  constructor(plan: Plan) {
    this.#plan = plan;
  }

  /** A `computers` row: a guest when it has a host. */
  computer(row: Row): void {
    if (row.hostComputerId) this.#guests.set(String(row.id), row);
  }

  /** A `hardware` row: processor and core counts of a guest. */
  hardware(row: Row): void {
    const id = String(row.computerId);
    if (this.#guests.has(id)) this.#cores.set(id, [row.processorCount, row.coreCount]);
  }

  /** A `logon_history` row: the user's latest logon. */
  logon(row: Row): void {
    const user = String(row.userId), last = row.lastLogon as string | null;
    const seen = this.#lastLogon.get(user);
    if (last && (seen === undefined || last > seen)) this.#lastLogon.set(user, last);
  }

  /** A `computer_application_entitlements` row: per-user products go to the primary user. */
  entitlement(row: Row): void {
    if (row.metricId !== MET.users) return;
    const u = this.#plan.user[computerIndex(row.computerId)] ?? -1;
    if (u < 0) return;
    const key = `${userId(u)}|${row.applicationId}`;
    if (this.#userStates.has(key)) return;
    this.#userStates.set(key, {
      userId: userId(u),
      applicationId: row.applicationId,
      metricId: row.metricId,
      entitlementStateId: row.entitlementStateId,
    });
  }

  /** Emit every extra table. */
  emit(ctx: Ctx): void {
    this.#emitGuests(ctx);
    this.#emitClusters(ctx);
    this.#emitUsers(ctx);
    for (const row of this.#userStates.values()) ctx.emit("user_entitlements", row);
  }

  #emitGuests(ctx: Ctx): void {
    for (const [id, g] of this.#guests) {
      const [processors, cores] = this.#cores.get(id) ?? [null, null];
      const scanned = Date.parse(String(g.lastScanDate));
      ctx.emit("virtual_machines", {
        id,
        machineId: g.scanIdentifier ?? null,
        name: g.hostName ?? null,
        operatingSystem: g.operatingSystem ?? null,
        ip: g.ipAddress ?? null,
        manufacturer: g.manufacturer ?? null,
        model: g.model ?? null,
        lastScanDate: g.lastScanDate ?? null,
        powerState: ctx.now - scanned <= 30 * DAY ? "Running" : "Stopped",
        processorCount: processors,
        coreCount: cores,
        isInventoried: true,
        hostComputerId: g.hostComputerId,
      });
    }
  }

  #emitClusters(ctx: Ctx): void {
    const guestsOf = new Map<string, number>();
    for (const g of this.#guests.values()) {
      const host = String(g.hostComputerId);
      guestsOf.set(host, (guestsOf.get(host) ?? 0) + 1);
    }
    const month = new Date(ctx.now);
    let member = 0, history = 0;
    for (const c of this.#plan.clusters) {
      let vms = 0;
      for (const h of c.hosts) {
        const host = computerId(this.#plan.hosts[h].computer);
        vms += guestsOf.get(host) ?? 0;
        ctx.emit("dcc_members", {
          id: `DM${pad(++member, 5)}`,
          computerId: host,
          sourceId: 1,
          clusterId: c.id,
        });
      }
      for (let k = 0; k < 12; k++) {
        ctx.emit("dcc_history", {
          id: `DH${pad(++history, 6)}`,
          virtualMachineDate: iso(
            Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - k, 1),
          ),
          virtualMachineCount: Math.round(vms * Math.max(0, 1 - 0.04 * k)),
          clusterId: c.id,
        });
      }
    }
  }

  #emitUsers(ctx: Ctx): void {
    const plan = this.#plan;
    const orgOf = new Int32Array(plan.userCount).fill(-1);
    for (let i = 0; i < plan.n; i++) if (plan.user[i] >= 0) orgOf[plan.user[i]] = plan.org[i];
    const r = streamFor(ctx.seed, "user-accounts", plan.n);
    const left = plan.adminCount + plan.endUserCount;
    for (let u = 0; u < plan.userCount; u++) {
      const id = userId(u);
      const first = r.pick(FIRST), last = r.pick(LAST);
      const login = `${first}.${last}${u + 1}`.toLowerCase();
      const org = ORGANIZATIONS[
        u < plan.adminCount ? 6 : orgOf[u] >= 0 ? orgOf[u] : r.int(0, ORGANIZATIONS.length - 1)
      ];
      const leaver = u >= left;
      const updated = ctx.now - r.int(1, 90) * DAY;
      ctx.emit("user_accounts", {
        id,
        userName: `${org.domain.split(".")[0].toUpperCase()}\\${login}`,
        status: leaver ? "Inactive" : "Active",
        email: `${login}@contoso.com`,
        organizationId: org.id,
        fullName: `${first} ${last}`,
        phoneNumber: `+1 555 ${pad(u % 10_000, 4)}`,
        location: org.site,
        roomNumber: `${org.site}-${r.int(1, 6)}${pad(r.int(1, 40), 2)}`,
        updatedBy: "Directory sync",
        quarantineDate: leaver ? iso(ctx.now - r.int(30, 400) * DAY) : null,
        lastLogon: this.#lastLogon.get(id) ?? null,
        lastUpdate: iso(updated),
        updatedDate: iso(updated),
      });
    }
  }
}
