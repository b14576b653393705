/**
 * `samkit keys DIR`: writes a new Ed25519 key pair for signing packs — `DIR/signing-key.pem`
 * (PKCS#8 PEM, readable by its owner only) and `DIR/signing-key.pub.pem` (SPKI PEM) — and prints
 * the public key's fingerprint. An existing key is never overwritten: either file already there
 * is bad input (exit 2) naming it, and nothing is written.
 *
 * @module
 */

import { join } from "node:path";
import { parseArgs } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { clip, printOut } from "./terminal_text.ts";
import { generateKeyPair, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from "../pack/sign.ts";
import { checkContained } from "../fs/containment.ts";
import { projectDir } from "../fs/roots.ts";
import { systemTempDir } from "../fs/owned_temp.ts";
import { removeQuietly } from "../render/atomic.ts";

/** The help text of `samkit keys`. */
export const KEYS_HELP = `Usage: deno task keys <dir>

Writes a new Ed25519 key pair for signing packs:
  <dir>/${PRIVATE_KEY_FILE}      the private key (PKCS#8 PEM, mode 0600): keep it secret, out
                              of version control; sign with deno task pack FILE --sign it
  <dir>/${PUBLIC_KEY_FILE}  the public key (SPKI PEM): give it to whoever verifies
and prints the public key's fingerprint (SHA-256 of its DER), which each signed manifest
names. A key already there is never overwritten (exit 2).

The keys task may write under the project folder and /tmp; for another folder run
  deno run -P=keys --allow-write=<dir> main.ts keys <dir>

Options:
  -h, --help   This help

Exit codes: 0 written, 2 bad usage or a key already there.`;

/**
 * A key file already there: never overwritten.
 *
 * @example
 * ```ts
 * import { KeyExistsError } from "./keys_command.ts";
 * console.log(new KeyExistsError("keys/signing-key.pem").message);
 * ```
 */
export class KeyExistsError extends Error {
  /** @param path The file already there. */
  constructor(path: string) {
    super(
      `${path} already exists; a key is never overwritten (remove it, or choose another folder)`,
    );
    this.name = "KeyExistsError";
  }
}

/**
 * Writes `text` to `path` only if nothing is there: to a temp name first, then hard-linked into
 * place (the link fails if the name was taken meanwhile), so no partial key is ever seen.
 */
async function writeNew(path: string, text: string, mode: number): Promise<void> {
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, text, { mode, createNew: true });
  try {
    await Deno.chmod(temp, mode); // whatever the umask
    await Deno.link(temp, path);
  } catch (e) {
    if (e instanceof Deno.errors.AlreadyExists) throw new KeyExistsError(path);
    throw e;
  } finally {
    await removeQuietly(temp);
  }
}

/**
 * Runs `samkit keys` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { keysCommand } from "./keys_command.ts";
 * Deno.exit(await keysCommand(["keys"]));
 * ```
 */
export async function keysCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, { help: { type: "boolean", short: "h" } });
    if (values.help) {
      console.log(KEYS_HELP);
      return 0;
    }
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length
          ? `expected one folder, got ${clip(positionals.join(" "))}`
          : "which folder? e.g. deno task keys keys",
      );
    }
    const dir = positionals[0];
    checkContained(dir, {
      what: "key folder",
      access: "write",
      roots: [projectDir(), "/tmp", systemTempDir()],
    });
    const privatePath = join(dir, PRIVATE_KEY_FILE);
    const publicPath = join(dir, PUBLIC_KEY_FILE);
    for (const path of [privatePath, publicPath]) {
      if (await Deno.lstat(path).then(() => true, () => false)) throw new KeyExistsError(path);
    }
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const pair = await generateKeyPair();
    await writeNew(privatePath, pair.privatePem, 0o600);
    try {
      await writeNew(publicPath, pair.publicPem, 0o644);
    } catch (e) {
      await removeQuietly(privatePath); // never half a pair
      throw e;
    }
    printOut(`${privatePath}  private key (mode 0600): keep it secret`);
    printOut(`${publicPath}  public key: give it to whoever verifies`);
    printOut(`fingerprint (SHA-256 of the public key): ${pair.fingerprint}`);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
