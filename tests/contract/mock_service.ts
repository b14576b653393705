/**
 * A mock SAM service on loopback that answers like the REAL service (its OpenAPI documents and
 * `../shared/spec/public-api.md`) or like the SPEC, from the fixtures of `fixtures/`:
 *
 * - OAuth2 client credentials at `POST /idp/api/connect/token` (form), Bearer on every read;
 * - real dialect: registry under `/api/sam/software-registry/v1` (`softwareregistry` is a 404),
 *   typed JSON (numbers, booleans, RFC 3339 dates), the real field names (`isVMwareDRS`,
 *   `isMSDN`, `windowsServer`…), the 42-field license list, computer transfers and entitlement
 *   states as paged envelopes, `filter` taken on `/dcc`;
 * - spec dialect: registry under `softwareregistry`, license `quantity`/`purchaseValue` and the
 *   detail's `is*` flags as strings, license dates as `M/d/yyyy h:mm:ss AM`, the neutral names,
 *   the spec's thinner license list and registry (with `version`, `edition`, `family`), one
 *   transfer object, entitlement states as flat objects;
 * - both: paging per spec 4.1 (`page_size` default 100, at most 1000; `total_items` on estate and
 *   license envelopes), `filter` evaluated with samkit's own evaluator (400 for a bad one), every
 *   request recorded (method, path, query) for the tests.
 *
 * @module
 */

import { parseFilter } from "../../lib/api/filter_parser.ts";
import { filterPredicate } from "../../lib/api/filter_evaluate.ts";
import { parseRfc3339 } from "../../lib/api/normalise.ts";
import { type FlagEnumName, flagNames } from "../../lib/api/flag_enums.ts";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import type { Row } from "./fixtures/tenant.ts";
import { type MockRoute, type RouteKind, ROUTES, SCOPING_FIELDS } from "./mock_routes.ts";

/** Which service the mock imitates. */
export type Dialect = "real" | "spec";

/** The form flag enums are sent in. */
export type FlagForm = "number" | "names" | "text";

/** Every flag-enum field of the catalogue with its enum. */
const FLAG_FIELDS: ReadonlyMap<string, FlagEnumName> = new Map(
  Object.values(RESOURCES).flatMap((r) =>
    r.fields.flatMap((f) => (f.flags ? [[f.name, f.flags] as const] : []))
  ),
);

/** A row's bitmask flag values in the form asked for. */
function flagsIn(row: Row, form: FlagForm): Row {
  if (form === "number") return row;
  const out: Row = { ...row };
  for (const [k, v] of Object.entries(row)) {
    const e = FLAG_FIELDS.get(k);
    if (!e || typeof v !== "number") continue;
    const names = flagNames(e, v)!;
    out[k] = form === "names" ? names : names.join(", ");
  }
  return out;
}

/** One request the mock received. */
export interface RecordedRequest {
  /** The HTTP method. */
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  /** Query parameters (decoded). */
  readonly query: Readonly<Record<string, string>>;
}

/** Options of {@link startMockService}. */
export interface MockServiceOptions {
  /** The dialect (default `real`). */
  readonly dialect?: Dialect;
  /**
   * How flag enums are sent (default `number`, the fixtures' bitmasks): `names` as an array of
   * the vendor's names (its documents' examples), `text` as comma-separated names.
   */
  readonly flagForm?: FlagForm;
  /** OAuth2 client id (default `contract`). */
  readonly clientId?: string;
  /** OAuth2 client secret (default `contract-secret`). */
  readonly clientSecret?: string;
}

/** A running mock service. */
export interface MockService {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  /** The dialect served. */
  readonly dialect: Dialect;
  /** The client id it accepts. */
  readonly clientId: string;
  /** The client secret it accepts. */
  readonly clientSecret: string;
  /** Every request so far, in order (token requests included). */
  readonly requests: RecordedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** The spec's neutral names for the real service's names (public-api.md). */
export const NEUTRAL_NAMES: Readonly<Record<string, string>> = {
  isVMwareDRS: "isVendorDRS",
  isMSDN: "isVendorDN",
  windowsServer: "serverOs",
  windowsServerFlag: "serverOsFlag",
  sqlServer: "databaseServer",
  isIncludedInWindowsServerRequirement: "isIncludedInServerOsRequirement",
};

const REGISTRY_REAL = "/api/sam/software-registry/v1";
const REGISTRY_SPEC = "/api/sam/softwareregistry/v1";
const TOKEN = "contract-token-0123456789";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
const error = (status: number, message: string) =>
  json(status, { error: { code: status, message } });

/** `2021-03-07T13:05:09Z` as the spec's license form `3/7/2021 1:05:09 PM`. */
export function licenseDate(iso: string): string {
  const d = new Date(iso);
  const h = d.getUTCHours();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ` +
    `${h % 12 === 0 ? 12 : h % 12}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ` +
    (h < 12 ? "AM" : "PM");
}

const SPEC_LICENSE = ["_links", "id", "organizationId", "applicationId", "contractId", "metricId"];
const SPEC_DETAIL = `_links id organizationId applicationId metricId purchaseDate purchaseValue
  purchaseCurrency quantity licenseKeys mediaStorage licenseProofLocation invoiceReference vendor
  notes externalId productDescription isSubscription isCrossPlatform isUpgrade isDowngrade
  contractId incompleteReasons`.split(/\s+/);
const SPEC_REGISTRY = ["_links", "id", "name", "manufacturer", "isEndOfLife", "endOfLifeDate"];

const pick = (row: Row, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => k in row).map((k) => [k, row[k]]));
const str = (v: unknown) => (v === null || v === undefined ? v : String(v));
const licDate = (v: unknown) => (typeof v === "string" ? licenseDate(v) : v);

/** The spec's version, edition and family of a registry name (`SQL Server 2016 Standard`). */
function nameParts(name: string): { family: string; version: string; edition: string } {
  const m = /^(.*?)\s+(\d{4}|DC)\b\s*(.*)$/.exec(name);
  return m
    ? { family: m[1]!, version: m[2]!, edition: m[3]! }
    : { family: name, version: "", edition: "" };
}

/** One row in the spec's dialect. */
function toSpec(row: Row, form: MockRoute["specForm"]): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[NEUTRAL_NAMES[k] ?? k] = v;
  switch (form) {
    case "License":
      return {
        ...pick(out, SPEC_LICENSE),
        purchaseDate: licDate(out.purchaseDate),
        purchaseValue: str(out.purchaseValue),
        purchaseCurrency: out.purchaseCurrency,
        quantity: str(out.quantity),
      };
    case "LicenseDetail": {
      const d = pick(out, SPEC_DETAIL);
      for (const k of ["purchaseValue", "quantity"]) d[k] = str(d[k]);
      for (const k of ["isSubscription", "isCrossPlatform", "isUpgrade", "isDowngrade"]) {
        d[k] = d[k] === true ? "True" : d[k] === false ? "False" : d[k];
      }
      d.purchaseDate = licDate(d.purchaseDate);
      return d;
    }
    case "UserAssignment":
      return { ...out, quantity: str(out.quantity) };
    case "Registry":
      return {
        ...pick(out, SPEC_REGISTRY),
        ...nameParts(String(out.name)),
        releaseDate: out.releaseDate,
      };
    default:
      return out;
  }
}

/** A row as sent: scoping columns dropped, then the dialect's form. */
function present(route: MockRoute, row: Row, dialect: Dialect, flags: FlagForm): Row {
  const sent: Row = {};
  for (const [k, v] of Object.entries(row)) if (!SCOPING_FIELDS.has(k)) sent[k] = v;
  return dialect === "spec" ? toSpec(sent, route.specForm) : flagsIn(sent, flags);
}

interface Compiled {
  readonly route: MockRoute;
  readonly regex: RegExp;
  readonly names: string[];
  readonly literal: number;
}

function compile(route: MockRoute, dialect: Dialect): Compiled {
  const template = dialect === "spec"
    ? route.template.replace(REGISTRY_REAL, REGISTRY_SPEC)
    : route.template;
  const names: string[] = [];
  const source = template.replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return "([^/]+)";
  });
  return {
    route,
    regex: new RegExp(`^${source}$`),
    names,
    literal: template.replace(/\{\w+\}/g, "").length,
  };
}

function match(table: Compiled[], path: string) {
  let best: { c: Compiled; params: Record<string, string> } | undefined;
  for (const c of table) {
    const m = c.regex.exec(path);
    if (!m) continue;
    if (best && best.c.literal >= c.literal) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
    best = { c, params };
  }
  return best;
}

/** Field values read for filtering: RFC 3339 text becomes a Date, so date comparisons work. */
function filterView(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) ? parseRfc3339(v) ?? v : v;
  }
  return out;
}

function applyFilter(rows: Row[], filter: string | undefined): Row[] | Response {
  if (filter === undefined || filter.trim() === "") return rows;
  try {
    const test = filterPredicate(parseFilter(filter));
    return rows.filter((r) => test(filterView(r)));
  } catch (e) {
    return error(400, `filter: ${(e as Error).message}`);
  }
}

function pageOf(query: URLSearchParams): { size: number; number: number } | Response {
  const size = Number(query.get("page_size") ?? "100");
  const number = Number(query.get("page_number") ?? "1");
  if (!Number.isInteger(size) || size < 1 || size > 1000) {
    return error(400, `page_size must be 1 to 1000; got ${query.get("page_size")}.`);
  }
  if (!Number.isInteger(number) || number < 1) {
    return error(400, `page_number must be at least 1; got ${query.get("page_number")}.`);
  }
  return { size, number };
}

function envelope(
  path: string,
  rows: Row[],
  page: { size: number; number: number },
  totalItems: boolean,
): Response {
  const start = (page.number - 1) * page.size;
  const totalPages = Math.max(1, Math.ceil(rows.length / page.size));
  const self = `${path.slice(1)}?page_size=${page.size}&page_number=${page.number}`;
  return json(200, {
    items: rows.slice(start, start + page.size),
    pagination: {
      page_size: page.size,
      page_number: page.number,
      total_pages: totalPages,
      ...(totalItems ? { total_items: rows.length } : {}),
    },
    _links: [{ href: self, rel: "self", method: "GET" }],
  });
}

function flat(path: string, rows: Row[], page: { size: number; number: number }): Response {
  const row = rows[page.number - 1];
  if (!row) return error(404, `No item ${page.number} at ${path}.`);
  const links = [...((row._links as Row[] | undefined) ?? [])];
  if (page.number < rows.length) {
    links.push({ href: `${path}?page_number=${page.number + 1}`, rel: "next", method: "GET" });
  }
  return json(200, { ...row, _links: links });
}

function answer(
  kind: RouteKind,
  route: MockRoute,
  path: string,
  rows: Row[],
  query: URLSearchParams,
): Response {
  if (kind === "tree") return json(200, { nodes: rows });
  if (kind === "object") {
    return rows[0] ? json(200, rows[0]) : error(404, `Nothing at ${path}.`);
  }
  const page = pageOf(query);
  if (page instanceof Response) return page;
  return kind === "flat" ? flat(path, rows, page) : envelope(path, rows, page, route.totalItems);
}

async function token(req: Request, options: Required<MockServiceOptions>): Promise<Response> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return json(400, { error: "invalid_request", error_description: "form body expected" });
  }
  const form = new URLSearchParams(await req.text());
  if (form.get("grant_type") !== "client_credentials") {
    return json(400, { error: "unsupported_grant_type" });
  }
  if (
    form.get("client_id") !== options.clientId || form.get("client_secret") !== options.clientSecret
  ) {
    return json(400, { error: "invalid_client" });
  }
  return json(200, { access_token: TOKEN, token_type: "Bearer", expires_in: 3600 });
}

function read(table: Compiled[], dialect: Dialect, url: URL, flags: FlagForm): Response {
  const hit = match(table, url.pathname);
  if (!hit) return error(404, `No route ${url.pathname}.`);
  const { route } = hit.c;
  const kind = dialect === "spec" ? route.specKind ?? route.kind : route.kind;
  const raw = route.rows(hit.params);
  const filtered = kind === "collection"
    ? applyFilter(raw, url.searchParams.get("filter") ?? undefined)
    : raw;
  if (filtered instanceof Response) return filtered;
  const rows = filtered.map((r) => present(route, r, dialect, flags));
  return answer(kind, route, url.pathname, rows, url.searchParams);
}

/**
 * Starts the mock on `127.0.0.1`, on a free port.
 *
 * @example
 * ```ts ignore
 * import { startMockService } from "./mock_service.ts";
 * const mock = await startMockService({ dialect: "real" });
 * console.log(mock.url, mock.requests.length);
 * await mock.close();
 * ```
 */
export function startMockService(options: MockServiceOptions = {}): Promise<MockService> {
  const opts: Required<MockServiceOptions> = {
    flagForm: options.flagForm ?? "number",
    dialect: options.dialect ?? "real",
    clientId: options.clientId ?? "contract",
    clientSecret: options.clientSecret ?? "contract-secret",
  };
  const table = ROUTES.map((r) => compile(r, opts.dialect));
  const requests: RecordedRequest[] = [];
  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    requests.push({
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    });
    if (url.pathname === "/idp/api/connect/token") {
      return req.method === "POST" ? await token(req, opts) : error(405, "POST only.");
    }
    if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) {
      return error(401, "Missing or invalid bearer token.");
    }
    if (req.method !== "GET") return error(405, `${req.method} is not supported here.`);
    return read(table, opts.dialect, url, opts.flagForm);
  };
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: ({ port }) =>
        resolve({
          url: `http://127.0.0.1:${port}`,
          dialect: opts.dialect,
          clientId: opts.clientId,
          clientSecret: opts.clientSecret,
          requests,
          close: () => server.shutdown(),
        }),
    }, handler);
  });
}
