/**
 * Inputs and outputs checked by their real path. Deno's permission check looks at a path as
 * written, so `/tmp/x`, a symbolic link to `/etc/passwd`, passes a `/tmp` allowance. Every file
 * or folder a user names (and every folder samkit writes into) is therefore resolved through its
 * links first — for a path that does not exist yet, its nearest existing parent — and refused
 * with a {@link ContainmentError} (exit 2, nothing read or written) when it really leads outside
 * the task's roots (`roots.ts`). A path with no link on its way is left to Deno's own check, so
 * a place granted with `--allow-read`/`--allow-write` and named directly still works.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { isInside } from "./safe_name.ts";
import { type Access, rootsFor } from "./roots.ts";

/**
 * A path that leads, through symbolic links, outside the folders the task may use. The message
 * names the path, what it is, and where it really points; never any content.
 *
 * @example
 * ```ts
 * import { ContainmentError } from "./containment.ts";
 * const e = new ContainmentError({ what: "pack file", path: "/tmp/x", real: "/etc/passwd",
 *   access: "read", roots: ["/tmp"] });
 * console.log(e.message.includes("/etc/passwd")); // true
 * ```
 */
export class ContainmentError extends Error {
  /** The path as the user named it. */
  readonly path: string;
  /** Where it really leads. */
  readonly real: string;
  /** @param options What the path is, the path, its real path, its use and the roots. */
  constructor(options: {
    readonly what: string;
    readonly path: string;
    readonly real: string;
    readonly access: Access;
    readonly roots: readonly string[];
  }) {
    const verb = options.access === "write" ? "write to" : "read";
    super(
      `${options.what} ${options.path} leads through a symbolic link to ${options.real}, ` +
        `outside the folders this task may ${verb} (${options.roots.join(", ")}); ` +
        "name the real place directly, under one of those folders",
    );
    this.name = "ContainmentError";
    this.path = options.path;
    this.real = options.real;
  }
}

const MAX_HOPS = 40;

function readLinkOrUndefined(path: string): string | undefined {
  try {
    return Deno.lstatSync(path).isSymlink ? Deno.readLinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a path really leads: the real path of its nearest existing ancestor (links followed, a
 * dangling one too, as a write would) joined with the part that does not exist yet. An ancestor
 * that cannot be looked at is taken as written.
 *
 * @example
 * ```ts
 * import { realTarget } from "./containment.ts";
 * const dir = await Deno.makeTempDir();
 * console.log(realTarget(`${dir}/not/yet`) === `${Deno.realPathSync(dir)}/not/yet`); // true
 * ```
 */
export function realTarget(path: string, hops = 0): string {
  try {
    // As the system resolves it: `link/..` is the link target's parent, not the link's.
    return Deno.realPathSync(isAbsolute(path) ? path : `${Deno.cwd()}/${path}`);
  } catch {
    // missing (or not to be looked at): from its nearest existing ancestor below
  }
  let at = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(Deno.realPathSync(at), ...rest);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return join(at, ...rest);
      const link = readLinkOrUndefined(at);
      if (link !== undefined) {
        if (hops >= MAX_HOPS) return join(at, ...rest);
        return realTarget(join(resolve(dirname(at), link), ...rest), hops + 1);
      }
    }
    const parent = dirname(at);
    if (parent === at) return join(at, ...rest);
    rest.unshift(basename(at));
    at = parent;
  }
}

/** Options of {@link checkContained}. */
export interface ContainedOptions {
  /** What the path is, for the message (`pack file`, `--out`…). */
  readonly what: string;
  /** What it is used for (default `read`). */
  readonly access?: Access;
  /** The folders it may lead into (default {@link rootsFor} `access`). */
  readonly roots?: readonly string[];
}

/**
 * Checks that `path` really leads inside the roots of its use, or has no link on its way; returns
 * its real path, else throws {@link ContainmentError}. Call it before any read or write.
 *
 * @example
 * ```ts
 * import { checkContained } from "./containment.ts";
 * const dir = await Deno.makeTempDir();
 * console.log(checkContained(`${dir}/pack.json`, { what: "pack file" }).endsWith("pack.json"));
 * // true (a link there to /etc/passwd would throw ContainmentError)
 * ```
 */
export function checkContained(path: string, options: ContainedOptions): string {
  const access = options.access ?? "read";
  const roots = options.roots ?? rootsFor(access);
  const real = realTarget(path);
  if (real === resolve(path)) return real; // no link on the way: Deno's own check is the truth
  const inside = roots.some((root) => isInside(realTarget(root), real) || isInside(root, real));
  if (inside) return real;
  throw new ContainmentError({ what: options.what, path, real, access, roots });
}

/**
 * Checks a folder samkit writes into (or a file it reads, with `access` `read`) inside a folder
 * already checked: it must really lead inside `parent` (a symbolic link planted as a sub-folder
 * cannot take the writes out). Returns its real path, else throws {@link ContainmentError}.
 *
 * @example
 * ```ts
 * import { checkSubfolder } from "./containment.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/run`);
 * console.log(checkSubfolder(dir, `${dir}/run`, "run folder").endsWith("/run"));
 * // true (a link there to /root would throw ContainmentError)
 * ```
 */
export function checkSubfolder(
  parent: string,
  dir: string,
  what: string,
  access: Access = "write",
): string {
  const real = realTarget(dir);
  const realParent = realTarget(parent);
  if (isInside(realParent, real)) return real;
  throw new ContainmentError({ what, path: dir, real, access, roots: [realParent] });
}
