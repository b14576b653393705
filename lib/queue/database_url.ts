/**
 * Where the queue and the run history live: a PostgreSQL URL from `--database-url` or
 * `SAMKIT_DATABASE_URL`, checked before any connection, and shown only without its password
 * (which is registered as a secret as it is read, so no message or log line shows it either).
 *
 * @module
 */

import { registerSecret } from "../api/secrets.ts";

/**
 * No usable PostgreSQL URL.
 *
 * @example
 * ```ts
 * import { DatabaseUrlError } from "./database_url.ts";
 * console.log(new DatabaseUrlError("SAMKIT_DATABASE_URL is not set").name); // DatabaseUrlError
 * ```
 */
export class DatabaseUrlError extends Error {
  /** @param message What is wrong. */
  constructor(message: string) {
    super(message);
    this.name = "DatabaseUrlError";
  }
}

/**
 * The PostgreSQL URL to use: the flag, else `SAMKIT_DATABASE_URL`; checked to be a
 * `postgres://` or `postgresql://` URL. Its password is registered as a secret.
 *
 * @example
 * ```ts
 * import { databaseUrl } from "./database_url.ts";
 * console.log(databaseUrl("postgresql://samkit@127.0.0.1:5432/samkit")); // the same URL
 * ```
 */
export function databaseUrl(flag?: string): string {
  let fromEnv: string | undefined;
  try {
    fromEnv = Deno.env.get("SAMKIT_DATABASE_URL") || undefined;
  } catch {
    fromEnv = undefined;
  }
  const value = flag ?? fromEnv;
  if (!value) {
    throw new DatabaseUrlError(
      "no PostgreSQL URL: pass --database-url or set SAMKIT_DATABASE_URL " +
        "(e.g. postgresql://samkit@127.0.0.1:5432/samkit)",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseUrlError(`not a PostgreSQL URL: ${displayUrl(value)}`);
  }
  registerPassword(url);
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new DatabaseUrlError(`expected postgres:// or postgresql://, got ${url.protocol}//`);
  }
  return value;
}

/** Registers a URL's password, as written and decoded (pg decodes it before sending). */
function registerPassword(url: URL): void {
  if (!url.password) return;
  registerSecret(url.password);
  try {
    registerSecret(decodeURIComponent(url.password));
  } catch {
    // not valid percent-encoding: pg sends it as written, registered above
  }
}

/**
 * A URL as it may be shown: the password replaced by `***`.
 *
 * @example
 * ```ts
 * import { displayUrl } from "./database_url.ts";
 * console.log(displayUrl("postgresql://u:pw@db:5432/x")); // postgresql://u:***@db:5432/x
 * ```
 */
export function displayUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return value.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  }
}
