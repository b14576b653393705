/**
 * What a report run covered, stated the same way on the cover, in the XLSX Summary and in the
 * JSON: every parameter the report declares with the value used and where it came from, and the
 * filter on its main collection. A filtered or scoped report must never read as a complete one.
 *
 * @module
 */

import type { ParamValues, ReportDefinition } from "./model.ts";

/** One declared parameter of a run, with the value used. */
export interface ScopeParameter {
  /** The parameter's name (`--param name=…`). */
  readonly name: string;
  /** What it means, from the definition. */
  readonly description: string;
  /** The value used; undefined when not set and without a default. */
  readonly value: unknown;
  /** `given` (set for this run), `default` (the definition's default) or `unset`. */
  readonly origin: "given" | "default" | "unset";
  /**
   * How an id value reads to a person: an organisation's name (`./scope_labels.ts`); absent when
   * the value is not an id or none is known.
   */
  readonly label?: string;
}

/** The scope of one run. */
export interface ReportScope {
  /** Every parameter the report declares, in declaration order. */
  readonly parameters: readonly ScopeParameter[];
  /** The filter on the report's main collection, as given; undefined: none. */
  readonly filter?: string;
  /** The resource the filter applies to (e.g. `Computer`), when the report takes a filter. */
  readonly filterResource?: string;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === "object" && a !== null) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The scope of a run of `definition` with resolved `params` and `filter`. A value equal to the
 * parameter's default counts as `default`.
 *
 * @example
 * ```ts
 * import { reportScope } from "./scope.ts";
 * const scope = reportScope({
 *   params: {
 *     days: { type: "integer", description: "Idle days", default: 90 },
 *     organization: { type: "string", description: "Organisation id" },
 *   },
 *   filterResource: "Computer",
 * }, { days: 30 }, "status -eq Active");
 * console.log(scope.parameters.map((p) => p.origin)); // ["given", "unset"]
 * console.log(scope.filter); // status -eq Active
 * ```
 */
export function reportScope(
  definition: Pick<ReportDefinition, "params" | "filterResource">,
  params: ParamValues,
  filter?: string,
): ReportScope {
  const parameters = Object.entries(definition.params).map(([name, spec]): ScopeParameter => {
    const value = params[name];
    const origin = value === undefined
      ? "unset"
      : spec.default !== undefined && sameValue(value, spec.default)
      ? "default"
      : "given";
    return { name, description: spec.description, value, origin };
  });
  return {
    parameters,
    ...(filter ? { filter } : {}),
    ...(definition.filterResource ? { filterResource: definition.filterResource } : {}),
  };
}

/**
 * How the filter line of a scope reads to a person: the filter, `none` (the report takes a filter
 * and none was given), or undefined when the report takes no filter.
 *
 * @example
 * ```ts
 * import { filterStatement } from "./scope.ts";
 * console.log(filterStatement({ parameters: [], filterResource: "License" }));
 * // None: every license
 * console.log(filterStatement({ parameters: [], filter: "vendor -eq Adobe", filterResource: "License" }));
 * // vendor -eq Adobe
 * ```
 */
export function filterStatement(scope: ReportScope): string | undefined {
  if (scope.filter) return scope.filter;
  if (!scope.filterResource) return undefined;
  const noun = scope.filterResource.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `None: every ${noun}`;
}
