/**
 * The portfolio's rows from run history: for each tenant, the latest finished run's headline
 * figures (exposure: shortfall cost per currency; cost to date per currency; compliance:
 * computers covered, positions short) beside the same figure of the previous comparable run
 * (same tenant, same pack, finished complete or partial). Money is never summed across currencies.
 *
 * @module
 */

import { RunHistory } from "../queue/history.ts";
import { databaseUrl, DatabaseUrlError } from "../queue/database_url.ts";
import { currentFigures, type Figure } from "../pack/figures.ts";

/** The part of a history row the portfolio reads. */
export interface PortfolioRun {
  /** The tenant's id. */
  readonly tenantId: string;
  /** The tenant's name. */
  readonly tenantName: string;
  /** The pack's name. */
  readonly pack: string;
  /** The run's status. */
  readonly status: string;
  /** When the run started. */
  readonly started: Date;
  /** The headline figures of the run, or null when it recorded none. */
  readonly figures: readonly Figure[] | null;
}

/** One money figure of a tenant in one currency. */
export type MoneyRow = {
  readonly tenant: string;
  readonly tenantId: string;
  readonly currency: string;
  readonly value: number;
  readonly previous: number | null;
  readonly change: number | null;
  readonly asOf: Date;
  readonly previousAsOf: Date | null;
};

/** A tenant's compliance. */
export type ComplianceRow = {
  readonly tenant: string;
  readonly tenantId: string;
  readonly lastRun: Date | null;
  readonly status: string;
  readonly computers: number | null;
  readonly covered: number | null;
  readonly previousCovered: number | null;
  readonly coveredChange: number | null;
  readonly positionsShort: number | null;
  readonly positionsShortChange: number | null;
};

const FINISHED = new Set(["complete", "partial"]);
const round = (n: number) => Math.round(n * 100) / 100;

/** The value of `key` in the latest finished run that has it, and in the one before (same pack). */
function latestPair(runs: readonly PortfolioRun[], key: string) {
  const having = runs.filter((r) =>
    FINISHED.has(r.status) && r.figures?.some((f) => f.key === key)
  );
  const last = having.at(-1);
  if (!last) return null;
  const before = having.filter((r) => r.pack === last.pack && r.started < last.started).at(-1);
  const value = (r: PortfolioRun) => r.figures!.find((f) => f.key === key)!.value;
  return {
    value: value(last),
    previous: before ? value(before) : null,
    asOf: last.started,
    previousAsOf: before?.started ?? null,
  };
}

function byTenant(runs: readonly PortfolioRun[]): Map<string, PortfolioRun[]> {
  const out = new Map<string, PortfolioRun[]>();
  for (const r of [...runs].sort((a, b) => +a.started - +b.started)) {
    out.set(r.tenantId, [...out.get(r.tenantId) ?? [], r]);
  }
  return out;
}

/** A tenant's latest finished run that has figures of `report`, and the one before (same pack). */
function reportPair(runs: readonly PortfolioRun[], report: string) {
  const having = runs.filter((r) =>
    FINISHED.has(r.status) && r.figures?.some((f) => f.report === report)
  );
  const last = having.at(-1);
  if (!last) return null;
  const before = having.filter((r) => r.pack === last.pack && r.started < last.started).at(-1);
  return { last, before };
}

/**
 * Money rows (one per tenant × currency) of the fact `<report>|fact|<label> (<CUR>)`, from each
 * tenant's latest finished run that ran `report` and the previous one of the same pack only: a
 * currency that run has no line in is 0 there (the report ran; nothing was in that currency), with
 * the previous run's value beside it; `previous` is null only when there is no previous run.
 *
 * @example
 * ```ts
 * import { moneyRows } from "./portfolio_rows.ts";
 * const f = (value: number) => [{
 *   key: "license-position|fact|Shortfall cost (EUR)", report: "license-position",
 *   label: "Shortfall cost (EUR)", value, type: "currency", currency: "EUR",
 * }];
 * const run = (day: number, value: number) => ({
 *   tenantId: "a", tenantName: "A", pack: "p", status: "complete",
 *   started: new Date(Date.UTC(2026, 0, day)), figures: f(value),
 * });
 * console.log(moneyRows([run(1, 10), run(2, 15)], "license-position", "Shortfall cost")[0].change); // 5
 * ```
 */
export function moneyRows(
  runs: readonly PortfolioRun[],
  report: string,
  label: string,
): MoneyRow[] {
  const out: MoneyRow[] = [];
  const prefix = `${report}|fact|${label} (`;
  const amounts = (run: PortfolioRun | undefined) =>
    new Map(
      (run?.figures ?? []).filter((f) => f.key.startsWith(prefix) && f.currency)
        .map((f) => [f.currency!, f.value]),
    );
  for (const [tenantId, mine] of byTenant(runs)) {
    const pair = reportPair(mine, report);
    if (!pair) continue;
    const now = amounts(pair.last);
    const then = amounts(pair.before);
    for (const currency of [...new Set([...now.keys(), ...then.keys()])].sort()) {
      const value = now.get(currency) ?? 0;
      const previous = pair.before ? then.get(currency) ?? 0 : null;
      out.push({
        tenant: mine.at(-1)!.tenantName,
        tenantId,
        currency,
        value,
        previous,
        change: previous === null ? null : round(value - previous),
        asOf: pair.last.started,
        previousAsOf: pair.before?.started ?? null,
      });
    }
  }
  return out.sort((a, b) =>
    a.tenant.localeCompare(b.tenant) || a.currency.localeCompare(b.currency)
  );
}

const COMPUTERS = "entitlement-state-by-computer|fact|Computers";
const UNCOVERED = "entitlement-state-by-computer|fact|Computers with uncovered applications";
const SHORT = "license-position|fact|Positions short";

/**
 * One compliance row per tenant: the share of computers with every application covered, and
 * the positions short, each with its change since the previous comparable run.
 *
 * @example
 * ```ts
 * import { complianceRows } from "./portfolio_rows.ts";
 * console.log(complianceRows([]).length); // 0
 * ```
 */
export function complianceRows(runs: readonly PortfolioRun[]): ComplianceRow[] {
  const out: ComplianceRow[] = [];
  for (const [tenantId, mine] of byTenant(runs)) {
    const computers = latestPair(mine, COMPUTERS);
    const uncovered = latestPair(mine, UNCOVERED);
    const short = latestPair(mine, SHORT);
    const share = (total: number | null, bad: number | null) =>
      total ? round((total - (bad ?? 0)) / total * 10000) / 10000 : null;
    const covered = computers && uncovered ? share(computers.value, uncovered.value) : null;
    const previousCovered = computers && uncovered
      ? share(computers.previous, uncovered.previous)
      : null;
    const last = mine.at(-1)!;
    out.push({
      tenant: last.tenantName,
      tenantId,
      lastRun: last.started,
      status: last.status,
      computers: computers?.value ?? null,
      covered,
      previousCovered,
      coveredChange: covered !== null && previousCovered !== null
        ? round((covered - previousCovered) * 10000) / 10000
        : null,
      positionsShort: short?.value ?? null,
      positionsShortChange: short && short.previous !== null ? short.value - short.previous : null,
    });
  }
  return out.sort((a, b) => a.tenant.localeCompare(b.tenant));
}

/**
 * The portfolio's source is missing: no run history database is configured. Bad input (exit 2),
 * raised before anything is read or written, with the fix.
 */
export const NO_DATABASE = "portfolio reads the queue's run history, and SAMKIT_DATABASE_URL is " +
  "not set: set it to the PostgreSQL database the queue workers record their runs in " +
  "(deno task worker), e.g. postgresql://samkit@127.0.0.1:5432/samkit";

/**
 * The queue's finished and failed runs (of pack `pack`, or of every pack) from the run history
 * in PostgreSQL at `SAMKIT_DATABASE_URL`, their figures under today's names
 * (`currentFigures`); a `DatabaseUrlError` naming the variable when it is not set or not a
 * PostgreSQL URL (a portfolio of no tenants is never reported for want of its database).
 *
 * @example
 * ```ts ignore
 * import { readRuns } from "./portfolio_rows.ts";
 * console.log((await readRuns("weekly-audit")).length);
 * ```
 */
export async function readRuns(pack: string | undefined): Promise<PortfolioRun[]> {
  let set = false;
  try {
    set = Boolean(Deno.env.get("SAMKIT_DATABASE_URL"));
  } catch {
    set = false;
  }
  if (!set) throw new DatabaseUrlError(NO_DATABASE);
  // Checked, and its password registered as a secret, as the queue's own commands do.
  const history = await RunHistory.open(databaseUrl(), { max: 1 });
  try {
    const runs = await history.runs(pack ? { pack } : {});
    return runs.map((r) => (r.figures ? { ...r, figures: currentFigures(r.figures) } : r));
  } finally {
    await history.close();
  }
}
