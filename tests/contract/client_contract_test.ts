/**
 * Contract tests: the client against a mock that answers like the real service (OpenAPI-shaped
 * fixtures of our own) and like the spec, with no registry prefix configured.
 */

import {
  aliasesReadable,
  ALL_ROUTES,
  realFieldFilters,
  realFieldsKnown,
  registryDefault,
  routeReads,
  transfersYieldItems,
} from "./contract_suite.ts";
import { reportRuns, SAM_REPORTS } from "./reports_contract_suite.ts";

for (const dialect of ["real", "spec"] as const) {
  routeReads(dialect, ALL_ROUTES);
  aliasesReadable(dialect);
  transfersYieldItems(dialect);
  registryDefault(dialect);
  reportRuns(dialect, SAM_REPORTS);
}
realFieldsKnown(ALL_ROUTES);
realFieldFilters(() => true);
