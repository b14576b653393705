/**
 * The typed SAM API client: one function per operation of `operations.ts`, grouped by area
 * (`client.estate.computers()`, `client.licenses.get(id)`, `client.connectors.add(…)`), over the
 * one request function of `request.ts`.
 *
 * Collections return a {@link Paged} (iterate it, or `.pages()`, `.toArray()`); single objects a
 * promise. Every item is normalised from the catalogue (numbers are numbers, dates are `Date`s,
 * `links` whichever name they came under). Filters are parsed and validated against the
 * operation's resource before any request is sent: a collection function throws at once (when
 * called, not when iterated) for a bad filter, sort, page size or path parameter.
 *
 * Connector writes (`add`, `updateCredentials`) are never retried on 5xx or network failures;
 * `validateReportName` and `test` have no side effects and are retried like reads.
 *
 * Each area is a small factory over the one request function (`client_estate.ts`,
 * `client_licenses.ts`, `client_registry.ts`, `client_connectors.ts`,
 * `client_organizations.ts`; the public service's further reads in `client_further_reads.ts`),
 * sharing the layer of `client_core.ts` and the collection and object reads of
 * `client_collection.ts` and `client_object.ts`.
 *
 * @example Read licenses over 10 seats from the reference server
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../server/server.ts";
 * const srv = await startServer({ computers: 20, quiet: true });
 * const client = createClient({
 *   baseUrl: srv.url,
 *   auth: { clientId: "demo", clientSecret: "demo-secret" },
 * });
 * for await (const license of client.licenses.list({ filter: "quantity -gt 10" })) {
 *   console.log(license.id, license.quantity, license.purchaseDate?.toISOString());
 * }
 * await srv.close();
 * ```
 *
 * @module
 */

import { type AuthOptions, createAuth } from "./auth.ts";
import {
  areaPrefixes,
  type BaseUrlOptions,
  readEnv,
  RegistryPrefix,
  registryPrefixes,
  resolveBaseUrl,
} from "./base_url.ts";
import type { Resource, ResourceName } from "./catalogue.ts";
import { collection } from "./client_collection.ts";
import { type ConnectorsApi, createConnectorsApi } from "./client_connectors.ts";
import { type ClientCore, createClientCore } from "./client_core.ts";
import { createEstateApi, type EstateApi } from "./client_estate.ts";
import { createLicensesApi, type LicensesApi } from "./client_licenses.ts";
import { object } from "./client_object.ts";
import { type CallOptions, DEFAULT_PAGE_SIZE, type FilterOptions } from "./client_options.ts";
import { createOrganizationsApi, type OrganizationsApi } from "./client_organizations.ts";
import { createRegistryApi, type RegistryApi } from "./client_registry.ts";
import { OPERATIONS } from "./operations.ts";
import type { Paged, ParallelOption } from "./paginate.ts";
import {
  type ClientEvent,
  type ClientStats,
  createRequest,
  createStats,
  type RequestFn,
  type TimerClock,
} from "./request.ts";
import type { RetryOptions, Sleep } from "./retry.ts";
import type { BodyLimitOptions } from "./body_limit.ts";
import type { PagingLimitsOption } from "./paging_limits.ts";

export type { ClientEvent, ClientStats } from "./request.ts";
export type { Page, Paged, ParallelOption } from "./paginate.ts";
export {
  type CollectionKind,
  DEFAULT_PAGING_LIMITS,
  type PagingLimit,
  PagingLimitError,
  type PagingLimitsOption,
} from "./paging_limits.ts";
export {
  type CallOptions,
  DEFAULT_PAGE_SIZE,
  type FilterOptions,
  MAX_PAGE_SIZE,
  type PageOptions,
} from "./client_options.ts";
export type {
  ConnectorConfiguration,
  ConnectorCredentials,
  ConnectorsApi,
  ConnectorType,
  ProviderAStoreDetails,
  ReportNameCheck,
} from "./client_connectors.ts";
export type { EstateApi } from "./client_estate.ts";
export type { LicensesApi } from "./client_licenses.ts";
export type { OrganizationsApi } from "./client_organizations.ts";
export type { RegistryApi } from "./client_registry.ts";

/** The client: one typed function per operation, by area, and what it was built with. */
export interface SamClient {
  /** The base URL the client talks to (for report covers). */
  readonly source: string;
  /** The registry prefix in use and how it was chosen (detected on the first registry read). */
  readonly registryPrefix: RegistryPrefix;
  /** Traffic counters, updated as the client runs. */
  readonly stats: ClientStats;
  /** The one request function, for calls the typed functions do not cover. */
  readonly request: RequestFn;
  /** The estate area: computers and what is recorded about them. */
  readonly estate: EstateApi;
  /** The license area. */
  readonly licenses: LicensesApi;
  /** The software registry. */
  readonly registry: RegistryApi;
  /** Cloud cost-report connectors. */
  readonly connectors: ConnectorsApi;
  /** The organisation tree. */
  readonly organizations: OrganizationsApi;
  /**
   * Any collection operation by id (for data-driven callers); path parameters by name.
   * Throws a `RangeError` for an unknown id or one that is not a collection.
   */
  collection<N extends ResourceName = ResourceName>(
    id: string,
    params?: Readonly<Record<string, string>>,
    options?: FilterOptions,
  ): Paged<Resource<N>>;
  /** Any single-object read operation by id; path parameters by name. */
  object<N extends ResourceName = ResourceName>(
    id: string,
    params?: Readonly<Record<string, string>>,
    options?: CallOptions,
  ): Promise<Resource<N>>;
}

/** Options of {@link createClient}. */
export interface ClientOptions extends BaseUrlOptions, RetryOptions, BodyLimitOptions {
  /**
   * How to authenticate: `{clientId, clientSecret}` (OAuth2 client credentials), `{token}`,
   * `{tokenProvider}` or an `Auth`. Default: `SAM_CLIENT_ID` and `SAM_CLIENT_SECRET`, else
   * `SAM_TOKEN`, else none. Secrets are never logged.
   */
  readonly auth?: AuthOptions;
  /** Shorthand for `auth: {clientId, clientSecret}`. */
  readonly clientId?: string;
  /** Shorthand for `auth: {clientId, clientSecret}`. */
  readonly clientSecret?: string;
  /** Shorthand for `auth: {token}`. */
  readonly token?: string;
  /** Shorthand for `auth: {tokenProvider}`. */
  readonly tokenProvider?: (signal?: AbortSignal) => Promise<string>;
  /** The token endpoint for `clientId`/`clientSecret`: a path or URL (default routes.md's). */
  readonly tokenUrl?: string;
  /** Renew client-credentials tokens this long before they expire (default 60 000 ms). */
  readonly refreshMarginMs?: number;
  /** The fetch function (default the global one). */
  readonly fetch?: typeof fetch;
  /** Time-out of each attempt in ms (default 30 000; 0 disables). */
  readonly timeoutMs?: number;
  /** Every wait (429, backoff) goes through this; inject one in tests. */
  readonly sleep?: Sleep;
  /** Timers for time-outs (default the global ones). */
  readonly clock?: TimerClock;
  /** Progress events: request, retry, rateLimit, page. */
  readonly onEvent?: (event: ClientEvent) => void;
  /** Extra headers sent with every call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default items per page (default 1000). */
  readonly pageSize?: number;
  /** Default parallel mode of collections (default off). */
  readonly parallel?: ParallelOption;
  /**
   * The most pages and items one read of a collection may take, per kind (`reference`:
   * policies, types, states, a computer's hardware…; `purchase`: the license list, costs,
   * upgrades, maintenance periods…; `estate`: everything else); a bound not given keeps its
   * default (reference 1,000 pages and 10,000 items, purchase 10,000 and 1 million, estate
   * 500,000 and 50 million). A read past one fails with `PagingLimitError` naming it.
   */
  readonly limits?: PagingLimitsOption;
}

/**
 * A client for the SAM API.
 *
 * @example Client credentials from options; progress from events
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../server/server.ts";
 * const srv = await startServer({ computers: 50, quiet: true });
 * const client = createClient({
 *   baseUrl: srv.url,
 *   clientId: "demo",
 *   clientSecret: "demo-secret",
 *   onEvent: (e) => e.type === "page" && console.log(`page ${e.pageNumber}: ${e.items} items`),
 * });
 * const computers = await client.estate.computers({ filter: "isVirtual -eq true" }).toArray();
 * const detail = await client.estate.computer(computers[0].id!);
 * console.log(detail.lastScanDate instanceof Date, client.stats.requests);
 * await srv.close();
 * ```
 */
export function createClient(options: ClientOptions = {}): SamClient {
  const baseUrl = resolveBaseUrl(options);
  const prefixes = areaPrefixes(options);
  const registry = new RegistryPrefix(registryPrefixes(options));
  const auth = createAuth(authOptionsOf(options), options.env ?? readEnv);
  const stats = createStats();
  const request = createRequest({ ...options, baseUrl, auth, stats });
  const core = createClientCore({
    request,
    prefixes,
    registry,
    defaultPageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    ...(options.parallel === undefined ? {} : { defaultParallel: options.parallel }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return {
    source: baseUrl,
    registryPrefix: registry,
    stats,
    request,
    estate: createEstateApi(core),
    licenses: createLicensesApi(core),
    registry: createRegistryApi(core),
    connectors: createConnectorsApi(core),
    organizations: createOrganizationsApi(core),
    ...byOperationId(core),
  };
}

/** The auth options: `auth`, else the client-credential, token or provider shorthands. */
function authOptionsOf(options: ClientOptions): AuthOptions | undefined {
  if (options.auth) return options.auth;
  if (options.clientId !== undefined || options.clientSecret !== undefined) {
    return {
      clientId: options.clientId ?? "",
      clientSecret: options.clientSecret ?? "",
      ...(options.tokenUrl ? { tokenUrl: options.tokenUrl } : {}),
      ...(options.refreshMarginMs === undefined
        ? {}
        : { refreshMarginMs: options.refreshMarginMs }),
    };
  }
  if (options.token !== undefined) return { token: options.token };
  return options.tokenProvider ? { tokenProvider: options.tokenProvider } : undefined;
}

/** The client's `collection` and `object`: any operation by id, path parameters by name. */
function byOperationId(core: ClientCore): Pick<SamClient, "collection" | "object"> {
  const byId = (id: string) => {
    const op = OPERATIONS.find((o) => o.id === id);
    if (!op) throw new RangeError(`Unknown operation "${id}"`);
    return op;
  };
  return {
    collection: <N extends ResourceName>(
      id: string,
      params: Readonly<Record<string, string>> = {},
      options?: FilterOptions,
    ) => collection<N>(core, byId(id), params, options),
    object: <N extends ResourceName>(
      id: string,
      params: Readonly<Record<string, string>> = {},
      options?: CallOptions,
    ) => {
      const op = byId(id);
      if (op.method !== "GET") {
        return Promise.reject(new RangeError(`${id} is a write; call client.${id}(…)`));
      }
      return object<N>(core, op, params, options);
    },
  };
}

/** The client's areas (estate, licenses, registry, connectors, organizations). */
export type ClientArea = "estate" | "licenses" | "registry" | "connectors" | "organizations";

/**
 * The slice of the SAM client a report reads, named per area: what a definition needs, and all
 * a test double must provide.
 *
 * @example
 * ```ts
 * import type { ClientSlice } from "./client.ts";
 * type StaleClient = ClientSlice<{ estate: "computers" | "computer"; organizations: "tree" }>;
 * const uses: (keyof StaleClient)[] = ["estate", "organizations"];
 * console.log(uses.length); // 2
 * ```
 */
export type ClientSlice<S extends { readonly [A in ClientArea]?: keyof SamClient[A] }> = {
  readonly [A in keyof S & ClientArea]: Pick<SamClient[A], S[A] & keyof SamClient[A]>;
};
