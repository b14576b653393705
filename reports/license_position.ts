/**
 * License position: per application, the licensed quantity against installations and against
 * the metric requirement, the surplus or shortfall, and what a shortfall would cost at the
 * average price already paid.
 *
 * Pricing rule (never mixing currencies): an application's average unit price is the amount paid
 * divided by the units bought, over its licenses in ONE currency. When an application's licenses
 * were bought in several currencies, its shortfall is priced in the currency in which most units
 * were bought (ties: the alphabetically first code); the "Prices paid" section lists every
 * currency's average so nothing is hidden.
 *
 * @module
 */

import type { EstateApi, LicensesApi, OrganizationsApi, RegistryApi } from "../lib/api/client.ts";
import type { QueryContext } from "../lib/query/context.ts";
import type { Fact, ReportContext, ReportData, Row } from "../lib/report/model.ts";
import { defineReport } from "../lib/report/model.ts";
import {
  applicationLabel,
  applicationName,
  compareText,
  computersById,
  costAt,
  currencyFact,
  licensePrices,
  pricingLine,
  registryById,
  unitCents,
} from "./support/lookups.ts";
import { organizationNames, organizationScope } from "./support/names.ts";
import { versionWhenSent } from "./support/versions.ts";

/** The slice of the SAM client this report reads. */
export interface LicensePositionClient {
  /** Licenses. */
  readonly licenses: Pick<LicensesApi, "list">;
  /** The application registry. */
  readonly registry: Pick<RegistryApi, "applications">;
  /** Computers, installations and metric tracking of all computers. */
  readonly estate: Pick<EstateApi, "computers" | "applications" | "metrics">;
  /** The organisation tree (the scoped organisation's name, only when one is asked for). */
  readonly organizations: Pick<OrganizationsApi, "tree">;
}

type Ctx = ReportContext<LicensePositionClient, QueryContext>;

/** The prices section orders labels by collation alone (equal labels: by id). */
const collator = new Intl.Collator("en", { numeric: true });

interface Position {
  id: string;
  name: string;
  label: string;
  version: string | null;
  manufacturer: string | null;
  licensed: number;
  installations: number;
  requirement: number;
}

async function data(ctx: Ctx): Promise<ReportData> {
  const organization = ctx.params.organization as string | undefined;
  const registry = await registryById(ctx, ctx.filter);
  const { quantity, prices } = await licensePrices(ctx, { organization });
  const orgOf = organization === undefined ? undefined : await computersById(ctx);
  const inScope = (computerId: string | null) =>
    orgOf === undefined || orgOf.get(computerId)?.organizationId === organization;
  const wanted = (appId: string | null): appId is string =>
    !!appId && (!ctx.filter || registry.has(appId));

  const installations = new Map<string, number>();
  const installed = ctx.client.estate.applications({
    filter: "isInstalled -eq true",
    signal: ctx.signal,
  });
  for await (const install of installed) {
    if (install.isInstalled !== true || !wanted(install.applicationId)) continue;
    if (!inScope(install.computerId)) continue;
    installations.set(install.applicationId, (installations.get(install.applicationId) ?? 0) + 1);
  }
  const requirement = new Map<string, number>();
  for await (const metric of ctx.client.estate.metrics({ signal: ctx.signal })) {
    if (!wanted(metric.applicationId) || !inScope(metric.computerId)) continue;
    const r = Number.isFinite(metric.requirement) ? metric.requirement! : 0;
    requirement.set(metric.applicationId, (requirement.get(metric.applicationId) ?? 0) + r);
  }

  const ids = new Set<string>();
  for (const [id, q] of quantity) if (q > 0 && wanted(id)) ids.add(id);
  for (const [id, r] of requirement) if (r > 0) ids.add(id);
  const positions: Position[] = [...ids].map((id) => ({
    id,
    name: applicationName(id, registry.get(id)),
    label: applicationLabel(id, registry.get(id)),
    version: registry.get(id)?.version ?? null,
    manufacturer: registry.get(id)?.manufacturer ?? null,
    licensed: quantity.get(id) ?? 0,
    installations: installations.get(id) ?? 0,
    requirement: round6(requirement.get(id) ?? 0),
  }));
  const byName = (a: Position, b: Position) =>
    compareText(a.label, b.label) || compareText(a.id, b.id);
  positions.sort((a, b) => {
    const da = a.licensed - a.requirement, db = b.licensed - b.requirement;
    if ((da < 0) !== (db < 0)) return da < 0 ? -1 : 1;
    if (da < 0 && da !== db) return da - db;
    return byName(a, b);
  });

  // Shortfall cost per currency, and applications short with no price paid.
  const costs = new Map<string, { applications: number; units: number; cents: number }>();
  let unpriced = { applications: 0, units: 0 };
  const positionRows: Row[] = positions.map((p) => {
    const vsRequirement = round6(p.licensed - p.requirement);
    const shortfall = vsRequirement < 0 ? -vsRequirement : 0;
    const line = pricingLine(prices.get(p.id));
    let shortfallCost: number | null = null;
    if (shortfall > 0 && line) {
      shortfallCost = costAt(shortfall, line);
      const c = costs.get(line.currency) ?? { applications: 0, units: 0, cents: 0 };
      c.applications++;
      c.units += shortfall;
      c.cents += Math.round(shortfallCost * 100);
      costs.set(line.currency, c);
    } else if (shortfall > 0) {
      unpriced = { applications: unpriced.applications + 1, units: unpriced.units + shortfall };
    }
    return {
      application: p.name,
      version: p.version,
      applicationId: p.id,
      manufacturer: p.manufacturer,
      licensed: p.licensed,
      installations: p.installations,
      requirement: p.requirement,
      vsRequirement,
      vsInstallations: p.licensed - p.installations,
      shortfall,
      currency: line?.currency ?? null,
      unitPrice: line ? Math.round(unitCents(line)) / 100 : null,
      shortfallCost,
    };
  });

  const priceRows: Row[] = [];
  for (
    const p of [...positions].sort((a, b) =>
      collator.compare(a.label, b.label) || (a.id < b.id ? -1 : 1)
    )
  ) {
    const lines = prices.get(p.id);
    if (!lines) continue;
    const chosen = pricingLine(lines);
    for (const line of [...lines.values()].sort((a, b) => a.currency < b.currency ? -1 : 1)) {
      priceRows.push({
        application: p.name,
        version: p.version,
        applicationId: p.id,
        currency: line.currency,
        licenses: line.licenses,
        units: line.units,
        amountPaid: line.cents / 100,
        unitPrice: Math.round(unitCents(line)) / 100,
        pricing: line === chosen,
      });
    }
  }

  const costRows: Row[] = [...costs.entries()].sort(([a], [b]) => a < b ? -1 : 1).map((
    [currency, c],
  ) => ({
    currency,
    applications: c.applications,
    shortfall: round6(c.units),
    shortfallCost: c.cents / 100,
  }));
  if (unpriced.applications > 0) {
    costRows.push({
      currency: null,
      applications: unpriced.applications,
      shortfall: round6(unpriced.units),
      shortfallCost: null,
    });
  }

  const scope = organization === undefined
    ? ""
    : organizationScope(await organizationNames(ctx), organization);
  const short = (row: Row) => (row.vsRequirement as number) < 0 ? "bad" : undefined;
  return {
    sections: versionWhenSent([
      {
        id: "position",
        title: `License position per application${scope}`,
        description: "Licensed quantity (sum of license quantities) against installations " +
          "(installed computer applications) and against the metric requirement (sum of " +
          "metric tracking requirement). Applications with licenses or a requirement are " +
          "listed, shortfalls against the requirement first. A negative surplus is a " +
          "shortfall; it is priced at the average unit price paid in the currency of most " +
          "units bought.",
        columns: [
          { key: "application", label: "Application", type: "text", width: 32 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "manufacturer", label: "Manufacturer", type: "text", width: 20 },
          { key: "licensed", label: "Licensed", type: "number", decimals: 0 },
          { key: "installations", label: "Installations", type: "integer" },
          { key: "requirement", label: "Requirement", type: "number", decimals: 0 },
          {
            key: "vsRequirement",
            label: "Surplus vs requirement",
            type: "number",
            decimals: 0,
            emphasis: short,
          },
          {
            key: "vsInstallations",
            label: "Surplus vs installations",
            type: "number",
            decimals: 0,
            emphasis: (r: Row) => (r.vsInstallations as number) < 0 ? "warn" : undefined,
          },
          { key: "currency", label: "Currency", type: "text", width: 8 },
          { key: "unitPrice", label: "Average unit price", type: "currency" },
          { key: "shortfallCost", label: "Shortfall cost", type: "currency", emphasis: short },
        ],
        rows: positionRows,
        totals: { sum: ["licensed", "installations", "requirement"] },
        emptyText: "No application has licenses or a metric requirement for these parameters.",
      },
      {
        id: "prices",
        title: "Prices paid per application and currency",
        description: "Amount paid and units bought per currency; the average unit price is " +
          'amount ÷ units. "Used for pricing" marks the currency a shortfall is priced in.',
        columns: [
          { key: "application", label: "Application", type: "text", width: 32 },
          { key: "version", label: "Version", type: "text", width: 10 },
          { key: "currency", label: "Currency", type: "text", width: 8 },
          { key: "licenses", label: "Licenses", type: "integer" },
          { key: "units", label: "Units", type: "number", decimals: 0 },
          { key: "amountPaid", label: "Amount paid", type: "currency" },
          { key: "unitPrice", label: "Average unit price", type: "currency" },
          { key: "pricing", label: "Used for pricing", type: "boolean" },
        ],
        rows: priceRows,
        totals: { sum: ["licenses", "units", "amountPaid"], perCurrency: "currency" },
        emptyText: "No license with a purchase value and currency for these parameters.",
      },
      {
        id: "shortfall-cost",
        title: "Shortfall cost per currency",
        description: "The cost of every shortfall against the requirement, per currency " +
          "(amounts in different currencies are never added). A row without a currency counts " +
          "applications short whose licenses carry no price.",
        columns: [
          { key: "currency", label: "Currency", type: "text", width: 8 },
          { key: "applications", label: "Applications short", type: "integer" },
          { key: "shortfall", label: "Units short", type: "number", decimals: 0 },
          { key: "shortfallCost", label: "Shortfall cost", type: "currency" },
        ],
        rows: costRows,
        emptyText: "No shortfall against the metric requirement: every application is covered.",
      },
    ]),
    summary: (): Fact[] => {
      const facts: Fact[] = [
        { label: "Applications", value: positionRows.length, type: "integer" },
        {
          label: "Applications short of the requirement",
          value: positionRows.filter((r) => (r.shortfall as number) > 0).length,
          type: "integer",
        },
      ];
      for (const row of costRows) {
        if (row.currency === null) {
          facts.push({
            label: "Applications short with no price paid",
            value: row.applications,
            type: "integer",
          });
        } else {
          facts.push(currencyFact("Shortfall cost", row.currency as string, row.shortfallCost));
        }
      }
      return facts;
    },
  };
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
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
  tracked: [
    {
      section: "position",
      key: ["application", "version"],
      value: "vsRequirement",
      label: "Position against requirement",
    },
  ],
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
