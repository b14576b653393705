/**
 * Finding what a person named on the command line: an application of the license position by
 * id or name, or a computer by id or host name. A name matching nothing is bad input that names
 * it and the nearest names there are; a name matching several applications lists them.
 *
 * @module
 */

import { ParamError } from "../report/errors.ts";

/** Something that can be named: its id and the names it goes by (label first). */
export interface Named {
  /** The id. */
  readonly id: string;
  /** Its names, the one shown first (an application's label, a computer's host name). */
  readonly names: readonly string[];
}

/**
 * A name that matches nothing, or more than one thing: exit 2 (a {@link ParamError}), with the
 * nearest names.
 *
 * @example
 * ```ts
 * import { UnknownNameError } from "./explain_application.ts";
 * const e = new UnknownNameError("application", "Acrobat Pr", ["Adobe Acrobat Pro 24.003 (APP0042)"]);
 * console.log(e.message);
 * // 'parameter "application": no application "Acrobat Pr" in the license position; nearest: Adobe Acrobat Pro 24.003 (APP0042)'
 * ```
 */
export class UnknownNameError extends ParamError {
  /** The names suggested, best first. */
  readonly suggestions: readonly string[];
  /**
   * Builds the error from the parameter, the name asked for and the nearest names.
   *
   * @param param The parameter (`application`, `computer`).
   * @param name The name asked for.
   * @param suggestions The nearest names, best first (none: the error says so).
   * @param problem What is wrong, when the name matched several (default: it matched none).
   */
  constructor(param: string, name: string, suggestions: readonly string[], problem?: string) {
    const what = param === "computer" ? "computer" : "application";
    const where = param === "computer" ? "in the estate" : "in the license position";
    super(
      param,
      problem ??
        `no ${what} "${name}" ${where}; ${
          suggestions.length ? `nearest: ${suggestions.join(", ")}` : "no name is near it"
        }`,
    );
    this.name = "UnknownNameError";
    this.suggestions = suggestions;
  }
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}.]+/u).filter(Boolean);

/** How near `name` is to `other` (lower is nearer), or Infinity when not near at all. */
function nearness(name: string, other: string): number {
  const a = name.toLowerCase().trim(), b = other.toLowerCase().trim();
  if (a === b) return 0;
  if (a.length >= 3 && b.includes(a)) return 1;
  const d = distance(a, b);
  if (d <= Math.max(1, Math.floor(a.length / 4))) return 1 + d / 100;
  const mine = words(a);
  const theirs = new Set(words(b));
  const shared = mine.filter((w) => theirs.has(w) || [...theirs].some((t) => t.startsWith(w)));
  return shared.length ? 3 - shared.length / mine.length : Infinity;
}

/**
 * The nearest names to `name`, best first, at most `limit`, each with its id when the id is not
 * the name itself.
 *
 * @example
 * ```ts
 * import { nearestNames } from "./explain_application.ts";
 * const items = [
 *   { id: "A1", names: ["Adobe Acrobat Pro 24.003"] },
 *   { id: "A2", names: ["Microsoft Visio 2021"] },
 * ];
 * console.log(nearestNames("acrobat", items)); // ["Adobe Acrobat Pro 24.003 (A1)"]
 * ```
 */
export function nearestNames(name: string, items: readonly Named[], limit = 5): string[] {
  const scored: [number, string][] = [];
  for (const item of items) {
    const score = Math.min(...[item.id, ...item.names].map((n) => nearness(name, n)));
    const label = item.names[0] ?? item.id;
    if (score < Infinity) scored.push([score, label === item.id ? label : `${label} (${item.id})`]);
  }
  return scored.sort((x, y) => x[0] - y[0] || x[1].localeCompare(y[1])).slice(0, limit).map((
    x,
  ) => x[1]);
}

/**
 * The id of the one item `name` names: by id, else by any of its names (case aside). Throws
 * {@link UnknownNameError} naming the nearest names when none matches, and listing the matches
 * when several do.
 *
 * @example
 * ```ts
 * import { resolveName } from "./explain_application.ts";
 * const items = [
 *   { id: "A1", names: ["Adobe Acrobat Pro 24.003", "Adobe Acrobat Pro"] },
 *   { id: "A2", names: ["Microsoft Visio 2021", "Microsoft Visio"] },
 * ];
 * console.log(resolveName("application", "microsoft visio", items)); // "A2"
 * console.log(resolveName("application", "A1", items)); // "A1"
 * ```
 */
export function resolveName(param: string, name: string, items: readonly Named[]): string {
  const wanted = name.trim();
  const byId = items.find((i) => i.id === wanted);
  if (byId) return byId.id;
  const lower = wanted.toLowerCase();
  const matches = items.filter((i) => i.names.some((n) => n.trim().toLowerCase() === lower));
  const ids = [...new Set(matches.map((m) => m.id))];
  if (ids.length === 1) return ids[0];
  if (ids.length > 1) {
    const listed = matches.map((m) => `${m.names[0] ?? m.id} (${m.id})`).sort();
    throw new UnknownNameError(
      param,
      wanted,
      listed,
      `"${wanted}" names ${ids.length} ${param === "computer" ? "computers" : "applications"}; ` +
        `give one id: ${listed.join(", ")}`,
    );
  }
  throw new UnknownNameError(param, wanted, nearestNames(wanted, items));
}
