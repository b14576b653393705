/**
 * The tenants file: the organisations samkit runs packs for, each with its SAM API base URL and
 * the names of the environment variables or secret files that hold its credentials (never the
 * secrets themselves), and optionally its rate budget (the most API calls in flight).
 *
 * @module
 */

import { type TenantMail, tenantMailOf } from "./mail_settings.ts";
import { checkContained } from "../fs/containment.ts";
import { parseJsonText } from "../fs/json_text.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";

/** Where one credential is read from: an environment variable or a file (a mounted secret). */
export type SecretRef = { readonly env: string } | { readonly file: string };

/** A tenant's credentials: a bearer token, or client credentials. */
export type TenantCredentials =
  | { readonly token: SecretRef }
  | { readonly clientId: SecretRef; readonly clientSecret: SecretRef };

/** One tenant. */
export interface Tenant {
  /** Stable id: the folder name of its runs and its key in the queue and the history. */
  readonly id: string;
  /** The name shown in reports. */
  readonly name: string;
  /** The SAM API base URL. */
  readonly baseUrl: string;
  /** Where its credentials are read from. */
  readonly credentials: TenantCredentials;
  /** The most API calls in flight for this tenant (its rate budget); default 16. */
  readonly maxConcurrency: number;
  /** The registry's path prefix, when the tenant's service needs one. */
  readonly registryPrefix?: string;
  /** SMTP settings for its pack summaries, laid over the pack's `email` section. */
  readonly mail?: TenantMail;
  /** The key its runs' manifests are signed with, in place of the pack's `sign`. */
  readonly sign?: { readonly key: SecretRef };
}

/** The default rate budget of a tenant: at most this many API calls in flight. */
export const DEFAULT_TENANT_CONCURRENCY = 16;

/**
 * A tenants file that cannot be used: the message names the file and the field.
 *
 * @example
 * ```ts
 * import { TenantsFileError } from "./tenants_file.ts";
 * console.log(new TenantsFileError("tenants.json", "tenants[0].baseUrl", "expected a URL").message);
 * ```
 */
export class TenantsFileError extends Error {
  /** The JSON path of the bad field. */
  readonly field: string;
  /**
   * @param file The file's path.
   * @param field The JSON path of the bad field.
   * @param problem What is wrong.
   */
  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field ? `${field}: ` : ""}${problem}`);
    this.name = "TenantsFileError";
    this.field = field;
  }
}

type Json = Record<string, unknown>;
type Fail = (field: string, problem: string) => never;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_WORDS = /^(secret|password|pass|key|value|accessToken|bearer)$/i;

/**
 * Checks a secret reference — `{"env": "VARIABLE"}` or `{"file": "path"}`, never the secret
 * itself — and returns it; `fail` is called with the JSON path and what is wrong.
 *
 * @example
 * ```ts
 * import { secretRef } from "./tenants_file.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * console.log(secretRef({ file: "acme_token" }, "credentials.token", fail)); // { file: "acme_token" }
 * try {
 *   secretRef("s3cret", "sign.key", fail);
 * } catch (e) {
 *   console.log((e as Error).message); // sign.key: expected {"env": "VARIABLE"} or …
 * }
 * ```
 */
export function secretRef(
  v: unknown,
  at: string,
  fail: (field: string, problem: string) => never,
): SecretRef {
  if (typeof v === "string") {
    return fail(at, 'expected {"env": "VARIABLE"} or {"file": "path"}, never the secret itself');
  }
  if (!isObject(v)) return fail(at, 'expected {"env": "VARIABLE"} or {"file": "path"}');
  const keys = Object.keys(v);
  if (keys.length !== 1 || !["env", "file"].includes(keys[0])) {
    return fail(at, 'expected exactly one of "env" or "file"');
  }
  if (v.env !== undefined) {
    if (typeof v.env !== "string" || !ENV_NAME.test(v.env)) {
      return fail(`${at}.env`, "expected an environment variable name");
    }
    return { env: v.env };
  }
  if (typeof v.file !== "string" || !v.file) return fail(`${at}.file`, "expected a file path");
  return { file: v.file };
}

/** A tenant's `sign` section: `{"key": <secret reference>}`. */
function signOf(v: unknown, at: string, fail: Fail): { key: SecretRef } {
  if (!isObject(v) || Object.keys(v).some((k) => k !== "key") || v.key === undefined) {
    return fail(
      at,
      'expected {"key": {"file": "signing-key.pem"}} or {"key": {"env": "VARIABLE"}}',
    );
  }
  return { key: secretRef(v.key, `${at}.key`, fail) };
}

function credentialsOf(v: unknown, at: string, fail: Fail): TenantCredentials {
  if (!isObject(v)) return fail(at, 'expected {"token": …} or {"clientId": …, "clientSecret": …}');
  for (const key of Object.keys(v)) {
    if (!["token", "clientId", "clientSecret"].includes(key)) {
      fail(
        `${at}.${key}`,
        SECRET_WORDS.test(key) ? "secrets never go in the tenants file" : "unknown field",
      );
    }
  }
  if (v.token !== undefined) {
    if (v.clientId !== undefined || v.clientSecret !== undefined) {
      fail(at, "expected a token or client credentials, not both");
    }
    return { token: secretRef(v.token, `${at}.token`, fail) };
  }
  if (v.clientId === undefined) return fail(`${at}.clientId`, "expected a token or a clientId");
  if (v.clientSecret === undefined) return fail(`${at}.clientSecret`, "missing");
  return {
    clientId: secretRef(v.clientId, `${at}.clientId`, fail),
    clientSecret: secretRef(v.clientSecret, `${at}.clientSecret`, fail),
  };
}

function baseUrlOf(v: unknown, at: string, fail: Fail): string {
  if (typeof v !== "string") return fail(at, "expected the SAM API base URL");
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return fail(at, `not a URL: ${JSON.stringify(v)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(at, "expected http or https");
  if (url.username || url.password) fail(at, "credentials never go in the URL");
  return v.replace(/\/+$/, "");
}

function tenantOf(t: unknown, at: string, fail: Fail): Tenant {
  if (!isObject(t)) return fail(at, "expected an object");
  const known = [
    "id",
    "name",
    "baseUrl",
    "credentials",
    "maxConcurrency",
    "registryPrefix",
    "mail",
    "sign",
  ];
  for (const key of Object.keys(t)) {
    if (!known.includes(key)) {
      fail(
        `${at}.${key}`,
        SECRET_WORDS.test(key) || /token|secret|password/i.test(key)
          ? "secrets never go in the tenants file; name an env variable or file under credentials"
          : "unknown field",
      );
    }
  }
  if (typeof t.id !== "string" || !ID.test(t.id)) {
    fail(`${at}.id`, "expected an id of letters, digits, '.', '_' or '-' (at most 64)");
  }
  if (typeof t.name !== "string" || !t.name.trim()) fail(`${at}.name`, "expected a name");
  const max = t.maxConcurrency ?? DEFAULT_TENANT_CONCURRENCY;
  if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > 256) {
    fail(`${at}.maxConcurrency`, "expected a whole number 1-256");
  }
  if (
    t.registryPrefix !== undefined && (typeof t.registryPrefix !== "string" || !t.registryPrefix)
  ) {
    fail(`${at}.registryPrefix`, "expected a path");
  }
  return {
    id: t.id as string,
    name: (t.name as string).trim(),
    baseUrl: baseUrlOf(t.baseUrl, `${at}.baseUrl`, fail),
    credentials: credentialsOf(t.credentials, `${at}.credentials`, fail),
    maxConcurrency: max as number,
    ...(t.registryPrefix ? { registryPrefix: t.registryPrefix as string } : {}),
    ...(t.mail !== undefined ? { mail: tenantMailOf(t.mail, `${at}.mail`, fail, secretRef) } : {}),
    ...(t.sign !== undefined ? { sign: signOf(t.sign, `${at}.sign`, fail) } : {}),
  };
}

/**
 * Validates a parsed tenants document (`{ "tenants": [ … ] }`) and returns the tenants.
 *
 * @example
 * ```ts
 * import { validateTenants } from "./tenants_file.ts";
 * const [acme] = validateTenants({
 *   tenants: [{
 *     id: "acme",
 *     name: "Acme Ltd",
 *     baseUrl: "https://sam.example.com",
 *     credentials: { token: { env: "ACME_SAM_TOKEN" } },
 *   }],
 * }, "tenants.json");
 * console.log(acme.maxConcurrency); // 16
 * ```
 */
export function validateTenants(doc: unknown, file: string): Tenant[] {
  const fail: Fail = (field, problem) => {
    throw new TenantsFileError(file, field, problem);
  };
  if (!isObject(doc)) return fail("", "expected a JSON object");
  for (const key of Object.keys(doc)) {
    if (!["$schema", "tenants"].includes(key)) fail(key, "unknown field");
  }
  if (!Array.isArray(doc.tenants) || !doc.tenants.length) {
    fail("tenants", "expected a non-empty list");
  }
  const tenants = (doc.tenants as unknown[]).map((t, i) => tenantOf(t, `tenants[${i}]`, fail));
  const seen = new Set<string>();
  tenants.forEach((t, i) => {
    if (seen.has(t.id)) fail(`tenants[${i}].id`, `duplicate id ${JSON.stringify(t.id)}`);
    seen.add(t.id);
  });
  return tenants;
}

/**
 * Reads and validates a tenants file.
 *
 * @example
 * ```ts ignore
 * import { readTenantsFile } from "./tenants_file.ts";
 * const tenants = await readTenantsFile("tenants.json");
 * ```
 */
export async function readTenantsFile(path: string): Promise<Tenant[]> {
  checkContained(path, { what: "tenants file" });
  let text: string;
  try {
    text = await readRegularTextFile(path);
  } catch (e) {
    const problem = e instanceof Deno.errors.NotFound ? "no such file" : readProblem(e);
    throw new TenantsFileError(path, "", problem);
  }
  let doc: unknown;
  try {
    doc = parseJsonText(text);
  } catch (e) {
    throw new TenantsFileError(path, "", (e as Error).message);
  }
  return validateTenants(doc, path);
}
