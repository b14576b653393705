/**
 * The SAM domain: licensing rules, entitlement states and coverage, organisation scope, the
 * effective license position's rows, license-list costs, idle and reclaim rules, connector
 * statuses, end of life, stale computers, harvest and reallocation, renewals, reporting currency
 * and run history. One concern a file; `mod.ts` re-exports this module. Re-exports only.
 *
 * @module
 */

// Files with a name another rule also uses are listed by name: `NO_PUBLISHER` and `UNPRICED`
// (the same text in license_cost_query and unused_rows) come from elp_rows; the two
// `publisherRows` and `moneyRows` are exported under names that say whose they are.

export * from "./computers_in_scope.ts";
export * from "./connector_rows.ts";
export * from "./connector_status.ts";
export * from "./data_center_clusters.ts";
export {
  deviceRows,
  type DifferenceRow,
  differenceRows,
  type ElpNames,
  type ExposureRow,
  exposureRows,
  type LicensePositionClient,
  NO_PUBLISHER,
  organizationStatement,
  type PositionRow,
  positionRows,
  PRICE_SOURCES,
  type PublisherPositionRow,
  publisherRows as positionPublisherRows,
  type ReportElp,
  reportElp,
  understatedNote,
  UNPRICED,
} from "./elp_rows.ts";
export * from "./end_of_life.ts";
export * from "./end_of_life_installs.ts";
export * from "./entitlement_applications.ts";
export * from "./entitlement_counts.ts";
export * from "./entitlement_detail.ts";
export * from "./entitlement_inputs.ts";
export * from "./entitlement_states.ts";
export * from "./fx_rates.ts";
export * from "./harvest.ts";
export * from "./harvest_exclude.ts";
export * from "./host_inventory.ts";
export * from "./idle_buckets.ts";
export * from "./idle_installs.ts";
export * from "./idle_list.ts";
export * from "./idle_usage.ts";
export * from "./license_cost_lines.ts";
export {
  type CostLinesContext,
  costLinesInScope,
  costLinesOf,
  type CostScope,
  type LicensesInScope,
  licensesInScope,
  publisherRows as costPublisherRows,
  SCOPE_PARAMS,
  type Subtotal,
  type SubtotalMeasures,
  subtotalsBy,
  topApplications,
  topSectionId,
} from "./license_cost_query.ts";
export * from "./license_list_costs.ts";
export * from "./organization_check.ts";
export * from "./lookups.ts";
export * from "./optimization_rows.ts";
export * from "./optimize.ts";
export * from "./org_surplus.ts";
export {
  type ComplianceRow,
  complianceRows,
  type MoneyRow,
  moneyRows as portfolioMoneyRows,
  type PortfolioRun,
} from "./portfolio_rows.ts";
export * from "./processor_licensing.ts";
export * from "./purchase_range.ts";
export * from "./reallocate.ts";
export * from "./reclaim_usage.ts";
export * from "./reclaimable.ts";
export * from "./renewal_rows.ts";
export * from "./renewal_months.ts";
export * from "./reconciliation_reasons.ts";
export * from "./license_cost_converted.ts";
export * from "./renewal_sources.ts";
export * from "./renewals.ts";
export * from "./reporting_currency.ts";
export * from "./reporting_currency_flags.ts";
export * from "./rights.ts";
export * from "./rights_pools.ts";
export * from "./scan_age.ts";
export * from "./socket_map_rows.ts";
export * from "./stale_computer_rows.ts";
export * from "./trends_history.ts";
export {
  convertedRows,
  currenciesOf,
  moneyRows as trendMoneyRows,
  reportingCurrenciesOf,
  runRows,
  skippedRows,
} from "./trends_rows.ts";
export {
  type ApplicationRow,
  applicationRows,
  installationRows,
  NO_LICENSE,
  type ReclaimRow,
  reclaimRows,
  reclaimValueRows,
  type RowLookups,
  rowLookups,
  type RowLookupsContext,
} from "./unused_rows.ts";
