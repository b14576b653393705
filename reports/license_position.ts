/**
 * License position: the effective license position (ELP) per application × metric — licenses
 * bought, plus what transfers (downgrade, upgrade, cross-edition) bring in, less what they give
 * away, against the metric requirement — priced, reconciled with the service's entitlement states
 * and cross-checked with its own compliance summary. Rules: `lib/query/elp/`, and the README's
 * "Effective license position".
 * @module
 */

import type { QueryContext } from "../lib/query/context.ts";
import {
  defineReport,
  type ReportContext,
  type ReportData,
  type Row,
} from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import {
  convertedPositionRows,
  type LicensePositionClient,
  positionRows,
} from "../lib/sam/elp_rows.ts";
import { reportElp } from "../lib/sam/elp_rows.ts";
import {
  evidenceSections,
  exposureSections,
  POSITION_COLUMNS,
  publishersSection,
  understatedHostsSection,
  unpricedSection,
} from "./license_position_sections.ts";

export type { LicensePositionClient };

async function data(ctx: ReportContext<LicensePositionClient, QueryContext>): Promise<ReportData> {
  const { elp, names, scope, organization, estate } = await reportElp(ctx);
  const scoped = estate && organization ? { estate, name: organization } : undefined;
  // With a reporting currency, each position's money is converted once; every sum adds them.
  const positions = convertedPositionRows(positionRows(elp, names, scoped), ctx.reportingCurrency);
  return {
    facts: [
      // What the reader decides on first: what is short and what it costs; caveats after.
      { section: "positions", label: "Positions short", count: true, where: isShort, cover: true },
      {
        section: "positions",
        label: "Shortfall cost",
        sum: "shortfallCost",
        perCurrency: "currency",
        cover: true,
      },
      {
        section: "positions",
        label: "Unpriced shortfalls",
        count: true,
        where: isUnpricedShortfall,
        cover: true,
      },
      {
        section: "positions",
        label: "Surplus value",
        sum: "surplusValue",
        perCurrency: "currency",
        cover: true,
      },
      ...(organization
        ? [{ section: "positions", label: `Positions of ${organization}`, count: true } as const]
        : []),
      {
        section: "positions",
        label: "Positions understated (requirement rests on hosts without hardware data)",
        count: true,
        where: isUnderstated,
        cover: true,
      },
    ],
    sections: [
      {
        id: "positions",
        title: `Effective license position${scope}`,
        description: "Per application and metric: purchased + received − given = entitlements, " +
          "against the requirement (metric tracking after core factors, minimums, exclusions and " +
          "extended coverage). Shortfalls are priced at the average price paid, else the " +
          "registry's list price, else the price file; the unit price is printed rounded to the " +
          "cent and every cost is that printed unit price × units. Unpriced shortfalls have no " +
          "cost (blank, not 0) and are listed in their own section. Units of different metrics " +
          "are never added; money is totalled per currency in the exposure sections." +
          (elp.organizations
            ? " An organisation's scope is the organisation and its sub-organisations: " +
              "licenses allocated to them, transfers to and from their computers and users, " +
              "the requirement of their computers; prices are the estate's."
            : ""),
        columns: POSITION_COLUMNS,
        rows: positions,
        // Money per currency (units of different metrics are never added).
        totals: { sum: ["shortfallCost", "surplusValue"], perCurrency: "currency" },
        group: { by: "publisher", label: "Publisher" },
        emptyText: "No licenses or requirements for these parameters.",
      },
      publishersSection(positions),
      ...exposureSections(positions, ctx.reportingCurrency),
      unpricedSection(positions),
      understatedHostsSection(elp),
      ...evidenceSections(elp, positions, names, scoped !== undefined),
    ],
  };
}

// Each headline reads the row as the positions table prints it (lib/report/facts.ts).
const isShort = (r: Row) => (r.shortfall as number) > 0;
/** Short with no unit price: the blank "Unit price" beside a shortfall. */
const isUnpricedShortfall = (r: Row) => isShort(r) && (r.unitPrice ?? null) === null;
/** The "Requirement understated" column names hosts without hardware data. */
const isUnderstated = (r: Row) => typeof r.understated === "string" && r.understated !== "";

/**
 * The license position (ELP) report.
 *
 * @example
 * ```ts
 * import { licensePosition } from "./license_position.ts";
 * console.log(licensePosition.id); // "license-position"
 * ```
 */
export const licensePosition = defineReport<LicensePositionClient, QueryContext>({
  id: "license-position",
  title: "Effective license position",
  description: "Per application and metric: entitlements (purchased ± transfers) against the " +
    "requirement, shortfall and surplus priced per currency, rolled up per publisher and " +
    "metric with shortfall and surplus apart, reconciled with the service's entitlement " +
    "states (each difference with its reason) and cross-checked with its compliance summary.",
  params: {
    organization: stringParam(
      "Organisation id: only this organisation and its sub-organisations (allocated licenses, " +
        "their computers' requirement, transfers in and out)",
    ),
    priceFile: stringParam("A CSV or JSON price file (application, metric, currency, unitPrice)"),
  },
  filterResource: "RegistryApplication",
  landscape: true,
  tracked: [{
    section: "positions",
    key: ["application", "metric"],
    value: "position",
    label: "Position",
  }],
  data,
});
