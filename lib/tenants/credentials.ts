/**
 * Reads a tenant's credentials where its tenants-file entry says they are (an environment
 * variable or a secret file), at the moment a worker runs its pack, so secrets never travel
 * through the queue or the tenants file. Each secret read is registered (`registerSecret`), so
 * it is removed by value from every message, log line and record from then on.
 *
 * @module
 */

import type { SecretRef, Tenant } from "./tenants_file.ts";
import { readSecretFile, SecretFileError } from "./secret_file.ts";
import { registerSecret } from "../api/secrets.ts";

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
 * What a value read by reference is, for redaction: a `secret` (removed wherever it appears), a
 * `name` such as an SMTP user (removed where it stands alone), or `public` such as an OAuth
 * client id (shown in messages, not registered).
 */
export type SecretKind = "secret" | "name" | "public";

/** Options of {@link readSecret}. */
export interface ReadSecretOptions {
  /** What the value is (default `secret`): registered for redaction unless `public`. */
  readonly kind?: SecretKind;
}

/**
 * Reads one secret by its reference (trimmed) and registers it for redaction (see
 * {@link SecretKind}); a missing, empty or unreadable one throws {@link CredentialsError} naming
 * the variable or file and why, never a value.
 *
 * @example
 * ```ts
 * import { readSecret } from "./credentials.ts";
 * import { redact } from "../api/redact.ts";
 * const reader = { env: () => "s3cret-plain", file: () => Promise.resolve("") };
 * console.log(await readSecret("acme", { env: "ACME_SMTP_PASSWORD" }, reader)); // s3cret-plain
 * console.log(redact("bad login s3cret-plain")); // "bad login <redacted>"
 * ```
 */
export async function readSecret(
  tenant: string,
  ref: SecretRef,
  reader: SecretReader = SYSTEM,
  options: ReadSecretOptions = {},
): Promise<string> {
  const value = await readRef(tenant, ref, reader);
  const kind = options.kind ?? "secret";
  if (kind !== "public") registerSecret(value, { name: kind === "name" });
  return value;
}

async function readRef(tenant: string, ref: SecretRef, reader: SecretReader): Promise<string> {
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
 * Reads a tenant's credentials; the token or client secret is registered for redaction, the
 * client id (named in messages) is not.
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
    clientId: await readSecret(tenant.id, c.clientId, reader, { kind: "public" }),
    clientSecret: await readSecret(tenant.id, c.clientSecret, reader),
  };
}
