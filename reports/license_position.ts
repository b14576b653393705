/**
 * License position: the effective license position (ELP) per application × metric — licenses
 * bought, plus what transfers (downgrade, upgrade, cross-edition) bring in, less what they give
 * away, against the metric requirement — priced, reconciled with the service's entitlement states
 * and cross-checked with its own compliance summary. Rules: `lib/query/elp/`, and the README's
 * "Effective license position".
 * @module
 */

import type { QueryContext } from "../lib/query/context.ts";
import { integer, money, percent, text, whenPositive } from "../lib/report/columns.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import { type LicensePositionClient, positionRows, publisherRows } from "./support/elp_rows.ts";
import { reportElp } from "./support/elp_rows.ts";
import { APPLICATION_METRIC, evidenceSections, exposureSections } from "./support/elp_sections.ts";

export type { LicensePositionClient };

async function data(ctx: ReportContext<LicensePositionClient, QueryContext>): Promise<ReportData> {
  const { elp, names, scope } = await reportElp(ctx);
  const positions = positionRows(elp, names);
  return {
    sections: [
      {
        id: "positions",
        title: `Effective license position${scope}`,
        description: "Per application and metric: purchased + received − given = entitlements, " +
          "against the requirement (metric tracking after core factors, minimums, exclusions and " +
          "extended coverage). Shortfalls are priced at the average price paid, else the " +
          "registry's list price, else the price file; units of different metrics are never added.",
        columns: [
          ...APPLICATION_METRIC,
          integer("purchased", "Purchased"),
          integer("received", "Received"),
          integer("given", "Given"),
          integer("entitlements", "Entitlements"),
          integer("requirement", "Requirement"),
          integer("position", "Position"),
          percent("compliance", "Entitled ÷ required"),
          integer("shortfall", "Shortfall", { emphasis: whenPositive("shortfall", "bad") }),
          integer("uncoveredInstalls", "Uncovered installs"),
          text("priceSource", "Priced at", { width: 14 }),
          money("unitPrice", "Unit price"),
          money("shortfallCost", "Shortfall cost", { width: 14 }),
          money("surplusValue", "Surplus value", { width: 14 }),
          text("currency", "Currency", { width: 8 }),
        ],
        rows: positions,
        group: { by: "publisher", label: "Publisher" },
        totals: { sum: ["shortfallCost", "surplusValue"], perCurrency: "currency" },
        emptyText: "No licenses or requirements for these parameters.",
        facts: [
          { label: "Shortfall cost", sum: "shortfallCost", perCurrency: "currency" },
          { label: "Unpriced shortfalls", count: true, where: (r) => r.unpricedShortfall === true },
          { label: "Positions short", count: true, where: (r) => (r.shortfall as number) > 0 },
          { label: "Surplus value", sum: "surplusValue", perCurrency: "currency" },
        ],
      },
      {
        id: "publishers",
        title: "Compliance by publisher and metric",
        description: "Entitlements ÷ requirement within one metric (units of different metrics " +
          "are never added); a share below 100% is a shortfall.",
        columns: [
          text("publisher", "Publisher", { width: 28 }),
          text("metric", "Metric", { width: 16 }),
          integer("applications", "Applications"),
          integer("short", "Short", { emphasis: whenPositive("short", "bad") }),
          integer("entitlements", "Entitlements"),
          integer("requirement", "Requirement"),
          integer("shortfall", "Shortfall"),
          percent("compliance", "Entitled ÷ required"),
        ],
        rows: publisherRows(positions),
      },
      ...exposureSections(positions),
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
    organization: stringParam("Only this organization's licenses, computers and transfers"),
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
