/**
 * Explain position: why one application's effective license position is what it is — each
 * license and transfer that makes its entitlements, each install that makes its requirement with
 * its rule and the service's entitlement state, and its price — from the same computation as
 * license-position (`reportElp`), so every figure adds up to the license-position row it
 * explains; and with `computer`, every application of one computer with its state and rule.
 * `deno task explain APPLICATION [--organization ORG] [--computer ID]` runs it.
 *
 * @module
 */

import type { QueryContext } from "../lib/query/context.ts";
import { computersById, registryById } from "../lib/query/lookups.ts";
import { organizationLabel, organizationNames } from "../lib/query/names.ts";
import { ParamError } from "../lib/report/errors.ts";
import {
  defineReport,
  type ReportContext,
  type ReportData,
  type Section,
} from "../lib/report/model.ts";
import { stringParam } from "../lib/report/param_builders.ts";
import {
  type LicensePositionClient,
  type PositionRow,
  positionRows,
  reportElp,
} from "../lib/sam/elp_rows.ts";
import { resolveName } from "../lib/sam/explain_application.ts";
import {
  explainApplications,
  explainComputer,
  type ExplainNames,
} from "../lib/sam/explain_position.ts";
import type { ElpResult } from "../lib/query/elp/elp.ts";
import { applicationSections, computerSection } from "./explain_position_sections.ts";

type Ctx = ReportContext<LicensePositionClient, QueryContext>;

/** The application a parameter names, among those the position has (id or name). */
async function applicationOf(
  ctx: Ctx,
  elp: ElpResult,
  label: (id: string) => string,
  name: string,
): Promise<string> {
  const registry = await registryById(ctx);
  const ids = [...new Set(elp.positions.map((p) => p.applicationId))];
  const items = ids.map((id) => ({ id, names: [label(id), registry.get(id)?.name ?? id] }));
  const inRegistry = [...registry.values()].find((a) =>
    a.id === name.trim() || a.name?.toLowerCase() === name.trim().toLowerCase()
  );
  if (inRegistry && !ids.includes(inRegistry.id ?? "")) {
    throw new ParamError(
      "application",
      `"${name}" (${inRegistry.id}) has no license, transfer or requirement in this position`,
    );
  }
  return resolveName("application", name, items);
}

/** The computer a parameter names (id or host name), among the estate's. */
function computerOf(
  computers: ReadonlyMap<string | null, { id: string | null; hostName: string | null }>,
  name: string,
): string {
  const items = [...computers.values()].filter((c) => c.id).map((c) => ({
    id: c.id!,
    names: [c.hostName ?? c.id!],
  }));
  return resolveName("computer", name, items);
}

async function data(ctx: Ctx): Promise<ReportData> {
  const application = ctx.params.application as string | undefined;
  const computer = ctx.params.computer as string | undefined;
  const { elp, names: elpNames, scope } = await reportElp(ctx);
  const [computers, orgNames] = await Promise.all([computersById(ctx), organizationNames(ctx)]);
  const names: ExplainNames = {
    ...elpNames,
    computer: (id) => computers.get(id ?? ""),
    organization: (id) => organizationLabel(orgNames, id),
  };
  const rows: PositionRow[] = positionRows(elp, elpNames);
  const sections: Section[] = [];
  if (application || !computer) {
    // Without an application or a computer: every position that is short.
    const ids = application
      ? [await applicationOf(ctx, elp, elpNames.label, application)]
      : [...new Set(rows.filter((r) => r.shortfall > 0).map((r) => r.applicationId))];
    const title = application
      ? `Effective license position of ${elpNames.label(ids[0])}${scope}`
      : `Positions short${scope}`;
    sections.push(...applicationSections(explainApplications(elp, names, rows, ids), title));
  }
  if (computer) {
    const id = computerOf(computers, computer);
    const c = computers.get(id);
    if (elp.organizations && !elp.organizations.has(c?.organizationId ?? "")) {
      throw new ParamError(
        "computer",
        `${c?.hostName ?? id} (${id}) belongs to ${
          organizationLabel(orgNames, c?.organizationId)
        }, outside this organisation scope`,
      );
    }
    sections.push(computerSection(explainComputer(elp, names, rows, id), c?.hostName ?? id));
  }
  return { sections };
}

/**
 * The explain-position report.
 *
 * @example
 * ```ts
 * import { explainPosition } from "./explain_position.ts";
 * console.log(explainPosition.id); // "explain-position"
 * ```
 */
export const explainPosition = defineReport<LicensePositionClient, QueryContext>({
  id: "explain-position",
  title: "Why a position is what it is",
  description: "For one application and each of its metrics: each license and transfer that " +
    "makes the entitlements, each install that makes the requirement with its rule and the " +
    "service's entitlement state, and the price; every figure adds up to the license-position " +
    "row it explains. With a computer: every application of it with its state and rule.",
  params: {
    application: stringParam(
      "The application to explain: its id or name (name and version); without it and " +
        "without a computer, every application with a short position",
    ),
    computer: stringParam("A computer (id or host name): every application on it"),
    organization: stringParam(
      "Organisation id: the position of this organisation and its sub-organisations, as " +
        "license-position computes it with the same parameter",
    ),
    priceFile: stringParam("A CSV or JSON price file, as license-position takes it"),
  },
  landscape: true,
  data,
});
