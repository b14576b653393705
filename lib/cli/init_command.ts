/**
 * `samkit init DIR`: writes a new user project — its own `deno.json` depending on this samkit
 * checkout, tasks that run samkit's CLI from the project, an example report, an example pack, a
 * theme and a README (`init_project.ts`). The project lives outside samkit's folder, so a user's
 * reports, packs and look never edit samkit's tree.
 *
 * Checked before anything is written (exit 2, nothing written): one folder named, not inside
 * samkit's folder (links followed), not an existing folder with files in it, and leading (links
 * followed) to a place this process may write — for `deno task init`, under samkit's parent
 * folder or `/tmp`; a link there to elsewhere is refused, not written through.
 *
 * @module
 */

import { dirname, join, relative, resolve, sep } from "node:path";
import { parseArgs } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { clip, printErr, printOut } from "./terminal_text.ts";
import { realTarget } from "../fs/containment.ts";
import { projectDir } from "../fs/roots.ts";
import { isInside } from "../fs/safe_name.ts";
import { projectFiles } from "./init_project.ts";

/** The help text of `samkit init`. */
export const INIT_HELP = `Usage: deno task init DIR        (in samkit's folder)

Writes a project folder of your own that uses this samkit without changing it:
  deno.json              samkit/… imports, tasks (report, pack, schedule, worker …) and their
                         permission sets: read of your folder and samkit's, write of ./out
  reports/servers_by_os.ts  an example report (defineReport from samkit/report)
  packs/weekly.json      an example pack: a built-in report and yours
  theme/theme.json       your company name (see samkit's README for themes)
  README.md              the three commands to run there

DIR must not exist yet (or be empty), must be outside samkit's folder, and under samkit's
parent folder or /tmp (what the init permission set may write); elsewhere:
  deno run --no-prompt -P=init --allow-read=.,DIR --allow-write=DIR main.ts init DIR

Exit codes: 0 written, 1 failure, 2 bad usage (nothing is written).`;

/** The folders the `init` permission set may write a project into (for messages). */
function initRoots(): string[] {
  return [dirname(projectDir()), "/tmp"];
}

/** Whether a folder exists with anything in it (a file, a folder, even hidden). */
async function hasEntries(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return true;
    return false;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    if (e instanceof Deno.errors.NotADirectory) return true;
    throw e;
  }
}

/** The project folder, checked: outside samkit, empty or new, under the init roots. */
async function checkTarget(dir: string): Promise<string> {
  const target = resolve(dir);
  const samkit = projectDir();
  const real = realTarget(target);
  if (isInside(samkit, target) || isInside(realTarget(samkit), real)) {
    throw new UsageError(
      `${clip(dir)} is inside samkit's folder; a project lives beside it (e.g. ../sam-reports), ` +
        "so samkit's tree stays unchanged",
    );
  }
  // Where it really leads must be writable: a link in a granted folder cannot take the files out.
  if (Deno.permissions.querySync({ name: "write", path: real }).state !== "granted") {
    throw new UsageError(
      `${clip(dir)}${real === target ? "" : ` (really ${clip(real)})`} is not where this task ` +
        `may write (deno task init: under ${initRoots().join(" or ")}); elsewhere: deno run ` +
        "--no-prompt -P=init --allow-read=.,DIR --allow-write=DIR main.ts init DIR",
    );
  }
  if (await hasEntries(target)) {
    throw new UsageError(`${clip(dir)} already has files; init writes a new (or empty) folder`);
  }
  return real;
}

/** samkit's folder as the project reaches it: a relative path with forward slashes. */
function samkitFrom(project: string): string {
  const rel = relative(project, realTarget(projectDir())).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** Writes every file; a failure removes what this run created. */
async function writeProject(target: string, files: Map<string, string>): Promise<void> {
  const existed = await Deno.stat(target).then(() => true, () => false);
  try {
    await Deno.mkdir(target, { recursive: true });
    for (const [path, text] of files) {
      await Deno.mkdir(dirname(join(target, path)), { recursive: true });
      await Deno.writeTextFile(join(target, path), text, { createNew: true });
    }
  } catch (e) {
    if (existed) {
      for (const path of files.keys()) await Deno.remove(join(target, path)).catch(() => {});
    } else await Deno.remove(target, { recursive: true }).catch(() => {});
    throw e;
  }
}

/**
 * Runs `samkit init` and returns the exit code.
 *
 * @example
 * ```ts
 * import { initCommand } from "./init_command.ts";
 * const dir = `${await Deno.makeTempDir()}/sam-reports`;
 * console.log(await initCommand([dir])); // 0
 * console.log(await initCommand([dir])); // 2: it has files now
 * ```
 */
export async function initCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, { help: { type: "boolean", short: "h" } });
    if (values.help) {
      console.log(INIT_HELP);
      return 0;
    }
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length
          ? `expected one folder, got ${clip(positionals.join(" "))}`
          : "which folder? e.g. deno task init ../sam-reports",
      );
    }
    const target = await checkTarget(positionals[0]);
    const samkit = samkitFrom(target);
    await writeProject(target, await projectFiles(samkit));
    printOut(target);
    printErr(
      `samkit: project written; in ${positionals[0]}:\n` +
        "  deno task report ./reports/servers_by_os.ts --format pdf,xlsx\n" +
        "  deno task pack ./packs/weekly.json",
    );
    return 0;
  } catch (error) {
    return reportError(error);
  }
}
