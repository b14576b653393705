/**
 * A pack's `sign` section: the signing key its runs sign their manifest with, as a secret
 * reference read like the tenants file's — `{"key": {"file": "signing-key.pem"}}` (a path as
 * written, or a bare name looked up in the secret folders) or `{"key": {"env": "VARIABLE"}}`
 * (the PEM text in a variable) — never the key itself.
 *
 * @module
 */

import { isJsonObject } from "./field_rules.ts";
import { type SecretRef, secretRef } from "../tenants/tenants_file.ts";

/** A pack's (or a tenant's) `sign` section. */
export interface PackSign {
  /** Where the private key (PKCS#8 PEM, Ed25519) is read from. */
  readonly key: SecretRef;
}

/**
 * Checks a `sign` section: absent, or `{"key": <secret reference>}`; `fail` gets the JSON path
 * below `at` and what is wrong.
 *
 * @example
 * ```ts
 * import { checkSign } from "./pack_sign.ts";
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * console.log(checkSign({ key: { env: "SAMKIT_SIGNING_KEY" } }, "sign", fail));
 * // { key: { env: "SAMKIT_SIGNING_KEY" } }
 * ```
 */
export function checkSign(
  value: unknown,
  at: string,
  fail: (field: string, problem: string) => never,
): PackSign | undefined {
  if (value === undefined) return undefined;
  const expected = 'expected {"key": {"file": "signing-key.pem"}} or {"key": {"env": "VARIABLE"}}';
  if (!isJsonObject(value)) return fail(at, expected);
  for (const field of Object.keys(value)) {
    if (field !== "key") fail(`${at}.${field}`, `unknown field; ${expected}`);
  }
  if (value.key === undefined) return fail(`${at}.key`, `missing; ${expected}`);
  return { key: secretRef(value.key, `${at}.key`, fail) };
}
