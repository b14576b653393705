/**
 * Signing keys and signatures of run manifests: Ed25519 by Web Crypto, keys as PEM (PKCS#8 for
 * the private key, SPKI for the public one) so standard tools read them, and signatures as the
 * 64 raw bytes Ed25519 makes, so that anyone can check a manifest without samkit:
 * `openssl pkeyutl -verify -pubin -inkey signing-key.pub.pem -rawin -in manifest.json -sigfile
 * manifest.sig`. A key is named by its fingerprint: the hex SHA-256 of the public key's SPKI
 * DER (`openssl pkey -pubin -in signing-key.pub.pem -outform DER | sha256sum`).
 *
 * The private key's text is registered as a secret the moment it is read, so it never reaches a
 * log, an error or a record; once imported the key cannot be exported again.
 *
 * @module
 */

import { join } from "node:path";
import type { SecretRef } from "../tenants/tenants_file.ts";
import { readSecretFile } from "../tenants/secret_file.ts";
import { registerSecret } from "../api/secrets.ts";
import { checkContained } from "../fs/containment.ts";
import { readProblem, readRegularTextFile } from "../fs/regular_file.ts";
import { writeAtomic } from "../render/atomic.ts";

/** The signature file beside `manifest.json`. */
export const SIGNATURE_FILE = "manifest.sig";
/** The private key's file name `keys` writes. */
export const PRIVATE_KEY_FILE = "signing-key.pem";
/** The public key's file name `keys` writes (and `verify` looks for beside a pack's runs). */
export const PUBLIC_KEY_FILE = "signing-key.pub.pem";
/** The signature algorithm (the only one). */
export const SIGNATURE_ALGORITHM = "Ed25519";
/** The length of an Ed25519 signature in bytes. */
export const SIGNATURE_BYTES = 64;

/** A private key ready to sign, with its public key's fingerprint. */
export interface ManifestSigner {
  /** Hex SHA-256 of the public key's SPKI DER. */
  readonly fingerprint: string;
  /** The private key (not extractable). */
  readonly privateKey: CryptoKey;
}

/** A public key ready to check signatures, with its fingerprint. */
export interface VerifyingKey {
  /** Hex SHA-256 of its SPKI DER. */
  readonly fingerprint: string;
  /** The public key. */
  readonly publicKey: CryptoKey;
}

/** A new key pair as `keys` writes it. */
export interface KeyPairPem {
  /** The private key, PKCS#8 PEM. */
  readonly privatePem: string;
  /** The public key, SPKI PEM. */
  readonly publicPem: string;
  /** The public key's fingerprint. */
  readonly fingerprint: string;
}

/**
 * A signing or public key that cannot be used: names where it came from (a file, a variable) and
 * what is wrong, never any of the key.
 *
 * @example
 * ```ts
 * import { SigningKeyError } from "./sign.ts";
 * console.log(new SigningKeyError("signing key keys/signing-key.pem", "is not a PEM private key").message);
 * ```
 */
export class SigningKeyError extends Error {
  /** Where the key came from. */
  readonly where: string;
  /**
   * @param where What the key is and where it came from (`signing key keys/signing-key.pem`).
   * @param problem What is wrong with it.
   */
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = "SigningKeyError";
    this.where = where;
  }
}

/**
 * Lower-case hex of bytes.
 *
 * @example
 * ```ts
 * import { toHex } from "./sign.ts";
 * console.log(toHex(new Uint8Array([0, 171]))); // 00ab
 * ```
 */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * DER bytes as PEM text under `label` (`PRIVATE KEY`, `PUBLIC KEY`), 64 characters a line.
 *
 * @example
 * ```ts
 * import { pemEncode } from "./sign.ts";
 * console.log(pemEncode("PUBLIC KEY", new Uint8Array([1, 2, 3])));
 * // -----BEGIN PUBLIC KEY-----\nAQID\n-----END PUBLIC KEY-----\n
 * ```
 */
export function pemEncode(label: string, der: Uint8Array): string {
  const base64 = btoa(Array.from(der, (b) => String.fromCharCode(b)).join(""));
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * The DER bytes of the one PEM block labelled `label` in `text`; a {@link SigningKeyError}
 * naming `where` when there is none, or its body is not base64.
 *
 * @example
 * ```ts
 * import { pemDecode } from "./sign.ts";
 * const der = pemDecode("-----BEGIN PUBLIC KEY-----\nAQID\n-----END PUBLIC KEY-----\n", {
 *   label: "PUBLIC KEY",
 *   where: "public key key.pem",
 * });
 * console.log(der); // Uint8Array(3) [ 1, 2, 3 ]
 * ```
 */
export function pemDecode(
  text: string,
  options: { readonly label: string; readonly where: string },
): Uint8Array<ArrayBuffer> {
  const { label, where } = options;
  const block = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]*)-----END ${label}-----`)
    .exec(text);
  if (!block) {
    throw new SigningKeyError(where, `is not a PEM ${label.toLowerCase()} ("-----BEGIN ${label}")`);
  }
  try {
    const binary = atob(block[1].replace(/\s+/g, ""));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    throw new SigningKeyError(where, `its ${label.toLowerCase()} is not base64`);
  }
}

/**
 * The fingerprint of a public key: hex SHA-256 of its SPKI DER (what `openssl pkey -pubin -in
 * KEY -outform DER | sha256sum` prints).
 *
 * @example
 * ```ts
 * import { keyFingerprint } from "./sign.ts";
 * console.log((await keyFingerprint(new Uint8Array([1, 2, 3]))).length); // 64
 * ```
 */
export async function keyFingerprint(spkiDer: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", spkiDer)));
}

/**
 * A new Ed25519 key pair as PEM, with its fingerprint.
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "./sign.ts";
 * const pair = await generateKeyPair();
 * console.log(pair.publicPem.startsWith("-----BEGIN PUBLIC KEY-----"), pair.fingerprint.length);
 * // true 64
 * ```
 */
export async function generateKeyPair(): Promise<KeyPairPem> {
  const pair = await crypto.subtle.generateKey({ name: SIGNATURE_ALGORITHM }, true, [
    "sign",
    "verify",
  ]) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", pair.publicKey));
  const privatePem = pemEncode("PRIVATE KEY", pkcs8);
  registerSecret(privatePem.trim(), { forms: [pemBody(privatePem)] });
  return {
    privatePem,
    publicPem: pemEncode("PUBLIC KEY", spki),
    fingerprint: await keyFingerprint(spki),
  };
}

/** The base64 body of a PEM text on one line (the form a key could be echoed in). */
function pemBody(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
}

/**
 * A signer from a PKCS#8 PEM Ed25519 private key (`where` names it in errors). The text is
 * registered as a secret first; the key it gives cannot be exported.
 *
 * @example
 * ```ts
 * import { generateKeyPair, signerFromPem } from "./sign.ts";
 * const pair = await generateKeyPair();
 * const signer = await signerFromPem(pair.privatePem, "signing key (new)");
 * console.log(signer.fingerprint === pair.fingerprint); // true
 * ```
 */
export async function signerFromPem(pem: string, where: string): Promise<ManifestSigner> {
  registerSecret(pem.trim(), { forms: [pemBody(pem)] });
  const der = pemDecode(pem, { label: "PRIVATE KEY", where });
  let extractable: CryptoKey;
  try {
    extractable = await crypto.subtle.importKey("pkcs8", der, SIGNATURE_ALGORITHM, true, ["sign"]);
  } catch {
    throw new SigningKeyError(where, "is not an Ed25519 private key (PKCS#8)");
  }
  // Web Crypto gives no public key from a private one: its JWK carries it (`x`).
  const { x } = await crypto.subtle.exportKey("jwk", extractable);
  const pub = await crypto.subtle.importKey(
    "jwk",
    { kty: "OKP", crv: "Ed25519", x },
    SIGNATURE_ALGORITHM,
    true,
    ["verify"],
  );
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", pub));
  const privateKey = await crypto.subtle.importKey("pkcs8", der, SIGNATURE_ALGORITHM, false, [
    "sign",
  ]);
  return { fingerprint: await keyFingerprint(spki), privateKey };
}

/**
 * A verifying key from an SPKI PEM Ed25519 public key (`where` names it in errors).
 *
 * @example
 * ```ts
 * import { generateKeyPair, verifyingKeyFromPem } from "./sign.ts";
 * const pair = await generateKeyPair();
 * const key = await verifyingKeyFromPem(pair.publicPem, "public key (new)");
 * console.log(key.fingerprint === pair.fingerprint); // true
 * ```
 */
export async function verifyingKeyFromPem(pem: string, where: string): Promise<VerifyingKey> {
  const der = pemDecode(pem, { label: "PUBLIC KEY", where });
  try {
    const publicKey = await crypto.subtle.importKey("spki", der, SIGNATURE_ALGORITHM, true, [
      "verify",
    ]);
    return { fingerprint: await keyFingerprint(der), publicKey };
  } catch {
    throw new SigningKeyError(where, "is not an Ed25519 public key (SPKI)");
  }
}

/**
 * The 64-byte Ed25519 signature of `bytes`.
 *
 * @example
 * ```ts
 * import { generateKeyPair, signBytes, signerFromPem } from "./sign.ts";
 * const signer = await signerFromPem((await generateKeyPair()).privatePem, "a new key");
 * console.log((await signBytes(signer, new TextEncoder().encode("{}\n"))).length); // 64
 * ```
 */
export async function signBytes(
  signer: ManifestSigner,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.sign(SIGNATURE_ALGORITHM, signer.privateKey, bytes));
}

/**
 * Whether `signature` is the Ed25519 signature of `bytes` by `key`.
 *
 * @example
 * ```ts
 * import * as sign from "./sign.ts";
 * const pair = await sign.generateKeyPair();
 * const signer = await sign.signerFromPem(pair.privatePem, "a new key");
 * const key = await sign.verifyingKeyFromPem(pair.publicPem, "its public key");
 * const bytes = new TextEncoder().encode("{}\n");
 * const signature = await sign.signBytes(signer, bytes);
 * console.log(await sign.verifyBytes(key, signature, bytes)); // true
 * console.log(await sign.verifyBytes(key, signature, new TextEncoder().encode("{ }\n"))); // false
 * ```
 */
export async function verifyBytes(
  key: VerifyingKey,
  signature: Uint8Array<ArrayBuffer>,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (signature.length !== SIGNATURE_BYTES) return false;
  return await crypto.subtle.verify(SIGNATURE_ALGORITHM, key.publicKey, signature, bytes);
}

/**
 * Writes `manifest.sig` into `dir`: the signature of `manifestText`'s UTF-8 bytes, which must be
 * exactly the bytes of the `manifest.json` written there. Returns its path.
 *
 * @example
 * ```ts
 * import { generateKeyPair, signerFromPem, writeSignature } from "./sign.ts";
 * const dir = await Deno.makeTempDir();
 * const signer = await signerFromPem((await generateKeyPair()).privatePem, "a new key");
 * await Deno.writeTextFile(`${dir}/manifest.json`, "{}\n");
 * const path = await writeSignature(dir, "{}\n", signer);
 * console.log((await Deno.readFile(path)).length); // 64
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeSignature(
  dir: string,
  manifestText: string,
  signer: ManifestSigner,
): Promise<string> {
  const signature = await signBytes(signer, new TextEncoder().encode(manifestText));
  return await writeAtomic(join(dir, SIGNATURE_FILE), signature);
}

/**
 * Reads a signing key where its reference says (`{"env": "VARIABLE"}` holding the PEM text, or
 * `{"file": "path"}`: a path as written, a bare name from the secret folders, as tenants'
 * secrets are read) and makes a signer of it. A missing, unreadable or malformed key is a
 * {@link SigningKeyError} naming the variable or file, never the key.
 *
 * @example
 * ```ts
 * import { generateKeyPair, readSigningKey } from "./sign.ts";
 * const dir = await Deno.makeTempDir();
 * const pair = await generateKeyPair();
 * await Deno.writeTextFile(`${dir}/signing-key.pem`, pair.privatePem, { mode: 0o600 });
 * const signer = await readSigningKey({ file: `${dir}/signing-key.pem` });
 * console.log(signer.fingerprint === pair.fingerprint); // true
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readSigningKey(
  ref: SecretRef,
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Promise<ManifestSigner> {
  if ("env" in ref) {
    const where = `signing key in environment variable ${ref.env}`;
    const text = env(ref.env)?.trim();
    if (!text) throw new SigningKeyError(where, "is not set");
    return await signerFromPem(text, where);
  }
  let text: string;
  try {
    text = await readSecretFile(ref.file);
  } catch (e) {
    throw new SigningKeyError("signing key", (e as Error).message);
  }
  return await signerFromPem(text, `signing key ${ref.file}`);
}

/**
 * Reads a public key file (PEM, SPKI): a regular file, really inside the task's folders. A
 * missing or malformed one is a {@link SigningKeyError} naming it.
 *
 * @example
 * ```ts
 * import { generateKeyPair, readVerifyingKey } from "./sign.ts";
 * const dir = await Deno.makeTempDir();
 * const pair = await generateKeyPair();
 * await Deno.writeTextFile(`${dir}/signing-key.pub.pem`, pair.publicPem);
 * console.log((await readVerifyingKey(`${dir}/signing-key.pub.pem`)).fingerprint.length); // 64
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readVerifyingKey(path: string): Promise<VerifyingKey> {
  checkContained(path, { what: "public key file" });
  let text: string;
  try {
    text = await readRegularTextFile(path, { maxBytes: 64 * 1024 });
  } catch (e) {
    const problem = e instanceof Deno.errors.NotFound ? "does not exist" : readProblem(e);
    throw new SigningKeyError(`public key ${path}`, problem);
  }
  return await verifyingKeyFromPem(text, `public key ${path}`);
}
