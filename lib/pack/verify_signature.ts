/**
 * Checking a run's signature: `manifest.sig` against the exact bytes of `manifest.json`, with the
 * public key given (`--public-key FILE`, else the file `SAMKIT_PUBLIC_KEY` names), or else the
 * `signing-key.pub.pem` found in the pack folder (the run folder's parent). The key's
 * fingerprint must be the one the manifest names. A key given says signatures are required: an
 * unsigned run then fails; without one an unsigned run is only said to be unsigned.
 *
 * @module
 */

import { dirname, join } from "node:path";
import type { Manifest } from "./manifest.ts";
import {
  PUBLIC_KEY_FILE,
  readVerifyingKey,
  SIGNATURE_BYTES,
  SIGNATURE_FILE,
  SigningKeyError,
  verifyBytes,
  type VerifyingKey,
} from "./sign.ts";
import { readProblem, readRegularFile } from "../fs/regular_file.ts";

/** The variable naming a public key file when `--public-key` is not given. */
export const PUBLIC_KEY_ENV = "SAMKIT_PUBLIC_KEY";

/** What the signature check found. */
export interface SignatureCheck {
  /** `valid`, `unsigned` (no signature, none required) or `failed`. */
  readonly state: "valid" | "unsigned" | "failed";
  /** The file that fails (`manifest.json` or `manifest.sig`), when failed. */
  readonly file?: string;
  /** What was found, for a person (the key's fingerprint and where it came from). */
  readonly detail: string;
}

/** Options of {@link checkSignature}. */
export interface CheckSignatureOptions {
  /** The run folder. */
  readonly dir: string;
  /** The exact bytes of its `manifest.json`. */
  readonly manifestBytes: Uint8Array<ArrayBuffer>;
  /** The manifest parsed from them. */
  readonly manifest: Manifest;
  /** The public key file given (`--public-key`). */
  readonly publicKey?: string;
  /** Reads a variable (default `Deno.env.get`; no env permission: none). */
  readonly env?: (name: string) => string | undefined;
}

/** Where the key comes from, and whether it was given (so signatures are required). */
interface KeySource {
  readonly path: string;
  readonly given: boolean;
  readonly label: string;
}

function envOf(options: CheckSignatureOptions): string | undefined {
  try {
    return (options.env ?? ((name) => Deno.env.get(name)))(PUBLIC_KEY_ENV)?.trim() || undefined;
  } catch {
    return undefined; // no env permission: no variable
  }
}

async function keySource(options: CheckSignatureOptions): Promise<KeySource | undefined> {
  if (options.publicKey !== undefined) {
    return { path: options.publicKey, given: true, label: options.publicKey };
  }
  const fromEnv = envOf(options);
  if (fromEnv) return { path: fromEnv, given: true, label: `${fromEnv} (${PUBLIC_KEY_ENV})` };
  const beside = join(dirname(options.dir), PUBLIC_KEY_FILE);
  const found = await Deno.lstat(beside).then(() => true, () => false);
  return found ? { path: beside, given: false, label: beside } : undefined;
}

/** The signature bytes, or why they cannot be used; undefined when there is no signature. */
async function readSignature(
  dir: string,
): Promise<Uint8Array<ArrayBuffer> | string | undefined> {
  const path = join(dir, SIGNATURE_FILE);
  try {
    await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    return readProblem(e);
  }
  try {
    const bytes = await readRegularFile(path, { maxBytes: 4096 });
    if (bytes.length !== SIGNATURE_BYTES) {
      return `is ${bytes.length} bytes, not a ${SIGNATURE_BYTES}-byte Ed25519 signature`;
    }
    return bytes;
  } catch (e) {
    return (await Deno.lstat(path)).isSymlink ? "is a symbolic link" : readProblem(e);
  }
}

const failed = (file: string, detail: string): SignatureCheck => ({
  state: "failed",
  file,
  detail,
});

/**
 * Checks a run's signature; never throws for a bad signature or key (a failed check says which
 * file and why), only for an unreadable key file given by the user ({@link SigningKeyError}).
 *
 * @example
 * ```ts
 * import { checkSignature } from "./verify_signature.ts";
 * const dir = await Deno.makeTempDir();
 * const manifestBytes = new TextEncoder().encode("{}\n");
 * const check = await checkSignature({ dir, manifestBytes, manifest: {} as never, env: () => "" });
 * console.log(check.state); // unsigned
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkSignature(options: CheckSignatureOptions): Promise<SignatureCheck> {
  const named = options.manifest.signedBy?.publicKeySha256;
  const source = await keySource(options);
  const signature = await readSignature(options.dir);
  if (typeof signature === "string") return failed(SIGNATURE_FILE, signature);
  if (signature === undefined) {
    if (named) return failed(SIGNATURE_FILE, `missing: the manifest names signing key ${named}`);
    if (source?.given) {
      return failed(
        SIGNATURE_FILE,
        `not signed: the run has no ${SIGNATURE_FILE}, and a key was given`,
      );
    }
    return { state: "unsigned", detail: "not signed (no manifest.sig)" };
  }
  if (!source) {
    return failed(
      SIGNATURE_FILE,
      `cannot be checked: no public key (give --public-key FILE, set ${PUBLIC_KEY_ENV}, or put ` +
        `${PUBLIC_KEY_FILE} in ${dirname(options.dir)})${
          named ? `; the manifest names key ${named}` : ""
        }`,
    );
  }
  let key: VerifyingKey;
  try {
    key = await readVerifyingKey(source.path);
  } catch (e) {
    if (source.given || !(e instanceof SigningKeyError)) throw e;
    return failed(SIGNATURE_FILE, `cannot be checked: ${(e as Error).message}`);
  }
  if (named && named !== key.fingerprint) {
    return failed(
      SIGNATURE_FILE,
      `wrong key: the manifest names signing key ${named}; ${source.label} is key ${key.fingerprint}`,
    );
  }
  if (!await verifyBytes(key, signature, options.manifestBytes)) {
    return failed(
      "manifest.json",
      `bad signature: ${SIGNATURE_FILE} does not sign these bytes with key ${key.fingerprint} ` +
        `(${source.label})`,
    );
  }
  const note = source.given ? "" : "; compare it with the fingerprint the signer published";
  return {
    state: "valid",
    detail: `Ed25519, key ${key.fingerprint} (${source.label})${note}`,
  };
}
