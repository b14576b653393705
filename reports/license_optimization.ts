/**
 * License optimisation: what harvesting idle installs and reallocating surplus licenses would
 * leave to buy, position by position, from the effective license position (`license-position`'s
 * figures before), with the work list that gets there. Rules: `lib/sam/` (harvest, reallocate,
 * rights, org_surplus, optimize).
 * @module
 */

import type { QueryContext } from "../lib/query/context.ts";
import { computersById } from "../lib/query/lookups.ts";
import { organizationNames } from "../lib/query/names.ts";
import { defineReport, type ReportContext, type ReportData } from "../lib/report/model.ts";
import { booleanParam, integerParam, stringParam } from "../lib/report/param_builders.ts";
import { type OptimizationClient, optimizeLicensePosition } from "../lib/sam/optimize.ts";
import { type LicensePositionClient, reportElp } from "../lib/sam/elp_rows.ts";
import { readExclude } from "../lib/sam/harvest_exclude.ts";
import {
  actionRows,
  convertedPositions,
  currencyRows,
  optimizedPositionRows,
} from "../lib/sam/optimization_rows.ts";
import {
  actionsSection,
  positionsSection,
  purchaseSections,
} from "./license_optimization_sections.ts";

/** The slice of the SAM client this report reads. */
export type LicenseOptimizationClient = LicensePositionClient & OptimizationClient;

async function data(
  ctx: ReportContext<LicenseOptimizationClient, QueryContext>,
): Promise<ReportData> {
  const exclude = readExclude(ctx.params.exclude);
  const idleDays = ctx.params.idleDays as number;
  const { elp, names, scope, organization } = await reportElp(ctx);
  const [computers, organizations] = await Promise.all([
    computersById(ctx),
    organizationNames(ctx),
  ]);
  const result = await optimizeLicensePosition(ctx, {
    elp,
    idleDays,
    exclude,
    reallocate: ctx.params.reallocate !== false,
    allOrganizations: [...organizations.keys()].sort(),
    now: ctx.now,
  });
  const fx = ctx.reportingCurrency;
  const positions = convertedPositions(optimizedPositionRows(result, names), fx);
  return {
    facts: organization
      ? [{ section: "positions", label: `Positions of ${organization}`, count: true }]
      : [],
    sections: [
      positionsSection(positions, idleDays, scope),
      ...purchaseSections(currencyRows(positions, fx), positions),
      actionsSection(actionRows(result, { ...names, computers, organizations })),
    ],
  };
}

/**
 * The license optimisation report.
 *
 * @example
 * ```ts
 * import { licenseOptimization } from "./license_optimization.ts";
 * console.log(licenseOptimization.id); // "license-optimization"
 * ```
 */
export const licenseOptimization = defineReport<LicenseOptimizationClient, QueryContext>({
  id: "license-optimization",
  title: "License optimisation",
  description: "What harvesting idle installs and reassigning surplus licenses would leave to " +
    "buy: per short application and metric the shortfall before (the license position's), " +
    "after harvest and after reallocation with the money saved per currency, and the actions, " +
    "install by install.",
  params: {
    idleDays: integerParam(
      "Harvest installs unused for at least this many days (never used: " +
        "counted from first discovery)",
      { default: 90, min: 1, max: 3650 },
    ),
    organization: stringParam(
      "Organisation id: only this organisation and its sub-organisations (as license-position)",
    ),
    reallocate: booleanParam(
      "Cover an organisation's remaining shortfall from other organisations' surplus",
      { default: true },
    ),
    exclude: stringParam(
      "Application or computer ids or names never to harvest (comma-separated, " +
        "or a JSON list)",
    ),
    priceFile: stringParam("A CSV or JSON price file (application, metric, currency, unitPrice)"),
  },
  filterResource: "RegistryApplication",
  landscape: true,
  data,
});
