/**
 * Reading a secret file a tenants file names: a bare name (`acme_token`) is looked up in the
 * secret folders (`/run/secrets`, where Docker and Kubernetes mount secrets, then each folder of
 * `SAMKIT_SECRET_DIRS`, comma-separated), a path is read as written. A read that Deno's
 * permissions deny says so, with the path and what to change, rather than "cannot be read".
 *
 * @module
 */

import { checkContained } from "../fs/containment.ts";
import { rootsFor } from "../fs/roots.ts";
import { join } from "node:path";
import { NotRegularFileError, readRegularTextFile } from "../fs/regular_file.ts";

/** Where secrets are mounted by default. */
export const DEFAULT_SECRET_DIRS: readonly string[] = ["/run/secrets"];

/**
 * A secret file that cannot be read: names the path and why, never any of its contents.
 *
 * @example
 * ```ts
 * import { SecretFileError } from "./secret_file.ts";
 * console.log(new SecretFileError("/run/secrets/acme", "does not exist").message);
 * ```
 */
export class SecretFileError extends Error {
  /** The path (or bare name) that could not be read. */
  readonly path: string;
  /**
   * @param path The path or bare name.
   * @param problem Why it cannot be read.
   */
  constructor(path: string, problem: string) {
    super(`secret file ${path} ${problem}`);
    this.name = "SecretFileError";
    this.path = path;
  }
}

/**
 * The folders a bare secret name is looked up in: `/run/secrets`, then `SAMKIT_SECRET_DIRS`
 * (comma-separated, so the same text can be given to `--allow-read`).
 *
 * @example
 * ```ts
 * import { secretDirs } from "./secret_file.ts";
 * console.log(secretDirs(() => "/etc/samkit/secrets,/vault")); // ["/run/secrets", "/etc/samkit/secrets", "/vault"]
 * ```
 */
export function secretDirs(
  env: (name: string) => string | undefined = (name) => Deno.env.get(name),
): string[] {
  let configured = "";
  try {
    configured = env("SAMKIT_SECRET_DIRS") ?? "";
  } catch {
    configured = ""; // no env permission: the default folders only
  }
  const extra = configured.split(",").map((s) => s.trim()).filter(Boolean);
  return [...new Set([...DEFAULT_SECRET_DIRS, ...extra])];
}

/** Why a read failed, in words that say what to change. */
function problemOf(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "does not exist";
  if (error instanceof Deno.errors.NotCapable) {
    return `is outside this task's Deno permissions (${(error as Error).message}): allow ` +
      `reading it in the task's permission set (deno.json permissions.worker.read lists ` +
      `/run/secrets; for a folder of SAMKIT_SECRET_DIRS add it there or pass --allow-read)`;
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return "is not readable by this user (the operating system denied it: check the file's " +
      `owner and mode for the user the worker runs as)`;
  }
  if (error instanceof Deno.errors.IsADirectory) return "is a folder";
  if (error instanceof NotRegularFileError) return error.problem;
  return `cannot be read (${(error as Error)?.name ?? "error"}: ${(error as Error)?.message})`;
}

/**
 * Reads a secret file: a bare name from the first secret folder that has it (else the working
 * folder), a path as given. A secret folder Deno's permissions keep out is passed over, and named
 * with the permission to change if the name is found nowhere. Throws {@link SecretFileError} naming the path and the cause (missing, Deno's permissions, the
 * operating system's).
 *
 * @example
 * ```ts ignore
 * import { readSecretFile } from "./secret_file.ts";
 * const token = await readSecretFile("acme_token"); // /run/secrets/acme_token
 * ```
 */
export async function readSecretFile(
  name: string,
  dirs: readonly string[] = secretDirs(),
): Promise<string> {
  // A secret file is read only where it really is inside the secret folders or the task's roots:
  // a link planted in /tmp cannot make the worker read (and send) another file.
  const contained = (path: string) =>
    checkContained(path, { what: "secret file", roots: [...rootsFor("read"), ...dirs] });
  if (name.includes("/")) {
    contained(name);
    try {
      return await readRegularTextFile(name);
    } catch (e) {
      throw new SecretFileError(name, problemOf(e));
    }
  }
  const denied: string[] = [];
  for (const path of [...dirs.map((dir) => join(dir, name)), name]) {
    try {
      contained(path);
      return await readRegularTextFile(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) denied.push(`${path} ${problemOf(e)}`);
      else if (!(e instanceof Deno.errors.NotFound)) {
        throw new SecretFileError(path, problemOf(e));
      }
    }
  }
  const where = `is in none of the secret folders ${dirs.join(", ")} nor the working folder`;
  throw new SecretFileError(name, denied.length ? `${where}; and ${denied.join("; ")}` : where);
}
