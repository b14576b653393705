/**
 * The modules a Deno program loads when it starts: the static import graph of an entry point
 * from `deno info --json`, following code imports only (type-only imports are erased and
 * dynamic `import()` runs only when reached).
 *
 * @module
 */

/** What an entry point loads at start-up. */
export interface StartupGraph {
  /** Local modules (paths relative to the repository). */
  readonly local: readonly string[];
  /** npm packages by name (no version), e.g. `exceljs`, `@sinonjs/fake-timers`. */
  readonly npm: readonly string[];
  /** Built-in modules (`node:sqlite`, `node:fs`, …). */
  readonly builtins: readonly string[];
  /** For any module reached, the chain of importers back to the entry point (for messages). */
  readonly chain: (specifier: string) => string;
}

interface InfoDependency {
  readonly isDynamic?: boolean;
  readonly code?: { readonly specifier: string };
}
interface InfoModule {
  readonly specifier: string;
  readonly kind?: string;
  readonly npmPackage?: string;
  readonly dependencies?: readonly InfoDependency[];
}
interface Info {
  readonly roots: readonly string[];
  readonly modules: readonly InfoModule[];
  readonly redirects: Readonly<Record<string, string>>;
}

const ROOT = new URL("../../", import.meta.url);

/**
 * The start-up graph of `entry` (a path relative to the repository root).
 *
 * @example
 * ```ts
 * import { startupGraph } from "./module_graph.ts";
 * const graph = await startupGraph("mod.ts");
 * console.log(graph.npm.includes("exceljs")); // false
 * ```
 */
export async function startupGraph(entry: string): Promise<StartupGraph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno info ${entry} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const info: Info = JSON.parse(new TextDecoder().decode(out.stdout));
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const from = new Map<string, string | null>([[info.roots[0], null]]);
  const queue = [info.roots[0]];
  while (queue.length > 0) {
    const module = bySpecifier.get(queue.shift()!);
    for (const dep of module?.dependencies ?? []) {
      if (dep.isDynamic || !dep.code) continue;
      const target = info.redirects[dep.code.specifier] ?? dep.code.specifier;
      if (from.has(target)) continue;
      from.set(target, module!.specifier);
      queue.push(target);
    }
  }
  const root = ROOT.href;
  const short = (s: string) => s.startsWith(root) ? s.slice(root.length) : s;
  const reached = [...from.keys()];
  return {
    local: reached.filter((s) => s.startsWith("file:")).map(short).sort(),
    npm: [
      ...new Set(reached.flatMap((s) => {
        const pkg = bySpecifier.get(s)?.npmPackage;
        return pkg ? [pkg.slice(0, pkg.lastIndexOf("@"))] : [];
      })),
    ].sort(),
    builtins: reached.filter((s) => s.startsWith("node:")).sort(),
    chain: (specifier) => {
      const start = reached.find((s) => s === specifier || s.includes(`/${specifier}@`)) ??
        specifier;
      const path: string[] = [];
      for (let s: string | null | undefined = start; s; s = from.get(s)) path.push(short(s));
      return path.join(" <- ");
    },
  };
}
