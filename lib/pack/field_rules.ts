/**
 * Field rules: a table saying, field by field and in order, how a JSON object is checked and what
 * each field becomes, and the one loop that applies it. Unknown fields are refused first; then
 * the rules run in table order and the first bad field ends the check with a message naming its
 * JSON path, so the order of the table is the order in which problems are reported.
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Ends a check: the JSON path of the bad field (`reports[1].formats`) and what is wrong. */
export type Fail = (field: string, problem: string) => never;

/**
 * Whether a JSON value is an object (not null, not an array).
 *
 * @example
 * ```ts
 * import { isJsonObject } from "./field_rules.ts";
 * console.log(isJsonObject({}), isJsonObject([]), isJsonObject(null)); // true false false
 * ```
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What a rule sees besides its field's raw value. */
export interface FieldScope<C> {
  /** The field's JSON path (`reports[0].formats`). */
  readonly path: string;
  /** The object the field is in, as given. */
  readonly object: JsonObject;
  /** The values the earlier rules of the table returned, by field. */
  readonly checked: Readonly<JsonObject>;
  /** What the rules of the table share (the report catalogue, the pack's reports). */
  readonly context: C;
  /** Ends the check at this field. */
  readonly fail: (problem: string) => never;
  /** Ends the check at another JSON path. */
  readonly failAt: Fail;
}

/** One row of a rule table: a field and how it is checked. */
export interface FieldRule<C> {
  /** The field's key. A field may have more than one row (a later check needing another field). */
  readonly field: string;
  /**
   * Checks the raw value (`undefined` when absent) and returns the field's value, or `undefined`
   * to leave it out; fails through the scope.
   */
  readonly check: (value: unknown, scope: FieldScope<C>) => unknown;
}

/** Options of {@link checkFields}. */
export interface CheckFieldsOptions<C> {
  /** The object's JSON path (`""` for the document itself). */
  readonly at: string;
  /** What every rule of the table gets as `scope.context`. */
  readonly context: C;
  /** Ends the check. */
  readonly fail: Fail;
  /** The problem when the value is not an object. @default {"expected an object"} */
  readonly notObject?: string;
  /** Fields allowed besides the rules' own (read by another rule, or ignored). */
  readonly alsoKnown?: readonly string[];
  /** Sees each unknown field before it is refused as unknown, and may refuse it differently. */
  readonly onUnknown?: (key: string, fail: Fail) => void;
}

/**
 * Checks a JSON object against a rule table: refuses unknown fields, then runs the rules in
 * order and returns what they returned, by field.
 *
 * @example
 * ```ts
 * import { checkFields, type FieldRule } from "./field_rules.ts";
 * const rules: FieldRule<null>[] = [
 *   { field: "port", check: (v) => v ?? 587 },
 *   { field: "host", check: (v, s) => typeof v === "string" ? v : s.fail("expected a host") },
 * ];
 * const fail = (field: string, problem: string): never => {
 *   throw new Error(`${field}: ${problem}`);
 * };
 * console.log(checkFields({ host: "smtp" }, rules, { at: "email", context: null, fail }));
 * // { port: 587, host: "smtp" }
 * ```
 */
export function checkFields<C>(
  value: unknown,
  rules: readonly FieldRule<C>[],
  options: CheckFieldsOptions<C>,
): JsonObject {
  const { at, context, fail } = options;
  if (!isJsonObject(value)) return fail(at, options.notObject ?? "expected an object");
  const pathOf = (key: string) => at ? `${at}.${key}` : key;
  const known = new Set([...rules.map((r) => r.field), ...options.alsoKnown ?? []]);
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    options.onUnknown?.(key, fail);
    fail(pathOf(key), "unknown field");
  }
  const checked: JsonObject = {};
  for (const { field, check } of rules) {
    const path = pathOf(field);
    const scope = { path, object: value, checked, context, failAt: fail };
    const result = check(value[field], { ...scope, fail: (problem) => fail(path, problem) });
    if (result !== undefined) checked[field] = result;
  }
  return checked;
}
