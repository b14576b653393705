/**
 * What a 404 from the cloud-connector API means. No public document describes that API, so its
 * path prefix is samkit's guess (`/api/cloud-cost/v1`) unless `SAM_CONNECTORS_PREFIX` sets it: a
 * 404 where no connector id was named (the list, a test, a report-name check) says the API is not
 * there, and {@link explainConnectorNotFound} turns it into a {@link ConnectorPathError} that
 * names the path tried and the variable that sets it.
 *
 * @module
 */

import { areaPrefixes, type BaseUrlOptions, readEnv } from "./base_url.ts";
import { ConnectorPathError, NotFoundError } from "./errors.ts";

/** Options of {@link explainConnectorNotFound}. */
export interface ConnectorNotFoundOptions {
  /** The connector prefix the client was given as an option, if any (it wins over the env). */
  readonly connectorsPrefix?: string;
  /** Reads an environment variable (default {@link readEnv}). */
  readonly env?: BaseUrlOptions["env"];
}

/**
 * The error to throw for a failed connector call that named no connector: a 404 becomes a
 * {@link ConnectorPathError} (the prefix in force and where it came from); anything else, or an
 * error already explained, is returned as it is.
 *
 * @example
 * ```ts
 * import { explainConnectorNotFound } from "./connector_path.ts";
 * import { NotFoundError } from "./errors.ts";
 * const e = explainConnectorNotFound(
 *   new NotFoundError({
 *     status: 404, method: "GET", path: "/api/cloud-cost/v1/connectors", message: "Not Found",
 *   }),
 *   { env: () => undefined },
 * );
 * console.log((e as Error).name, (e as Error).message.includes("samkit's guess"));
 * // "ConnectorPathError" true
 * ```
 */
export function explainConnectorNotFound(
  error: unknown,
  options: ConnectorNotFoundOptions = {},
): unknown {
  if (!(error instanceof NotFoundError) || error instanceof ConnectorPathError) return error;
  const env = options.env ?? readEnv;
  const origin = options.connectorsPrefix !== undefined
    ? "option"
    : env("SAM_CONNECTORS_PREFIX") !== undefined
    ? "environment"
    : "guess";
  const { connectors: prefix } = areaPrefixes({ ...options, env });
  return new ConnectorPathError({
    status: error.status,
    method: error.method,
    path: error.path,
    message: error.detail,
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    cause: error,
    prefix,
    origin,
  });
}
