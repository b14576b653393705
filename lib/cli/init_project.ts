/**
 * The files of a new user project (`samkit init DIR`): a `deno.json` that maps `samkit/…` to
 * samkit's entry points and runs samkit's CLI with permission sets of its own, an example report,
 * an example pack mixing a built-in report and the example, a theme and a README. Pure: what to
 * write, by relative path; `init_command.ts` writes it.
 *
 * The project's tasks are samkit's own, pointed at samkit's `main.ts` from the project folder
 * with `--config deno.json` (else Deno takes samkit's configuration from the main module's
 * folder and the project's `samkit/…` imports do not resolve). Its permission sets are samkit's,
 * with samkit's folder `.` read as both the project folder and samkit's folder, `./out` the
 * project's, and samkit's browser launcher at its path: read of the project and samkit, no more.
 *
 * @module
 */

import samkitConfig from "../../deno.json" with { type: "json" };

/** The template folder this module's files come from. */
const TEMPLATE = new URL("./project_template/", import.meta.url);

/** samkit's tasks a project gets, run from the project folder. */
export const PROJECT_TASKS: readonly string[] = [
  "report",
  "report:tenant",
  "explain",
  "explain:tenant",
  "pack",
  "pack:tenant",
  "schedule",
  "schedule:tenant",
  "enqueue",
  "enqueue:remote",
  "worker",
  "worker:remote",
  "verify",
  "diff",
  "reports",
];

type PermissionSet = Record<string, unknown>;

/** A path of samkit's as the project sees it: `.` is samkit's folder. */
function fromProject(path: string, samkit: string): string {
  if (path === ".") return samkit;
  return path.startsWith("./") ? `${samkit}/${path.slice(2)}` : path;
}

/** A permission set of samkit's as the project's: the project and samkit read, `./out` its own. */
function projectPermissions(set: PermissionSet, samkit: string): PermissionSet {
  const out: PermissionSet = { ...set };
  if (Array.isArray(set.read)) {
    out.read = (set.read as string[]).flatMap((p) => p === "." ? [".", samkit] : [p]);
  }
  if (Array.isArray(set.write)) {
    out.write = (set.write as string[]).filter((p) => p === "./out" || !p.startsWith("."));
  }
  if (Array.isArray(set.run)) {
    out.run = (set.run as string[]).map((p) => fromProject(p, samkit));
  }
  return out;
}

/** A path as a task line's word: quoted when it holds anything but letters, digits and `._/-`. */
function word(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'"'"'`)}'`;
}

/** A task string of samkit's as the project's: samkit's scripts by path, the project's config. */
function projectTask(task: string, samkit: string): string {
  return task
    .replaceAll("deno run ", "deno run --config deno.json ")
    .replace(
      / (main\.ts|lib\/cli\/[\w.]+\.ts) /g,
      (_, script) => ` ${word(`${samkit}/${script}`)} `,
    );
}

/** The permission set names the project's tasks use (`-P=<set>`). */
function setsUsed(tasks: Record<string, string>): string[] {
  const names = Object.values(tasks).flatMap((t) =>
    [...t.matchAll(/-P=([\w-]+)/g)].map((m) => m[1])
  );
  return [...new Set(names)];
}

/**
 * The project's `deno.json`: `samkit` and `samkit/<entry>` mapped to samkit's entry points (the
 * names a published samkit has too), samkit's tasks and their permission sets as the project's,
 * and `check` to type-check the project's reports.
 *
 * @example
 * ```ts
 * import { projectConfig } from "./init_project.ts";
 * const config = projectConfig("../samkit");
 * console.log(config.imports["samkit/report"]); // "../samkit/report.ts"
 * ```
 */
export function projectConfig(samkit: string): {
  imports: Record<string, string>;
  tasks: Record<string, string>;
  permissions: Record<string, PermissionSet>;
} {
  const exports = samkitConfig.exports as Record<string, string>;
  const imports = Object.fromEntries(
    Object.entries(exports).map(([entry, file]) => [
      entry === "." ? "samkit" : `samkit/${entry.slice(2)}`,
      fromProject(file, samkit),
    ]),
  );
  const own = samkitConfig.tasks as Record<string, string>;
  const tasks: Record<string, string> = {};
  for (const name of PROJECT_TASKS) {
    if (own[name]) tasks[name] = projectTask(own[name], samkit);
  }
  tasks.check = "deno check reports/";
  const sets = samkitConfig.permissions as Record<string, PermissionSet>;
  const permissions = Object.fromEntries(
    setsUsed(tasks).map((name) => [name, projectPermissions(sets[name], samkit)]),
  );
  return { imports, tasks, permissions };
}

/** The template files: project path → template file (under `project_template/`). */
const TEMPLATE_FILES: Readonly<Record<string, string>> = {
  "reports/servers_by_os.ts": "reports/servers_by_os.ts.txt",
  "packs/weekly.json": "packs/weekly.json",
  "theme/theme.json": "theme/theme.json",
  "README.md": "README.md.txt",
  ".gitignore": "gitignore.txt",
};

/**
 * Every file of a new project, by path relative to the project folder, for a project that
 * reaches samkit at `samkit` (a relative path such as `../samkit`, forward slashes).
 *
 * @example
 * ```ts
 * import { projectFiles } from "./init_project.ts";
 * const files = await projectFiles("../samkit");
 * console.log([...files.keys()].includes("reports/servers_by_os.ts")); // true
 * ```
 */
export async function projectFiles(samkit: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set("deno.json", `${JSON.stringify(projectConfig(samkit), null, 2)}\n`);
  for (const [path, template] of Object.entries(TEMPLATE_FILES)) {
    const text = await Deno.readTextFile(new URL(template, TEMPLATE));
    files.set(path, text.replaceAll("{{samkit}}", samkit));
  }
  return files;
}
