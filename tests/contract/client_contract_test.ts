/**
 * Contract tests: the client against a mock that answers like the real service (OpenAPI-shaped
 * fixtures of our own) and like the spec, with no registry prefix configured. The cases that
 * wait for other work are in `pending_contract_test.ts`.
 */

import {
  aliasesReadable,
  AWAITING_FIELDS,
  AWAITING_FILTERS,
  AWAITING_ROUTES,
  realFieldFilters,
  realFieldsKnown,
  registryDefault,
  routeReads,
  transfersYieldItems,
} from "./contract_suite.ts";
import { reportRuns, SAM_REPORTS } from "./reports_contract_suite.ts";

for (const dialect of ["real", "spec"] as const) {
  routeReads(dialect, (r) => !AWAITING_ROUTES.has(r.template));
  aliasesReadable(dialect);
  transfersYieldItems(dialect);
  registryDefault(dialect);
  reportRuns(dialect, SAM_REPORTS);
}
realFieldsKnown((r) => !AWAITING_FIELDS.has(r.template));
realFieldFilters((name) => !AWAITING_FILTERS.has(name));
