/**
 * Lookups and small rules several reports share: the registry and computers by id (each read
 * once per run through the query context), what was paid for an application's licenses per
 * currency and the one currency its amounts are priced in, application display names, the label
 * of rows without an organisation, a natural text order, money facts per currency, and detail
 * calls per item (404 as `null`).
 *
 * @module
 */

import type { LicensesApi } from "../api/client.ts";
import type { QueryContext } from "../query/context.ts";
export { compareText } from "../query/sort.ts";
export { detailsById, orNull } from "../query/details.ts";
export { computersById, registryById } from "../query/lookups.ts";
import type { CellValue, Fact } from "../report/model.ts";
import { mainPaidLine, type PaidLine } from "../query/elp/pricing.ts";
import type { RegistryApplication } from "../api/types.ts";

/** What was paid for an application's licenses in one currency (see `lib/query/elp/pricing.ts`). */
export type PriceLine = PaidLine;

/**
 * The average unit price of `line` in cents (unrounded): amount paid ÷ units bought.
 *
 * @example
 * ```ts
 * import { unitCents } from "./lookups.ts";
 * console.log(unitCents({ currency: "EUR", licenses: 2, units: 4, cents: 1000 })); // 250
 * ```
 */
export function unitCents(line: PriceLine): number {
  return line.cents / line.units;
}

/**
 * The price line an application's amounts are priced in: the currency with the most units
 * (ties: the alphabetically first code); `undefined` when nothing was paid. The ELP's rule
 * (`mainPaidLine`), shared.
 *
 * @example
 * ```ts
 * import { pricingLine } from "./lookups.ts";
 * const lines = new Map([
 *   ["EUR", { currency: "EUR", licenses: 1, units: 5, cents: 5000 }],
 *   ["USD", { currency: "USD", licenses: 2, units: 10, cents: 12000 }],
 * ]);
 * console.log(pricingLine(lines)?.currency); // "USD"
 * ```
 */
export const pricingLine: (
  lines: ReadonlyMap<string, PriceLine> | undefined,
) => PriceLine | undefined = mainPaidLine;

/**
 * Cost in currency units of `units` at the line's average unit price, rounded to the cent.
 *
 * @example
 * ```ts
 * import { costAt } from "./lookups.ts";
 * console.log(costAt(3, { currency: "EUR", licenses: 1, units: 3, cents: 1000 })); // 10
 * ```
 */
export function costAt(units: number, line: PriceLine): number {
  return Math.round(units * line.cents / line.units) / 100;
}

/**
 * Per application, the licensed quantity (all licenses, `quantity` summed) and what was paid per
 * currency (licenses with a currency, a purchase value and a positive quantity). Reads the
 * licenses once per run (cache key `licenses.list`).
 *
 * @example
 * ```ts
 * import { withReferenceContext } from "../../server.ts";
 * import { licensePrices } from "./lookups.ts";
 * await withReferenceContext({}, async (ctx) => {
 *   const { quantity, prices } = await licensePrices(ctx);
 *   console.log(quantity.size > 0, prices.size > 0); // true true
 * });
 * ```
 */
export async function licensePrices(
  ctx: {
    readonly client: { readonly licenses: Pick<LicensesApi, "list"> };
    readonly query: QueryContext;
  },
  options: { readonly organization?: string } = {},
): Promise<{ quantity: Map<string, number>; prices: Map<string, Map<string, PriceLine>> }> {
  const licenses = await ctx.query.all("licenses.list", () => ctx.client.licenses.list());
  const quantity = new Map<string, number>();
  const prices = new Map<string, Map<string, PriceLine>>();
  for (const license of licenses) {
    const app = license.applicationId;
    if (!app) continue;
    if (options.organization !== undefined && license.organizationId !== options.organization) {
      continue;
    }
    const qty = Number.isFinite(license.quantity) ? license.quantity! : 0;
    quantity.set(app, (quantity.get(app) ?? 0) + qty);
    const currency = license.purchaseCurrency?.trim();
    const value = license.purchaseValue;
    if (!currency || value === null || !Number.isFinite(value) || !(qty > 0)) continue;
    let lines = prices.get(app);
    if (!lines) prices.set(app, lines = new Map());
    let line = lines.get(currency);
    if (!line) lines.set(currency, line = { currency, licenses: 0, units: 0, cents: 0 });
    line.licenses++;
    line.units += qty;
    line.cents += Math.round(value * 100);
  }
  return { quantity, prices };
}

/**
 * A sort label for an application: its registry name and version (the version left out where
 * the name already holds it as a word: "Windows Server 2019 Standard", not "... Standard 2019"),
 * or its id when unknown.
 *
 * @example
 * ```ts
 * import { applicationLabel } from "./lookups.ts";
 * console.log(applicationLabel("APP9", undefined)); // "(unknown application APP9)"
 * const app = { id: "A1", name: "Windows Server 2019 Standard", version: "2019" };
 * console.log(applicationLabel("A1", app as never)); // "Windows Server 2019 Standard"
 * ```
 */
export function applicationLabel(id: string, app: RegistryApplication | undefined): string {
  if (!app?.name) return applicationName(id, app);
  const version = app.version?.trim();
  if (!version || nameHolds(app.name, version)) return app.name;
  return `${app.name} ${version}`;
}

/** Whether a name holds a version as a whole word (case aside). */
function nameHolds(name: string, version: string): boolean {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s(])${escaped}($|[\\s),])`, "i").test(name);
}

/**
 * The label of the application of a row that may name none: as {@link applicationLabel}, and
 * `(no application)` when there is neither an id nor a registry name.
 *
 * @example
 * ```ts
 * import { applicationLabelOrNone } from "./lookups.ts";
 * console.log(applicationLabelOrNone(null, undefined)); // "(no application)"
 * console.log(applicationLabelOrNone("APP9", undefined)); // "(unknown application APP9)"
 * ```
 */
export function applicationLabelOrNone(
  id: string | null,
  app: RegistryApplication | undefined,
): string {
  return id || app?.name ? applicationLabel(id ?? "", app) : "(no application)";
}

/**
 * The display name of an application: its registry name, or its id when unknown.
 *
 * @example
 * ```ts
 * import { applicationName } from "./lookups.ts";
 * console.log(applicationName("APP9", undefined)); // "(unknown application APP9)"
 * ```
 */
export function applicationName(id: string, app: RegistryApplication | undefined): string {
  return app?.name || `(unknown application ${id})`;
}

export { NO_ORGANIZATION } from "../query/names.ts";

/**
 * A money fact in one currency, labelled with its code: amounts in different currencies are
 * never added, so a report gives one such fact per currency.
 *
 * @example
 * ```ts
 * import { currencyFact } from "./lookups.ts";
 * console.log(currencyFact("Shortfall cost", "EUR", 200).label); // "Shortfall cost (EUR)"
 * ```
 */
export function currencyFact(label: string, currency: string, value: CellValue): Fact {
  return { label: `${label} (${currency})`, value, type: "currency", currency };
}
