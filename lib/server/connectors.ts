/**
 * The cloud connector operations of the reference server that write or check (spec 4.3): add a
 * connector, update its credentials, validate a report name, test a configuration. Listing
 * connectors and their retrievals are plain reads served by the generic handler.
 *
 * Secrets (`accessKey`, `secretKey`) are stored in hidden columns: never returned, never put in
 * an error message.
 *
 * @module
 */

import type { OperationSpec } from "../api/operations.ts";
import type { EstateStore } from "./store.ts";
import { HttpError, jsonResponse, serializeRow } from "./serialize.ts";

/** The connector request type enum (spec 2.5). */
export type ConnectorType = "ProviderAStore" | "ProviderBBlob";

/** What each connector type needs in `connectionDetails`, and the provider name it shows. */
export interface ConnectorTypeSpec {
  /** The `type` a connector shows in responses: a provider name, not the enum value. */
  readonly provider: string;
  /** Fields of `connectionDetails` that must be non-empty strings. */
  readonly required: readonly string[];
  /** Fields of `connectionDetails` that may be given. */
  readonly optional: readonly string[];
}

/**
 * The two connector types. The spec gives the fields of ProviderAStore only; this server asks
 * ProviderBBlob for a container (`bucketName`), a report name and the two keys.
 *
 * @example
 * ```ts
 * import { CONNECTOR_TYPES } from "./connectors.ts";
 * console.log(CONNECTOR_TYPES.ProviderAStore.provider); // "Provider A Object Store"
 * ```
 */
export const CONNECTOR_TYPES: Readonly<Record<ConnectorType, ConnectorTypeSpec>> = {
  ProviderAStore: {
    provider: "Provider A Object Store",
    required: ["bucketName", "reportPrefix", "reportName", "region", "accessKey", "secretKey"],
    optional: ["name"],
  },
  ProviderBBlob: {
    provider: "Provider B Blob Storage",
    required: ["bucketName", "reportName", "accessKey", "secretKey"],
    optional: ["name", "reportPrefix", "region"],
  },
};

/** The result of testing a configuration (spec 2.5 TestResult `status`). */
export interface TestStatus {
  /** `ok`, `bucketIsEmpty`, `bucketNotFound` or `invalidCredentials`. */
  readonly code: string;
  /** A sentence for people. */
  readonly message: string;
}

/** Connection details after validation. */
export type ConnectionDetails = Readonly<Record<string, string>>;

/**
 * The configuration test, also run when a connector is created: deterministic on the details so
 * tests can steer it. A key starting with `invalid` is refused; a bucket starting with
 * `missing` does not exist; one starting with `empty` holds no report yet; anything else is ok.
 *
 * @example
 * ```ts
 * import { testConfiguration } from "./connectors.ts";
 * console.log(testConfiguration({ bucketName: "empty-bucket", accessKey: "a", secretKey: "b" }).code);
 * // "bucketIsEmpty"
 * ```
 */
export function testConfiguration(details: ConnectionDetails): TestStatus {
  const bad = (v: string | undefined) => (v ?? "").toLowerCase().startsWith("invalid");
  if (bad(details.accessKey) || bad(details.secretKey)) {
    return { code: "invalidCredentials", message: "The provider refused the credentials." };
  }
  const bucket = (details.bucketName ?? "").toLowerCase();
  if (bucket.startsWith("missing")) {
    return { code: "bucketNotFound", message: "The bucket does not exist." };
  }
  if (bucket.startsWith("empty")) {
    return { code: "bucketIsEmpty", message: "The bucket holds no cost report yet." };
  }
  return { code: "ok", message: "The configuration works." };
}

/** The connector error code a failed test leaves in `status.errorCode`. */
const CONNECTION_ERROR = "Account-Connection-Error";
const FAILING = new Set(["invalidCredentials", "bucketNotFound"]);

async function readJson(req: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await req.text());
  } catch {
    throw new HttpError(400, "The request body must be a JSON object.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

function readType(body: Record<string, unknown>): ConnectorType {
  const type = body.type;
  if (type === undefined || type === null) throw new HttpError(400, "type is required.");
  if (typeof type !== "string" || !Object.hasOwn(CONNECTOR_TYPES, type)) {
    throw new HttpError(
      400,
      `type must be one of ${Object.keys(CONNECTOR_TYPES).join(", ")}.`,
    );
  }
  return type as ConnectorType;
}

/** Check an add/test body; returns the type and the details (strings only). */
function readConfiguration(
  body: Record<string, unknown>,
): { type: ConnectorType; details: ConnectionDetails } {
  const type = readType(body);
  const raw = body.connectionDetails;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new HttpError(400, "connectionDetails is required and must be an object.");
  }
  const spec = CONNECTOR_TYPES[type];
  const given = raw as Record<string, unknown>;
  const missing = spec.required.filter((f) => typeof given[f] !== "string" || given[f] === "");
  if (missing.length) {
    throw new HttpError(
      400,
      `Missing or empty for ${type}: ${missing.map((f) => `connectionDetails.${f}`).join(", ")}.`,
    );
  }
  const wrong = spec.optional.filter((f) => given[f] !== undefined && typeof given[f] !== "string");
  if (wrong.length) {
    throw new HttpError(
      400,
      `Must be strings: ${wrong.map((f) => `connectionDetails.${f}`).join(", ")}.`,
    );
  }
  const details: Record<string, string> = {};
  for (const f of [...spec.required, ...spec.optional]) {
    if (typeof given[f] === "string") details[f] = given[f] as string;
  }
  return { type, details };
}

function reportNameTaken(store: EstateStore, type: ConnectorType, name: string): boolean {
  return store.first("CloudConnector", { requestType: type, reportName: name }) !== undefined;
}

/** What a connector write handler needs. */
export interface ConnectorRequest {
  /** The operation (one of the connector POST/PATCH operations). */
  readonly op: OperationSpec;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The HTTP request (its body is read). */
  readonly request: Request;
  /** The estate. */
  readonly store: EstateStore;
  /** The clock (default `Date.now`). */
  readonly now?: () => number;
}

/** Storage row of a connector by id, or a 404. */
function connectorRow(store: EstateStore, id: string) {
  const row = store.first("CloudConnector", { id });
  if (!row) throw new HttpError(404, `Connector "${id}" was not found.`);
  return row;
}

async function add(req: ConnectorRequest): Promise<Response> {
  const { type, details } = readConfiguration(await readJson(req.request));
  if (reportNameTaken(req.store, type, details.reportName)) {
    throw new HttpError(
      409,
      `A ${type} connector with report name "${details.reportName}" already exists.`,
    );
  }
  const now = new Date((req.now ?? Date.now)());
  const test = testConfiguration(details);
  const failed = FAILING.has(test.code);
  const id = crypto.randomUUID();
  const contextId = crypto.randomUUID();
  const row = {
    id,
    name: details.name ?? details.reportName,
    type: CONNECTOR_TYPES[type].provider,
    createdAt: now,
    status_contextId: contextId,
    status_updatedAt: now,
    status_type: failed ? "failed" : "inProgress",
    status_errorCode: failed ? CONNECTION_ERROR : null,
    requestType: type,
    bucketName: details.bucketName,
    reportPrefix: details.reportPrefix ?? null,
    reportName: details.reportName,
    region: details.region ?? null,
    accessKey: details.accessKey,
    secretKey: details.secretKey,
  };
  req.store.insert("connectors", row);
  const month = `${now.toISOString().slice(0, 7)}-01`;
  req.store.insert("retrievals", {
    connectorId: id,
    contextId,
    calendarMonth: month,
    updatedAt: now,
    lastInProgressTime: now,
    lastSuccessTime: null,
    type: failed ? "failed" : "inProgress",
    errorCode: failed ? CONNECTION_ERROR : null,
  });
  return jsonResponse(serializeRow("CloudConnector", connectorRow(req.store, id)), 201);
}

async function updateCredentials(req: ConnectorRequest): Promise<Response> {
  const type = req.request.headers.get("content-type") ?? "";
  if (!/^application\/merge-patch\+json\s*(;|$)/i.test(type.trim())) {
    throw new HttpError(415, "Credentials updates must be sent as application/merge-patch+json.");
  }
  const id = req.params.id;
  const existing = connectorRow(req.store, id);
  const body = await readJson(req.request);
  const creds = body.credentials;
  if (typeof creds !== "object" || creds === null || Array.isArray(creds)) {
    throw new HttpError(400, "credentials is required and must be an object.");
  }
  const given = creds as Record<string, unknown>;
  const set: Record<string, string> = {};
  for (const key of ["accessKey", "secretKey"]) {
    const v = given[key];
    if (v === undefined) continue;
    if (typeof v !== "string" || v === "") {
      throw new HttpError(400, `credentials.${key} must be a non-empty string.`);
    }
    set[key] = v;
  }
  if (Object.keys(set).length === 0) {
    throw new HttpError(400, "credentials must hold accessKey and/or secretKey.");
  }
  const test = testConfiguration({
    bucketName: String(existing.bucketName ?? ""),
    accessKey: set.accessKey ?? String(existing.accessKey ?? ""),
    secretKey: set.secretKey ?? String(existing.secretKey ?? ""),
  });
  const failed = FAILING.has(test.code);
  req.store.update("connectors", { id }, {
    ...set,
    status_updatedAt: new Date((req.now ?? Date.now)()),
    status_type: failed ? "failed" : "inProgress",
    status_errorCode: failed ? CONNECTION_ERROR : null,
  });
  return jsonResponse(serializeRow("CloudConnector", connectorRow(req.store, id)), 200);
}

async function validateReportName(req: ConnectorRequest): Promise<Response> {
  const body = await readJson(req.request);
  const type = readType(body);
  if (typeof body.name !== "string" || body.name === "") {
    throw new HttpError(400, "name is required and must be a non-empty string.");
  }
  return jsonResponse({ unique: !reportNameTaken(req.store, type, body.name) });
}

async function testConnector(req: ConnectorRequest): Promise<Response> {
  const { details } = readConfiguration(await readJson(req.request));
  return jsonResponse({ status: testConfiguration(details) });
}

const HANDLERS: Record<string, (req: ConnectorRequest) => Promise<Response>> = {
  "connectors.add": add,
  "connectors.updateCredentials": updateCredentials,
  "connectors.validateReportName": validateReportName,
  "connectors.test": testConnector,
};

/**
 * Whether an operation is one of the connector writes this module serves.
 *
 * @example
 * ```ts
 * import { isConnectorWrite } from "./connectors.ts";
 * import { operation } from "../api/operations.ts";
 * console.log(isConnectorWrite(operation("connectors.add"))); // true
 * ```
 */
export function isConnectorWrite(op: OperationSpec): boolean {
  return Object.hasOwn(HANDLERS, op.id);
}

/**
 * Serve a connector write: add (201), update credentials (200; 415 unless the body is
 * `application/merge-patch+json`), validate a report name, or test a configuration. Bad bodies
 * get 400 naming the fields, a taken report name 409, an unknown connector 404.
 *
 * @example
 * ```ts
 * import { handleConnectorWrite } from "./connectors.ts";
 * import { EstateStore } from "./store.ts";
 * import { operation } from "../api/operations.ts";
 * const res = await handleConnectorWrite({
 *   op: operation("connectors.validateReportName"),
 *   params: {},
 *   request: new Request("http://x/", {
 *     method: "POST",
 *     body: JSON.stringify({ type: "ProviderAStore", name: "cur" }),
 *   }),
 *   store: new EstateStore(),
 * });
 * console.log(await res.json()); // { unique: true }
 * ```
 */
export function handleConnectorWrite(req: ConnectorRequest): Promise<Response> {
  const handler = HANDLERS[req.op.id];
  if (!handler) throw new RangeError(`${req.op.id} is not a connector write`);
  return handler(req);
}
