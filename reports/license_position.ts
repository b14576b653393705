/**
 * License position: the effective license position (ELP) per application × metric — licenses
 * bought, plus what transfers (downgrade, upgrade, cross-edition) bring in, less what they give
 * away, against the metric requirement — priced, reconciled with the service's entitlement states
 * and cross-checked with its own compliance summary. Rules: `lib/query/elp/`, and the README's
 * "Effective license position".
 * @module
 */

import type { QueryContext } from "../lib/query/context.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { type LicensePositionClient, positionRows } from "../lib/sam/elp_rows.ts";
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
  const { elp, names, scope, organization } = await reportElp(ctx);
  const positions = positionRows(elp, names);
  return {
    facts: [
      ...(organization
        ? [{ section: "positions", label: `Positions of ${organization}`, count: true } as const]
        : []),
      {
        section: "positions",
        label: "Positions understated (requirement rests on hosts without hardware data)",
        count: true,
        where: (r) => (r.understatedHosts as number) > 0,
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
        group: { by: "publisher", label: "Publisher" },
        emptyText: "No licenses or requirements for these parameters.",
        facts: [
          { label: "Shortfall cost", sum: "shortfallCost", perCurrency: "currency" },
          { label: "Unpriced shortfalls", count: true, where: (r) => r.unpricedShortfall === true },
          { label: "Positions short", count: true, where: (r) => (r.shortfall as number) > 0 },
          { label: "Surplus value", sum: "surplusValue", perCurrency: "currency" },
        ],
      },
      publishersSection(positions),
      ...exposureSections(positions),
      unpricedSection(positions),
      understatedHostsSection(elp),
      ...evidenceSections(elp, positions, names),
    ],
  };
}

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
    "requirement, shortfall and surplus priced per currency, reconciled with the service's " +
    "entitlement states and cross-checked with its compliance summary.",
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
