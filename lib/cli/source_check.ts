/**
 * A run's first contact with a tenant, made before anything is written: one cheap read proves
 * that the base URL answers and that the credentials are accepted, so an unreachable host or a
 * rejected token fails with nothing left behind (no evidence folder holding only failures).
 *
 * @module
 */

import { openSource, type SourceOptions } from "./source.ts";
import { PermissionError } from "../api/errors.ts";

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a run with these source options reads a tenant (a base URL from the option,
 * `SAM_BASE_URL` or `SAM_REGION`) rather than the embedded demo server.
 *
 * @example
 * ```ts
 * import { readsTenant } from "./source_check.ts";
 * console.log(readsTenant({ baseUrl: "https://eu.example.com" })); // true
 * ```
 */
export function readsTenant(options: Pick<SourceOptions, "baseUrl">): boolean {
  return (options.baseUrl ?? env("SAM_BASE_URL") ?? env("SAM_REGION")) !== undefined;
}

/**
 * Makes one read of one item (the first page of licenses, one item long) from the tenant the
 * options name, and throws what the client throws when the host does not answer
 * (`NetworkError`) or the credentials are refused (`AuthError`, after one re-authentication).
 * A 403 passes: the token is good, and the report that needs the scope says which is missing.
 * Does nothing for the embedded demo server.
 *
 * @example
 * ```ts ignore
 * import { checkSourceAnswers } from "./source_check.ts";
 * await checkSourceAnswers({ baseUrl: "https://westeurope.example.com" });
 * ```
 */
export async function checkSourceAnswers(options: SourceOptions): Promise<void> {
  if (!readsTenant(options)) return;
  const api = await openSource(options);
  try {
    const pages = api.client.licenses.list({ pageSize: 1, parallel: false }).pages();
    try {
      await pages.next();
    } finally {
      await pages.return?.();
    }
  } catch (e) {
    if (!(e instanceof PermissionError)) throw e;
  } finally {
    await api.close();
  }
}
