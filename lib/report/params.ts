/**
 * Report parameters: parse `--param key=value` strings or pack-file JSON values against a
 * definition's parameter specs, with errors that name the parameter and what was expected.
 *
 * @module
 */

import type { ParamSpec, ParamValues, ReportDefinition } from "./model.ts";
import { ParamError } from "./errors.ts";
import { inExactRange, rangeText } from "../api/number_range.ts";

/**
 * The longest report filter accepted (characters), from `--filter` or a pack file. A filter travels in the URL of every request,
 * percent-encoded (up to three bytes a character), and servers refuse request lines past about
 * 8 KB (414 URI Too Long); real filters are a few dozen characters.
 *
 * @example
 * ```ts
 * import { MAX_FILTER_CHARS } from "./params.ts";
 * console.log(MAX_FILTER_CHARS); // 2000
 * ```
 */
export const MAX_FILTER_CHARS = 2000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function parseValue(name: string, spec: ParamSpec, raw: unknown): unknown {
  const text = typeof raw === "string" ? raw.trim() : raw;
  switch (spec.type) {
    case "string":
      if (typeof text !== "string") {
        throw new ParamError(name, `expected text, got ${JSON.stringify(raw)}`);
      }
      return text;
    case "number":
    case "integer": {
      const n = typeof text === "number"
        ? text
        : typeof text === "string" && text !== ""
        ? Number(text)
        : NaN;
      if (Number.isNaN(n)) {
        throw new ParamError(name, `expected a number, got ${JSON.stringify(raw)}`);
      }
      if (!inExactRange(n, "number")) {
        throw new ParamError(name, `expected a ${rangeText("number")}, got ${JSON.stringify(raw)}`);
      }
      if (spec.type === "integer" && !Number.isInteger(n)) {
        throw new ParamError(name, `expected a whole number, got ${JSON.stringify(raw)}`);
      }
      if (spec.min !== undefined && n < spec.min) {
        throw new ParamError(name, `must be at least ${spec.min}, got ${n}`);
      }
      if (spec.max !== undefined && n > spec.max) {
        throw new ParamError(name, `must be at most ${spec.max}, got ${n}`);
      }
      return n;
    }
    case "boolean": {
      if (typeof text === "boolean") return text;
      const t = String(text).toLowerCase();
      if (["true", "yes", "1", "on"].includes(t)) return true;
      if (["false", "no", "0", "off"].includes(t)) return false;
      throw new ParamError(name, `expected true or false, got ${JSON.stringify(raw)}`);
    }
    case "date": {
      if (text instanceof Date && !isNaN(text.getTime())) return text;
      if (typeof text === "string" && (DATE_ONLY.test(text) || RFC3339.test(text))) {
        const d = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
        if (!isNaN(d.getTime()) && (!DATE_ONLY.test(text) || d.toISOString().startsWith(text))) {
          return d;
        }
      }
      throw new ParamError(
        name,
        `expected a date as YYYY-MM-DD or RFC 3339, got ${JSON.stringify(raw)}`,
      );
    }
    case "enum": {
      const hit = spec.values?.find((v) => v.toLowerCase() === String(text).toLowerCase());
      if (hit === undefined) {
        throw new ParamError(
          name,
          `expected one of ${spec.values?.join(", ")}, got ${JSON.stringify(raw)}`,
        );
      }
      return hit;
    }
    case "json": {
      if (typeof text !== "string") return text;
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new ParamError(name, `expected JSON (${(e as Error).message})`);
      }
    }
  }
}

/**
 * Resolves parameter values for a definition: every given name must be a parameter, every value
 * must parse, defaults fill the rest, and required parameters must be present.
 *
 * @example
 * ```ts
 * import { resolveParams } from "./params.ts";
 * import { defineReport } from "./model.ts";
 * const def = defineReport({
 *   id: "x", title: "X", description: "", data: () => ({ sections: [] }),
 *   params: { days: { type: "integer", description: "Days", default: 30, min: 1 } },
 * });
 * console.log(resolveParams(def, { days: "90" })); // { days: 90 }
 * ```
 */
export function resolveParams(
  definition: Pick<ReportDefinition, "id" | "params">,
  given: Readonly<Record<string, unknown>>,
): ParamValues {
  const out: ParamValues = {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(definition.params, name)) {
      const known = Object.keys(definition.params);
      throw new ParamError(
        name,
        `not a parameter of ${definition.id}` +
          (known.length ? `; its parameters are ${known.join(", ")}` : "; it takes no parameters"),
      );
    }
  }
  for (const [name, spec] of Object.entries(definition.params)) {
    if (Object.hasOwn(given, name) && given[name] !== undefined) {
      out[name] = parseValue(name, spec, given[name]);
    } else if (spec.default !== undefined) {
      out[name] = spec.default;
    } else if (spec.required) {
      throw new ParamError(name, `is required (${spec.description})`);
    }
  }
  return out;
}

/**
 * Splits `key=value` strings (from repeated `--param` flags) into a record; a string without
 * `=` is an error naming it.
 *
 * @example
 * ```ts
 * import { parseParamFlags } from "./params.ts";
 * console.log(parseParamFlags(["organization=ORG01", "days=90"]));
 * ```
 */
export function parseParamFlags(flags: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf("=");
    if (eq <= 0) throw new ParamError(flag, "expected key=value");
    out[flag.slice(0, eq).trim()] = flag.slice(eq + 1);
  }
  return out;
}
