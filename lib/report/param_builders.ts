/**
 * Parameter builders, so a report's parameters read as one line each:
 * `days: integerParam("Stale after this many days", { default: 30, min: 1, max: 3650 })`.
 *
 * @module
 */

import type { ParamSpec } from "./model.ts";

/** What a parameter may add to its type and description. */
export type ParamOptions = Omit<ParamSpec, "type" | "description">;

function builder(type: ParamSpec["type"]) {
  return (description: string, options: ParamOptions = {}): ParamSpec => ({
    type,
    description,
    ...options,
  });
}

/**
 * A text parameter.
 *
 * @example
 * ```ts
 * import { stringParam } from "./param_builders.ts";
 * console.log(stringParam("Organisation id").type); // "string"
 * ```
 */
export const stringParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "string",
);

/**
 * A whole-number parameter.
 *
 * @example
 * ```ts
 * import { integerParam } from "./param_builders.ts";
 * console.log(integerParam("Days", { default: 30, min: 1 }).default); // 30
 * ```
 */
export const integerParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "integer",
);

/**
 * A number parameter.
 *
 * @example
 * ```ts
 * import { numberParam } from "./param_builders.ts";
 * console.log(numberParam("Core factor", { default: 0.5 }).type); // "number"
 * ```
 */
export const numberParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "number",
);

/**
 * A date parameter (`YYYY-MM-DD`).
 *
 * @example
 * ```ts
 * import { dateParam } from "./param_builders.ts";
 * console.log(dateParam("Purchased from").type); // "date"
 * ```
 */
export const dateParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "date",
);

/**
 * A yes/no parameter.
 *
 * @example
 * ```ts
 * import { booleanParam } from "./param_builders.ts";
 * console.log(booleanParam("Include VMs", { default: true }).default); // true
 * ```
 */
export const booleanParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "boolean",
);

/**
 * A JSON parameter (lists, maps).
 *
 * @example
 * ```ts
 * import { jsonParam } from "./param_builders.ts";
 * console.log(jsonParam("Thresholds in days", { default: [30, 90] }).type); // "json"
 * ```
 */
export const jsonParam: (description: string, options?: ParamOptions) => ParamSpec = builder(
  "json",
);

/**
 * A choice among `values`.
 *
 * @example
 * ```ts
 * import { enumParam } from "./param_builders.ts";
 * console.log(enumParam(["pdf", "html"], "Format", { default: "pdf" }).values); // ["pdf", "html"]
 * ```
 */
export function enumParam(
  values: readonly string[],
  description: string,
  options: Omit<ParamOptions, "values"> = {},
): ParamSpec {
  return { type: "enum", description, values, ...options };
}
