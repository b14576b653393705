/**
 * The connector area of the client (`/api/cloud-cost/v1`, prefix configurable): cloud cost-report
 * connectors and their retrievals, and the writes that add one, renew its credentials, check a
 * report name and test a configuration. The secrets a write carries are remembered so no message
 * ever shows them; `add` and `updateCredentials` are never retried on 5xx or network failures,
 * `validateReportName` and `test` (no side effects) are retried like reads.
 *
 * @module
 */

import { bindOperations } from "./client_bind.ts";
import type { ClientCore } from "./client_core.ts";
import { object } from "./client_object.ts";
import type { CallOptions, PageOptions } from "./client_options.ts";
import type { Paged } from "./paginate.ts";
import type { CloudConnector, RetrievalInfo, TestResult, UniqueResult } from "./types.ts";

/** The connector types of the request enum (spec 2.5). */
export type ConnectorType = "ProviderAStore" | "ProviderBBlob";

/** Connection details of an object-store connector (spec 2.5). Secrets are never logged. */
export interface ProviderAStoreDetails {
  /** The bucket the cost reports are written to. */
  readonly bucketName: string;
  /** The key prefix of the reports in the bucket. */
  readonly reportPrefix: string;
  /** The report's name. */
  readonly reportName: string;
  /** The bucket's region. */
  readonly region: string;
  /** The access key id (a secret: never logged). */
  readonly accessKey: string;
  /** The secret key (never logged). */
  readonly secretKey: string;
}

/** A connector configuration, for `add` and `test`. */
export interface ConnectorConfiguration {
  /** The connector type. */
  readonly type: ConnectorType;
  /** The details for the type (for ProviderBBlob the spec does not show them). */
  readonly connectionDetails: ProviderAStoreDetails | Readonly<Record<string, string>>;
}

/** New credentials of a connector (`accessKey`, `secretKey` for ProviderAStore). */
export type ConnectorCredentials =
  | { readonly accessKey: string; readonly secretKey: string }
  | Readonly<Record<string, string>>;

/** A report name to check for uniqueness among connectors of a type. */
export interface ReportNameCheck {
  /** The connector type. */
  readonly type: ConnectorType;
  /** The report name to check. */
  readonly name: string;
}

/**
 * Cloud cost-report connectors (`/api/cloud-cost/v1`, prefix configurable).
 *
 * @example
 * ```ts
 * import { createClient } from "./client.ts";
 * import { startServer } from "../../server.ts";
 * const server = await startServer({ port: 0, computers: 60, quiet: true });
 * const client = createClient({
 *   baseUrl: server.url,
 *   auth: { clientId: "demo", clientSecret: "demo-secret" },
 * });
 * const { unique } = await client.connectors.validateReportName({ type: "ProviderAStore", name: "cur" });
 * if (unique) {
 *   await client.connectors.add({
 *     type: "ProviderAStore",
 *     connectionDetails: {
 *       bucketName: "b", reportPrefix: "p", reportName: "cur", region: "eu-1",
 *       accessKey: "<ACCESS_KEY>", secretKey: "<SECRET_KEY>",
 *     },
 *   });
 * }
 * await server.close();
 * ```
 */
export interface ConnectorsApi {
  /** Get cloud connectors: `GET /connectors`. */
  list(options?: PageOptions): Paged<CloudConnector>;
  /** Add cloud connector configuration: `POST /connectors` (201). */
  add(configuration: ConnectorConfiguration, options?: CallOptions): Promise<CloudConnector>;
  /** Get retrieval information: `GET /connectors/{id}/retrievals`. */
  retrievals(id: string, options?: PageOptions): Paged<RetrievalInfo>;
  /** Update credentials: `PATCH /connectors/{id}`. */
  updateCredentials(
    id: string,
    credentials: ConnectorCredentials,
    options?: CallOptions,
  ): Promise<CloudConnector>;
  /** Validate report name: `POST /connectors/validate-report-name`. */
  validateReportName(check: ReportNameCheck, options?: CallOptions): Promise<UniqueResult>;
  /** Test cloud connector configuration: `POST /connectors/test`. */
  test(configuration: ConnectorConfiguration, options?: CallOptions): Promise<TestResult>;
}

/**
 * The connector area's functions over the client's core: the reads generic, the writes checking
 * their argument (a `TypeError` before any request) and remembering its secrets.
 *
 * @example
 * ```ts
 * import { createConnectorsApi } from "./client_connectors.ts";
 * import { createClientCore } from "./client_core.ts";
 * import { areaPrefixes, RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { createRequest } from "./request.ts";
 * const connectors = createConnectorsApi(createClientCore({
 *   request: createRequest({ baseUrl: "http://127.0.0.1:8080" }),
 *   prefixes: areaPrefixes({ env: () => undefined }),
 *   registry: new RegistryPrefix(registryPrefixes({ env: () => undefined })),
 *   defaultPageSize: 1000,
 * }));
 * await connectors.add({ type: "Nope" as "ProviderAStore", connectionDetails: {} })
 *   .catch((e) => console.log(e.message)); // connector type must be "ProviderAStore" or "ProviderBBlob"
 * ```
 */
export function createConnectorsApi(core: ClientCore): ConnectorsApi {
  const remember = (values: object | undefined) => {
    for (const [k, v] of Object.entries(values ?? {})) {
      if (/key|secret|password|token/i.test(k)) core.request.redactor.add(v);
    }
  };
  const configurationBody = (c: ConnectorConfiguration) => {
    checkType(c);
    if (!c.connectionDetails || typeof c.connectionDetails !== "object") {
      throw new TypeError("connectionDetails is required");
    }
    remember(c.connectionDetails);
    return { type: c.type, connectionDetails: c.connectionDetails };
  };
  return bindOperations(core, "connectors", {
    "connectors.add": (op) => async (c: ConnectorConfiguration, o?: CallOptions) =>
      await object(core, op, {}, o, { value: configurationBody(c), idempotent: false }),
    "connectors.test": (op) => async (c: ConnectorConfiguration, o?: CallOptions) =>
      await object(core, op, {}, o, { value: configurationBody(c), idempotent: true }),
    "connectors.validateReportName": (op) => async (c: ReportNameCheck, o?: CallOptions) => {
      if (!c || typeof c.name !== "string" || c.name === "") {
        throw new TypeError("validateReportName: name is required");
      }
      checkType(c);
      return await object(core, op, {}, o, {
        value: { type: c.type, name: c.name },
        idempotent: true,
      });
    },
    "connectors.updateCredentials":
      (op) => async (id: string, credentials: ConnectorCredentials, o?: CallOptions) => {
        if (!credentials || typeof credentials !== "object") {
          throw new TypeError("updateCredentials: credentials are required");
        }
        remember(credentials);
        return await object(core, op, { id }, o, {
          value: { credentials },
          contentType: "application/merge-patch+json",
          idempotent: false,
        });
      },
  }) as unknown as ConnectorsApi;
}

/** Throws a `TypeError` unless the type is one of the request enum's. */
function checkType(c: { readonly type: ConnectorType } | undefined): void {
  if (!c || (c.type !== "ProviderAStore" && c.type !== "ProviderBBlob")) {
    throw new TypeError('connector type must be "ProviderAStore" or "ProviderBBlob"');
  }
}
