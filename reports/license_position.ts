/**
 * License position: per application, licenses against installations and the metric requirement
 * (`support/coverage.ts`), and a shortfall's cost at the average price paid in the currency of
 * most units bought (`support/prices.ts`); "Prices paid" lists every currency's average.
 * @module
 */

import type { ClientSlice } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import { groupBy } from "../lib/query/group_by.ts";
import { registryById } from "../lib/query/lookups.ts";
import { count, sum, sumMoney } from "../lib/query/measures.ts";
import { organizationNames, organizationScope } from "../lib/query/names.ts";
import { asc, sortBy } from "../lib/query/sort.ts";
import { boolean, integer, money, number, text, whenPositive } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import type { Row } from "../lib/report/model.ts";
import { coverages, round6, shortfallsFirst } from "./support/coverage.ts";
import { estateUse } from "./support/estate_use.ts";
import { applicationLabel, applicationName } from "./support/lookups.ts";
import { licensePrices, priceShortfall, pricesPaid } from "./support/prices.ts";
import { versionWhenSent } from "./support/versions.ts";

/** The slice of the SAM client this report reads. */
export type LicensePositionClient = ClientSlice<{
  licenses: "list";
  registry: "applications";
  estate: "computers" | "applications" | "metrics";
  organizations: "tree";
}>;

async function data(ctx: ReportContext<LicensePositionClient, QueryContext>): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const registry = await registryById(ctx, ctx.filter);
  const applications = ctx.filter ? registry : undefined;
  const { quantity, prices } = await licensePrices(ctx, { organization });
  const use = await estateUse(ctx, { organization, applications, signal: ctx.signal });
  const rows = coverages({ licensed: quantity, ...use }, applications).map((c) => {
    const app = registry.get(c.id);
    return {
      ...{ ...c, label: applicationLabel(c.id, app), application: applicationName(c.id, app) },
      ...{ version: app?.version ?? null, manufacturer: app?.manufacturer ?? null },
      ...priceShortfall(c.shortfall, prices.get(c.id)),
    };
  });
  const positions = sortBy(rows, shortfallsFirst, asc("label"), asc("id"));
  const short = positions.filter((p) => p.shortfall > 0);
  const costs = groupBy(short, (p) => ({ currency: p.currency }), {
    applications: count(),
    shortfall: sum((p) => p.shortfall),
    shortfallCost: sumMoney((p) => p.shortfallCost),
  }).map((c) => ({ ...c, shortfall: round6(c.shortfall) }));
  const scope = organization === undefined
    ? ""
    : organizationScope(await organizationNames(ctx), organization);
  const bad = whenPositive("shortfall", "bad");
  const isShort = (r: Row) => (r.shortfall as number) > 0;
  const priceless = (r: Row) => r.currency === null;
  const noPrice = { label: "Applications short with no price paid", sum: "applications" };
  const over = (r: Row) => (r.vsInstallations as number) < 0 ? "warn" as const : undefined;
  return {
    sections: versionWhenSent([{
      id: "position",
      title: `License position per application${scope}`,
      description: "Licensed quantity (sum of license quantities) against installations " +
        "(installed computer applications) and against the metric requirement (sum of " +
        "metric tracking requirement). Applications with licenses or a requirement are " +
        "listed, shortfalls against the requirement first. A negative surplus is a " +
        "shortfall; it is priced at the average unit price paid in the currency of most " +
        "units bought.",
      columns: [
        text("application", "Application", { width: 32 }),
        text("version", "Version", { width: 10 }),
        text("manufacturer", "Manufacturer", { width: 20 }),
        number("licensed", "Licensed", { decimals: 0 }),
        integer("installations", "Installations"),
        number("requirement", "Requirement", { decimals: 0 }),
        number("vsRequirement", "Surplus vs requirement", { decimals: 0, emphasis: bad }),
        number("vsInstallations", "Surplus vs installations", { decimals: 0, emphasis: over }),
        text("currency", "Currency", { width: 8 }),
        money("unitPrice", "Average unit price"),
        money("shortfallCost", "Shortfall cost", { emphasis: bad }),
      ],
      rows: positions,
      totals: { sum: ["licensed", "installations", "requirement"] },
      emptyText: "No application has licenses or a metric requirement for these parameters.",
      facts: [
        { label: "Applications", count: true },
        { label: "Applications short of the requirement", count: true, where: isShort },
      ],
    }, {
      id: "prices",
      title: "Prices paid per application and currency",
      description: "Amount paid and units bought per currency; the average unit price is " +
        'amount ÷ units. "Used for pricing" marks the currency a shortfall is priced in.',
      columns: [
        text("application", "Application", { width: 32 }),
        text("version", "Version", { width: 10 }),
        text("currency", "Currency", { width: 8 }),
        integer("licenses", "Licenses"),
        number("units", "Units", { decimals: 0 }),
        money("amountPaid", "Amount paid"),
        money("unitPrice", "Average unit price"),
        boolean("pricing", "Used for pricing"),
      ],
      rows: sortBy(positions, asc("label"), asc("id")).flatMap(({ id, application, version }) =>
        pricesPaid(prices.get(id)).map((line) => ({ application, version, ...line }))
      ),
      totals: { sum: ["licenses", "units", "amountPaid"], perCurrency: "currency" },
      emptyText: "No license with a purchase value and currency for these parameters.",
    }, {
      id: "shortfall-cost",
      title: "Shortfall cost per currency",
      description: "The cost of every shortfall against the requirement, per currency " +
        "(amounts in different currencies are never added). A row without a currency counts " +
        "applications short whose licenses carry no price.",
      columns: [
        text("currency", "Currency", { width: 8 }),
        integer("applications", "Applications short"),
        number("shortfall", "Units short", { decimals: 0 }),
        money("shortfallCost", "Shortfall cost"),
      ],
      rows: sortBy(costs, asc("currency")),
      emptyText: "No shortfall against the metric requirement: every application is covered.",
      facts: [
        { label: "Shortfall cost", sum: "shortfallCost", perCurrency: "currency" },
        ...costs.some(priceless) ? [{ ...noPrice, where: priceless }] : [],
      ],
    }]),
  };
}

/**
 * The license position report.
 *
 * @example
 * ```ts ignore
 * import { licensePosition } from "./license_position.ts";
 * const data = await licensePosition.data(ctx);
 * console.log(data.sections.map((s) => s.id)); // ["position", "prices", "shortfall-cost"]
 * ```
 */
export const licensePosition = defineReport<LicensePositionClient, QueryContext>({
  id: "license-position",
  tracked: [{
    section: "position",
    key: ["application", "version"],
    value: "vsRequirement",
    label: "Position against requirement",
  }],
  title: "License position",
  description: "Per application: licensed quantity against installations and the metric " +
    "requirement, the surplus or shortfall, and the cost of a shortfall at the average price " +
    "paid (per currency, never mixed).",
  params: {
    organization: {
      type: "string",
      description: "Only this organization's licenses, and installations and requirement on " +
        "its computers (default: all organizations)",
    },
  },
  filterResource: "RegistryApplication",
  landscape: true,
  data,
});
