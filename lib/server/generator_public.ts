/**
 * Tables for the reads of the public service that the spec lacks (public-api.md), generated
 * alongside the estate: the generator hands every row it emits to {@link PublicReads.observe}
 * and calls {@link PublicReads.emit} once every computer is out. Only the rows these tables
 * derive from are kept, so generation stays cheap.
 *
 * Here: the organisation tree (`organization_nodes`: one node per organisation of
 * `ORGANIZATIONS`, its name the organisation's display name, the root and the regions legal
 * entities), registry metrics (`registry_metrics`: per product, the metric its licenses are
 * counted in, named from `METRICS`, with the list price per unit in USD of the license family,
 * `isDefault`, `metricSetting` `AllUsers` or `AllDevices`, a 16-core minimum for per-core
 * metrics, a 30-day metric interval (`metricSettingIntervalType` `Days`) and a 60-minute
 * concurrency interval for per-user metrics; free products get `Installations` without a price) and maintenance periods
 * (`maintenance_periods`, from `license_cost_summaries`: a license with maintenance or support
 * costs has one period per full year ended since its purchase, each costing the current yearly
 * maintenance and support, so its ended periods add up to its accumulated costs; then the period
 * running today, at the same cost, whose `validTo` is the next renewal). The compliance summary is in `generator_compliance.ts`; virtual machines,
 * clusters' members and history, user accounts and user entitlements in
 * `generator_estate_extra.ts`.
 *
 * @module
 */

import { MET, METRICS, ORGANIZATIONS } from "./generator_catalogue.ts";
import { ComplianceTally } from "./generator_compliance.ts";
import { APP_INFOS, type Ctx, DAY, FAMILIES, iso, pad, type Row } from "./generator_context.ts";
import { EstateExtras } from "./generator_estate_extra.ts";
import type { Plan } from "./generator_plan.ts";

const YEAR = 365 * DAY;
const metricName = (id: string) => METRICS.find((m) => m.id === id)?.name ?? id;

/**
 * Watches the generated rows and emits the public service's extra tables.
 *
 * @example
 * ```ts ignore
 * const reads = new PublicReads(plan);
 * emit = (table, row) => { sink(table, row); reads.observe(table, row); };
 * // … every computer …
 * reads.emit(ctx);
 * ```
 */
export class PublicReads {
  #plan: Plan;
  #compliance = new ComplianceTally();
  #estate: EstateExtras;
  #costs = new Map<string, Row>();
  #licenses: Row[] = [];

  /** @param plan The estate's plan. */
  constructor(plan: Plan) {
    this.#plan = plan;
    this.#estate = new EstateExtras(plan);
  }

  /** One generated row. */
  observe(table: string, row: Row): void {
    switch (table) {
      case "metric_tracking":
        this.#compliance.metric(row, this.#orgOf(row.computerId));
        break;
      case "computers":
        this.#estate.computer(row);
        break;
      case "hardware":
        this.#estate.hardware(row);
        break;
      case "logon_history":
        this.#estate.logon(row);
        break;
      case "computer_application_entitlements":
        this.#estate.entitlement(row);
        break;
      case "computer_transfers":
      case "user_transfers":
        this.#compliance.transfer(row);
        break;
      case "entitlements":
        this.#compliance.entitlement(row);
        break;
      case "licenses":
        this.#compliance.license(row);
        this.#licenses.push(row);
        break;
      case "license_cost_summaries":
        this.#costs.set(String(row.licenseId), row);
        break;
    }
  }

  /** Emit every table of the public service's extra reads. */
  emit(ctx: Ctx): void {
    emitOrganizations(ctx.emit);
    emitRegistryMetrics(ctx.emit);
    this.#emitMaintenance(ctx);
    this.#compliance.emit(ctx.emit);
    this.#estate.emit(ctx);
  }

  #orgOf(computer: unknown): string {
    const i = Number(String(computer).slice(1)) - 1;
    return ORGANIZATIONS[this.#plan.org[i] ?? 0].id;
  }

  #emitMaintenance(ctx: Ctx): void {
    let n = 0;
    for (const license of this.#licenses) {
      const cost = this.#costs.get(String(license.id));
      const purchased = Date.parse(String(license.purchaseDate));
      if (!cost || Number.isNaN(purchased)) continue;
      const maintenance = Number(cost.currentMaintenanceCost) || 0;
      const support = Number(cost.currentSupportCost) || 0;
      if (maintenance === 0 && support === 0) continue;
      if (purchased > ctx.now) continue;
      // Every whole year since purchase, then the period running today (its renewal is ahead).
      const years = Math.floor((ctx.now - purchased) / YEAR);
      for (let k = 0; k <= years; k++) {
        ctx.emit("maintenance_periods", {
          id: `MP${pad(++n, 6)}`,
          agreementPeriodId: license.contractId ? `${license.contractId}-P${k + 1}` : null,
          licenseId: license.id,
          invoiceReference: license.invoiceReference ?? null,
          notes: `Year ${k + 1}`,
          purchaseCurrency: cost.currency,
          validFrom: iso(purchased + k * YEAR),
          validTo: iso(purchased + (k + 1) * YEAR),
          hasUpgradeRights: maintenance > 0,
          maintenanceCost: maintenance,
          supportCost: support,
        });
      }
    }
  }
}

function emitOrganizations(emit: Ctx["emit"]): void {
  for (const o of ORGANIZATIONS) {
    emit("organization_nodes", {
      id: o.id,
      parentId: o.parentId,
      name: o.name,
      externalId: `CONTOSO-${o.site}-${o.id}`,
      isLegal: o.parentId === null || o.parentId === ORGANIZATIONS[0].id,
    });
  }
}

function emitRegistryMetrics(emit: Ctx["emit"]): void {
  for (const app of APP_INFOS) {
    const fam = app.family >= 0 ? FAMILIES[app.family] : null;
    const metricId = fam?.metric ?? METRICS[0].id;
    const price = fam
      ? (fam.buy.find(([key]) => key === app.decl.key) ?? fam.buy[0])?.[2] ?? null
      : null;
    emit("registry_metrics", {
      id: metricId,
      name: metricName(metricId),
      customCompareValueType: "None",
      licenseCostCurrency: "USD",
      isDefault: true,
      metricSetting: metricId === MET.users ? "AllUsers" : "AllDevices",
      metricSettingIntervalType: fam ? "Days" : "None",
      minimumRequirement: metricId === MET.cores ? 16 : null,
      metricSettingInterval: fam ? 30 : null,
      concurrencyInterval: metricId === MET.users ? 60 : null,
      licenseCost: price,
      licenseCostBase: price,
      applicationId: app.id,
    });
  }
}
