/**
 * The errors the API client throws, one class per way a call can fail, so callers branch with
 * `instanceof` rather than on status numbers. No message carries a token or a secret: messages
 * are built from the error body and scrubbed (see `redact.ts`), and `path` never carries a query.
 * Every message is one line: text a service sent is shown JSON-quoted when it holds a line
 * break or a control character (see `one_line.ts`), so it cannot forge a log line.
 *
 * @module
 */

import { TOKEN_PATH, type TokenScope } from "./operations.ts";
import { escapeJsonText, oneLine, quoted } from "./one_line.ts";

/** What every {@link ApiError} knows about the failed call. */
export interface ApiErrorOptions {
  /** The HTTP status of the final response. */
  readonly status: number;
  /** The HTTP method. */
  readonly method: string;
  /** The request path, without the query string. */
  readonly path: string;
  /** The message: the error body's `error.message` when there was one. */
  readonly message: string;
  /** The error body's `error.code`, when present. */
  readonly code?: string | number;
  /** The `x-request-id` response header, when present. */
  readonly requestId?: string;
  /** What caused it (an earlier error). */
  readonly cause?: unknown;
}

/**
 * An HTTP error response from the API. Subclasses name the common statuses.
 *
 * @example
 * ```ts
 * import { ApiError, NotFoundError } from "./errors.ts";
 * const e = new NotFoundError({ status: 404, method: "GET", path: "/x", message: "No such computer" });
 * console.log(e instanceof ApiError, e.status, e.message);
 * // true 404 "GET /x → 404: No such computer"
 * ```
 */
export class ApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The HTTP method. */
  readonly method: string;
  /** The request path without its query string. */
  readonly path: string;
  /** The error body's `error.code`, when present. */
  readonly code?: string | number;
  /** The `x-request-id` response header, when present. */
  readonly requestId?: string;
  /** The API's own message, without the method/path prefix. */
  readonly detail: string;

  /**
   * Builds the error from the failed request's method, path, status and message.
   *
   * @param options What is known about the failed call.
   * @param text The whole message, for a subclass that words it itself (default
   * `METHOD path → status: message (request id …)`).
   */
  constructor(options: ApiErrorOptions, text?: string) {
    const id = options.requestId ? ` (request id ${oneLine(options.requestId)})` : "";
    super(
      text ??
        `${options.method} ${options.path} → ${options.status}: ${oneLine(options.message)}${id}`,
      {
        cause: options.cause,
      },
    );
    this.name = new.target.name;
    this.status = options.status;
    this.method = options.method;
    this.path = options.path;
    this.detail = options.message;
    if (options.code !== undefined) this.code = options.code;
    if (options.requestId !== undefined) this.requestId = options.requestId;
  }
}

/**
 * 401 twice in a row, or the token endpoint refused the client credentials.
 *
 * @example
 * ```ts
 * import { AuthError } from "./errors.ts";
 * const e = new AuthError({ status: 401, method: "GET", path: "/x", message: "Token rejected" });
 * console.log(e.name); // "AuthError"
 * ```
 */
export class AuthError extends ApiError {}

/** What a {@link PermissionError} knows beyond the call: the operation and the scope it needs. */
export interface PermissionErrorOptions extends ApiErrorOptions {
  /** The operation id (`licenses.list`), when the call was one of the client's operations. */
  readonly operation?: string;
  /** The scope a token needs for that operation on the public service. */
  readonly tokenScope?: TokenScope;
}

/**
 * 403: the caller lacks a permission, or the endpoint needs a feature not purchased. Never
 * retried (spec section 7: abort). Once the client knows the operation
 * ({@link PermissionError.forOperation}), the message names it, its method and path, and the
 * scope the token needs, and says who can grant it; the token itself is never in it.
 *
 * @example
 * ```ts
 * import { PermissionError } from "./errors.ts";
 * const e = new PermissionError({
 *   status: 403, method: "GET", path: "/api/sam/v1/licenses", message: "Forbidden.",
 *   operation: "licenses.list", tokenScope: { kind: "named", name: "sam.license.r" },
 * });
 * console.log(e.message.split(";")[0]);
 * // "permission denied (403) for licenses.list (GET /api/sam/v1/licenses): the token needs the scope sam.license.r"
 * console.log(e.scopeName); // "sam.license.r"
 * ```
 */
export class PermissionError extends ApiError {
  /** The operation id, when known. */
  readonly operation?: string;
  /** The scope the operation needs, when the operation is known. */
  readonly tokenScope?: TokenScope;

  /** Builds the error from the refused request and the scope it needs, when known. */
  constructor(options: PermissionErrorOptions) {
    super(options, permissionMessage(options));
    if (options.operation !== undefined) this.operation = options.operation;
    if (options.tokenScope !== undefined) this.tokenScope = options.tokenScope;
  }

  /** The name of the scope the operation needs, when known. */
  get scopeName(): string | undefined {
    return this.tokenScope?.kind === "named" ? this.tokenScope.name : undefined;
  }

  /**
   * The same 403, naming the operation it came from and the scope that operation needs. An
   * error that already names its operation, or that the token endpoint answered (while getting
   * a token for the operation), is returned as it is.
   *
   * @example
   * ```ts
   * import { PermissionError } from "./errors.ts";
   * const raw = new PermissionError({ status: 403, method: "GET", path: "/x", message: "" });
   * const e = raw.forOperation({
   *   id: "registry.applications", tokenScope: { kind: "named", name: "sam.application.r" },
   * });
   * console.log(e.operation, e.scopeName); // "registry.applications" "sam.application.r"
   * ```
   */
  forOperation(op: { readonly id: string; readonly tokenScope: TokenScope }): PermissionError {
    if (this.operation !== undefined || this.path.endsWith(TOKEN_PATH)) return this;
    return new PermissionError({
      status: this.status,
      method: this.method,
      path: this.path,
      message: this.detail,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
      ...(this.cause === undefined ? {} : { cause: this.cause }),
      operation: op.id,
      tokenScope: op.tokenScope,
    });
  }
}

const FEATURE_NOTE = "the endpoint needs a feature that is not purchased";

function permissionMessage(o: PermissionErrorOptions): string {
  const id = o.requestId ? ` (request id ${oneLine(o.requestId)})` : "";
  const said = o.message === "" ? "" : ` The service said ${quoteDetail(o.message)}${id}.`;
  if (o.operation === undefined || o.tokenScope === undefined) {
    return `${o.method} ${o.path} → ${o.status}: ${oneLine(o.message || "Forbidden")} ` +
      `(permission denied: the credentials lack the permission for this endpoint, or ` +
      `${FEATURE_NOTE}; not retried)${id}`;
  }
  const head = `permission denied (${o.status}) for ${o.operation} (${o.method} ${o.path})`;
  const need = o.tokenScope.kind === "named"
    ? `the token needs the scope ${o.tokenScope.name}; ask your tenant administrator to grant ` +
      "it to the API client."
    : `the token lacks a scope this operation needs, and ${o.tokenScope.why}; ask your tenant ` +
      "administrator which scope covers it and to grant it to the API client.";
  const otherwise = " If it is granted already, the tenant may lack a purchased feature this " +
    "endpoint needs.";
  return `${head}: ${need}${otherwise}${said}`;
}

/** The service's own words, quoted and cut to a line. */
function quoteDetail(detail: string): string {
  const line = detail.replace(/\s+/g, " ").trim();
  return quoted(line.length > 200 ? `${line.slice(0, 197)}...` : line);
}

/**
 * 404: a resource named by the request does not exist.
 *
 * @example
 * ```ts
 * import { NotFoundError } from "./errors.ts";
 * console.log(new NotFoundError({ status: 404, method: "GET", path: "/x", message: "" }).status);
 * // 404
 * ```
 */
export class NotFoundError extends ApiError {}

/** What a {@link ConnectorPathError} knows: the 404 and the connector prefix in force. */
export interface ConnectorPathErrorOptions extends ApiErrorOptions {
  /** The connector area's path prefix the call used (`/api/cloud-cost/v1`). */
  readonly prefix: string;
  /** Where that prefix came from: samkit's guess, or `SAM_CONNECTORS_PREFIX` (or an option). */
  readonly origin: "guess" | "environment" | "option";
}

/**
 * 404 from a cloud-connector path that names no connector (the list, a test, a report-name
 * check): the connector API is not where samkit looked. No public document describes it, so its
 * path is samkit's guess unless `SAM_CONNECTORS_PREFIX` sets it; the message names the path
 * tried and that variable. A {@link NotFoundError}, so callers that branch on 404 still do.
 *
 * @example
 * ```ts
 * import { ConnectorPathError, NotFoundError } from "./errors.ts";
 * const e = new ConnectorPathError({
 *   status: 404, method: "GET", path: "/api/cloud-cost/v1/connectors", message: "Not Found",
 *   prefix: "/api/cloud-cost/v1", origin: "guess",
 * });
 * console.log(e instanceof NotFoundError, e.message.startsWith("cloud connectors not found"));
 * // true true
 * ```
 */
export class ConnectorPathError extends NotFoundError {
  /** The connector prefix the call used. */
  readonly prefix: string;
  /** Where the prefix came from. */
  readonly origin: "guess" | "environment" | "option";

  /** Builds the error from the request and where the connector path's prefix came from. */
  constructor(options: ConnectorPathErrorOptions) {
    super(options, connectorPathMessage(options));
    this.prefix = options.prefix;
    this.origin = options.origin;
  }
}

function connectorPathMessage(o: ConnectorPathErrorOptions): string {
  const head = `cloud connectors not found: ${o.method} ${o.path} answered ${o.status}.`;
  const undocumented = "no public document describes the cloud-connector API";
  const set = "Set SAM_CONNECTORS_PREFIX to the connector API's path prefix on your tenant " +
    `(the part before /connectors)`;
  if (o.origin === "guess") {
    return `${head} That path is samkit's guess (${undocumented}): it tried the prefix ` +
      `${o.prefix}. ${set}.`;
  }
  const from = o.origin === "environment" ? "SAM_CONNECTORS_PREFIX" : "the connectorsPrefix option";
  return `${head} The prefix ${o.prefix} comes from ${from} (${undocumented}, so samkit's own ` +
    `path is a guess too). ${set}, or unset it to try samkit's guess.`;
}

/**
 * 400: the request is invalid or malformed (a filter the server refused, a bad body).
 *
 * @example
 * ```ts
 * import { BadRequestError } from "./errors.ts";
 * console.log(new BadRequestError({ status: 400, method: "GET", path: "/x", message: "" }).name);
 * // "BadRequestError"
 * ```
 */
export class BadRequestError extends ApiError {}

/**
 * 409: the operation conflicts with an existing item.
 *
 * @example
 * ```ts
 * import { ConflictError } from "./errors.ts";
 * console.log(new ConflictError({ status: 409, method: "POST", path: "/x", message: "" }).status);
 * // 409
 * ```
 */
export class ConflictError extends ApiError {}

/**
 * 5xx after the retries allowed (or at once for a write, which is never retried on 5xx).
 *
 * @example
 * ```ts
 * import { ServerError } from "./errors.ts";
 * console.log(new ServerError({ status: 503, method: "GET", path: "/x", message: "" }).status);
 * // 503
 * ```
 */
export class ServerError extends ApiError {}

/**
 * 429 after the allowed number of waits, or with a `Retry-After` longer than the client accepts.
 *
 * @example
 * ```ts
 * import { RateLimitError } from "./errors.ts";
 * const e = new RateLimitError({
 *   status: 429, method: "GET", path: "/x", message: "Slow down", waits: 8, retryAfterMs: 1000,
 * });
 * console.log(e.waits, e.retryAfterMs); // 8 1000
 * ```
 */
export class RateLimitError extends ApiError {
  /** How many times the client waited before giving up. */
  readonly waits: number;
  /** The last `Retry-After` asked for, in milliseconds, when there was one. */
  readonly retryAfterMs?: number;

  /** Builds the error from the last response and how many times the client waited. */
  constructor(options: ApiErrorOptions & { waits: number; retryAfterMs?: number }) {
    super(options);
    this.waits = options.waits;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The call never got a usable response: connection refused or reset, a time-out, or a body that
 * was cut short or is not JSON. Retried on reads; raised after the retries allowed.
 *
 * @example
 * ```ts
 * import { NetworkError } from "./errors.ts";
 * const e = new NetworkError({ method: "GET", path: "/x", message: "connection reset" });
 * console.log(e.message); // "GET /x: connection reset"
 * ```
 */
export class NetworkError extends Error {
  /** The HTTP method. */
  readonly method: string;
  /** The request path without its query string. */
  readonly path: string;
  /** Whether the per-request time-out fired. */
  readonly timedOut: boolean;

  /** Builds the error from the request that could not reach the service and why. */
  constructor(
    options: { method: string; path: string; message: string; timedOut?: boolean; cause?: unknown },
  ) {
    super(`${options.method} ${options.path}: ${oneLine(options.message)}`, {
      cause: options.cause,
    });
    this.name = "NetworkError";
    this.method = options.method;
    this.path = options.path;
    this.timedOut = options.timedOut ?? false;
  }
}

/**
 * A response value that the catalogue says has one type and cannot be read as it (a number field
 * holding `"12x"`, or a number that is not finite or not exact: `"1e309"`). Names the operation
 * and the item when known, the resource, the field and the raw value (or `<redacted>` for a
 * sensitive field).
 *
 * @example
 * ```ts
 * import { NormalisationError } from "./errors.ts";
 * const e = new NormalisationError({ resource: "License", field: "quantity", raw: "12x",
 *   expected: "number" });
 * console.log(e.message); // 'License.quantity: cannot read "12x" as a number'
 * const named = new NormalisationError({ resource: "License", field: "quantity", raw: "1e309",
 *   expected: "number", operation: "licenses.list", item: 'item "L1"' });
 * console.log(named.message);
 * // 'licenses.list: License.quantity of item "L1": cannot read "1e309" as a number'
 * ```
 */
export class NormalisationError extends Error {
  /** The resource of the catalogue. */
  readonly resource: string;
  /** The field (dotted for nested fields). */
  readonly field: string;
  /** The raw value as received, or `"<redacted>"` for a sensitive field. */
  readonly raw: unknown;
  /** The type the catalogue expects. */
  readonly expected: string;
  /** The operation whose answer held the value (`licenses.list`), when known. */
  readonly operation?: string;
  /** The item that held it (`item "L1" (item 3 of page 2)`), when known. */
  readonly item?: string;

  /** Builds the error from the operation, the field and the value that could not be read. */
  constructor(
    options: {
      resource: string;
      field: string;
      raw: unknown;
      expected: string;
      sensitive?: boolean;
      operation?: string;
      item?: string;
    },
  ) {
    const shown = options.sensitive ? "<redacted>" : show(options.raw);
    const where = `${
      options.operation ? `${options.operation}: ` : ""
    }${options.resource}.${options.field}${options.item ? ` of ${options.item}` : ""}`;
    // Ids and values are JSON-quoted; what JSON leaves raw (U+2028, NEL, bidi) is escaped too.
    super(oneLine(escapeJsonText(`${where}: cannot read ${shown} as a ${options.expected}`)));
    this.name = "NormalisationError";
    this.resource = options.resource;
    this.field = options.field;
    this.raw = options.sensitive ? "<redacted>" : options.raw;
    this.expected = options.expected;
    if (options.operation) this.operation = options.operation;
    if (options.item) this.item = options.item;
  }
}

function show(raw: unknown): string {
  let text: string;
  try {
    // A number JSON cannot write (Infinity, NaN) is shown as itself, not as `null`.
    text = typeof raw === "number" && !Number.isFinite(raw)
      ? String(raw)
      : JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Where a collection read happened, for {@link PagingIntegrityError}. */
export interface PagingSource {
  /** The operation id (`estate.computers`). */
  readonly operation?: string;
  /** The request path, without the query string. */
  readonly path?: string;
  /** The filter sent, if any (already scrubbed of secrets). */
  readonly filter?: string;
}

/** What {@link PagingIntegrityError} knows about the read that broke. */
export interface PagingIntegrityOptions extends PagingSource {
  /** What was inconsistent, in words (`total_items changed from 2500 to 2499`). */
  readonly problem: string;
  /** The page where it showed (from 1). */
  readonly pageNumber: number;
  /** Items read in the failed read. */
  readonly readItems: number;
  /** Items the pages announced (`total_items`), when they did. */
  readonly expectedItems?: number;
  /** Items seen twice in the failed read. */
  readonly duplicates: number;
  /** How many times the whole collection was read, the failed read included. */
  readonly reads: number;
}

/**
 * The pages of a collection contradict each other (a short page before the announced last one,
 * totals that change or disagree with the count read, an item on two pages, a page number that
 * is not the one asked for), so items may be missing or repeated. `toArray()` re-reads the
 * collection from page 1 a bounded number of times before throwing it; a streaming read throws
 * it at once, since its items were already handed out.
 *
 * @example
 * ```ts
 * import { PagingIntegrityError } from "./errors.ts";
 * const e = new PagingIntegrityError({
 *   operation: "estate.computers", path: "/api/sam/estate/v1/computers",
 *   problem: "total_items is 2500 but 1000 items were read", pageNumber: 2,
 *   readItems: 1000, expectedItems: 2500, duplicates: 0, reads: 3,
 * });
 * console.log(e.message);
 * // "estate.computers GET /api/sam/estate/v1/computers: paging inconsistent after 3 reads, at page 2: total_items is 2500 but 1000 items were read (read 1000 of 2500 items, 0 duplicates)"
 * ```
 */
export class PagingIntegrityError extends Error {
  /** The operation id, when known. */
  readonly operation?: string;
  /** The request path without its query string, when known. */
  readonly path?: string;
  /** The filter sent, when there was one. */
  readonly filter?: string;
  /** What was inconsistent. */
  readonly problem: string;
  /** The page where it showed. */
  readonly pageNumber: number;
  /** Items read in the failed read. */
  readonly readItems: number;
  /** Items announced by `total_items`, when given. */
  readonly expectedItems?: number;
  /** Items seen twice in the failed read. */
  readonly duplicates: number;
  /** Reads of the whole collection made, the failed one included. */
  readonly reads: number;

  /** Builds the error from the read whose pages did not add up. */
  constructor(options: PagingIntegrityOptions) {
    super(oneLine(escapeJsonText(pagingMessage(options))));
    this.name = "PagingIntegrityError";
    if (options.operation !== undefined) this.operation = options.operation;
    if (options.path !== undefined) this.path = options.path;
    if (options.filter !== undefined) this.filter = options.filter;
    this.problem = options.problem;
    this.pageNumber = options.pageNumber;
    this.readItems = options.readItems;
    if (options.expectedItems !== undefined) this.expectedItems = options.expectedItems;
    this.duplicates = options.duplicates;
    this.reads = options.reads;
  }
}

function pagingMessage(o: PagingIntegrityOptions): string {
  const where = [o.operation, o.path === undefined ? undefined : `GET ${o.path}`]
    .filter((s) => s !== undefined).join(" ") || "collection";
  const filter = o.filter === undefined ? "" : ` (filter ${JSON.stringify(o.filter)})`;
  const reads = o.reads === 1 ? "1 read" : `${o.reads} reads`;
  const of = o.expectedItems === undefined ? "" : ` of ${o.expectedItems}`;
  const dup = o.duplicates === 1 ? "1 duplicate" : `${o.duplicates} duplicates`;
  return `${where}${filter}: paging inconsistent after ${reads}, at page ${o.pageNumber}: ` +
    `${o.problem} (read ${o.readItems}${of} items, ${dup})`;
}

/**
 * A response that is not the shape its operation returns: not a JSON object, an object with
 * none of the resource's fields (`{"items":"oops"}` for a costs summary), an object for another
 * id than the one asked for, or a collection envelope whose `items` is not an array or whose
 * pagination numbers are not numbers. Names the operation, the path and what was received
 * (sensitive values redacted).
 *
 * @example
 * ```ts
 * import { ShapeError } from "./errors.ts";
 * const e = new ShapeError({
 *   operation: "licenses.costsSummary", path: "/api/sam/v1/licenses/L1/costs-summary",
 *   resource: "LicenseCostSummary", problem: "none of the fields of LicenseCostSummary",
 *   received: '{"items":"oops"}',
 * });
 * console.log(e.message);
 * // 'licenses.costsSummary /api/sam/v1/licenses/L1/costs-summary: none of the fields of LicenseCostSummary; received {"items":"oops"}'
 * ```
 */
export class ShapeError extends Error {
  /** The operation id. */
  readonly operation: string;
  /** The request path without its query string. */
  readonly path: string;
  /** The resource the operation returns. */
  readonly resource: string;
  /** What is wrong with the shape. */
  readonly problem: string;
  /** A short description of what was received, sensitive values redacted. */
  readonly received: string;

  /** Builds the error from the operation and what was received instead of the expected shape. */
  constructor(
    options: {
      operation: string;
      path: string;
      resource: string;
      problem: string;
      received: string;
    },
  ) {
    super(
      `${options.operation} ${options.path}: ${oneLine(options.problem)}; received ${
        oneLine(escapeJsonText(options.received))
      }`,
    );
    this.name = "ShapeError";
    this.operation = options.operation;
    this.path = options.path;
    this.resource = options.resource;
    this.problem = options.problem;
    this.received = options.received;
  }
}

/** Why the request layer refused an answer: see {@link RefusedResponseError}. */
export type Refusal = "origin" | "redirect" | "size" | "depth" | "encoding";

/** What a {@link RefusedResponseError} knows. */
export interface RefusedResponseOptions {
  /** Why the answer was refused. */
  readonly refusal: Refusal;
  /** The HTTP method of the call. */
  readonly method: string;
  /** The path of the call (or of the refused link), without its query string. */
  readonly path: string;
  /** What was refused, in words. */
  readonly problem: string;
  /** A short description of what was received. */
  readonly received: string;
  /** The operation id, once known. */
  readonly operation?: string;
  /** The resource the operation returns, once known. */
  readonly resource?: string;
}

/**
 * An answer the request layer refused before handing it to any operation — a link or redirect
 * to another origin than the base URL's (`origin`, `redirect`; nothing is sent there), a body
 * over the client's `maxResponseBytes` (`size`; not read further), JSON nested too deep to
 * read safely (`depth`) or a body in a charset it declares that is not UTF-8 (`encoding`: the
 * service will send it so again). Never retried. A {@link ShapeError} (its `name` too), so callers and
 * the CLI treat it as an answer that is not the resource asked for; the client names the
 * operation ({@link RefusedResponseError.forOperation}) before it reaches the caller.
 *
 * @example
 * ```ts
 * import { RefusedResponseError, ShapeError } from "./errors.ts";
 * const raw = new RefusedResponseError({
 *   refusal: "size", method: "GET", path: "/api/sam/v1/licenses",
 *   problem: "the body is larger than maxResponseBytes (1,024 bytes)", received: "more than 1,024 bytes",
 * });
 * console.log(raw.message);
 * // "GET /api/sam/v1/licenses: the body is larger than maxResponseBytes (1,024 bytes); received more than 1,024 bytes"
 * const named = raw.forOperation({ id: "licenses.list", resource: "License" });
 * console.log(named instanceof ShapeError, named.message.startsWith("licenses.list /api/sam/v1/licenses: "));
 * // true true
 * ```
 */
export class RefusedResponseError extends ShapeError {
  /** Why the answer was refused. */
  readonly refusal: Refusal;
  /** The HTTP method of the call. */
  readonly method: string;
  /** Whether `operation` is the operation's id (else it is the method, until named). */
  readonly named: boolean;

  /** Builds the error from the response refused and why. */
  constructor(options: RefusedResponseOptions) {
    super({
      operation: options.operation ?? options.method,
      path: options.path,
      resource: options.resource ?? "",
      problem: options.problem,
      received: options.received,
    });
    this.refusal = options.refusal;
    this.method = options.method;
    this.named = options.operation !== undefined;
  }

  /**
   * The same refusal naming the operation it came from (returned as it is when named already).
   *
   * @example
   * ```ts
   * import { RefusedResponseError } from "./errors.ts";
   * const e = new RefusedResponseError({
   *   refusal: "depth", method: "GET", path: "/x", problem: "too deep", received: "JSON",
   * }).forOperation({ id: "estate.computers", resource: "Computer" });
   * console.log(e.operation, e.resource, e.refusal); // "estate.computers" "Computer" "depth"
   * ```
   */
  forOperation(op: { readonly id: string; readonly resource: string }): RefusedResponseError {
    if (this.named) return this;
    return new RefusedResponseError({
      refusal: this.refusal,
      method: this.method,
      path: this.path,
      problem: this.problem,
      received: this.received,
      operation: op.id,
      resource: op.resource,
    });
  }
}
