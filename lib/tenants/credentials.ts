/**
 * Reads a tenant's credentials where its tenants-file entry says they are (an environment
 * variable or a secret file), at the moment a worker runs its pack, so secrets never travel
 * through the queue or the tenants file.
 *
 * @module
 */

import type { SecretRef, Tenant } from "./tenants_file.ts";
import { readSecretFile, SecretFileError } from "./secret_file.ts";

/** Credentials as the SAM client takes them. */
export type ResolvedCredentials =
  | { readonly token: string }
  | { readonly clientId: string; readonly clientSecret: string };

/**
 * A credential that cannot be read: the message names the tenant and the variable or file,
 * never a value.
 *
 * @example
 * ```ts
 * import { CredentialsError } from "./credentials.ts";
 * console.log(new CredentialsError("acme", "environment variable ACME_TOKEN is not set").message);
 * ```
 */
export class CredentialsError extends Error {
  /** The tenant's id. */
  readonly tenant: string;
  /**
   * @param tenant The tenant's id.
   * @param problem What is missing.
   */
  constructor(tenant: string, problem: string) {
    super(`tenant ${tenant}: ${problem}`);
    this.name = "CredentialsError";
    this.tenant = tenant;
  }
}

/** How secrets are read (tests pass their own). */
export interface SecretReader {
  /** An environment variable's value. */
  readonly env: (name: string) => string | undefined;
  /** A file's text. */
  readonly file: (path: string) => Promise<string>;
}

const SYSTEM: SecretReader = {
  env: (name) => Deno.env.get(name),
  file: (path) => readSecretFile(path),
};

/**
 * Reads one secret by its reference (trimmed); a missing, empty or unreadable one throws
 * {@link CredentialsError} naming the variable or file and why, never a value.
 *
 * @example
 * ```ts
 * import { readSecret } from "./credentials.ts";
 * const reader = { env: () => "s3cret", file: () => Promise.resolve("") };
 * console.log(await readSecret("acme", { env: "ACME_SMTP_PASSWORD" }, reader)); // s3cret
 * ```
 */
export async function readSecret(
  tenant: string,
  ref: SecretRef,
  reader: SecretReader = SYSTEM,
): Promise<string> {
  if ("env" in ref) {
    const value = reader.env(ref.env)?.trim();
    if (!value) throw new CredentialsError(tenant, `environment variable ${ref.env} is not set`);
    return value;
  }
  let text: string;
  try {
    text = await reader.file(ref.file);
  } catch (e) {
    if (e instanceof SecretFileError) throw new CredentialsError(tenant, e.message);
    const why = e instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
    throw new CredentialsError(tenant, `secret file ${ref.file} ${why}`);
  }
  if (!text.trim()) throw new CredentialsError(tenant, `secret file ${ref.file} is empty`);
  return text.trim();
}

/**
 * Reads a tenant's credentials.
 *
 * @example
 * ```ts
 * import { resolveCredentials } from "./credentials.ts";
 * const tenant = {
 *   id: "acme",
 *   name: "Acme",
 *   baseUrl: "https://sam.example.com",
 *   credentials: { token: { env: "ACME_TOKEN" } },
 *   maxConcurrency: 8,
 * };
 * const reader = { env: () => "t0ken", file: () => Promise.resolve("") };
 * console.log(await resolveCredentials(tenant, reader)); // { token: "t0ken" }
 * ```
 */
export async function resolveCredentials(
  tenant: Tenant,
  reader: SecretReader = SYSTEM,
): Promise<ResolvedCredentials> {
  const c = tenant.credentials;
  if ("token" in c) return { token: await readSecret(tenant.id, c.token, reader) };
  return {
    clientId: await readSecret(tenant.id, c.clientId, reader),
    clientSecret: await readSecret(tenant.id, c.clientSecret, reader),
  };
}
