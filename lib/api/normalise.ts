/**
 * Turns what the API sends into the typed shapes of the catalogue (`Resource<N>`), driven by the
 * catalogue alone:
 * - numbers and booleans sent as strings (`"12"`, `"true"`) become numbers and booleans;
 * - dates become `Date`s: RFC 3339 (T and Z in either case, any offset, date only allowed) and
 *   the license form `M/d/yyyy h:mm:ss AM`, read as UTC;
 * - `_links` and `links` are both read into `links`;
 * - nested objects (a connector's `status`) are normalised field by field;
 * - a known field that is absent becomes `null`; unknown extra fields are kept as they came, and
 *   so are the catalogue's untyped real-only fields (`upgrades`, `metrics`, `virtualMachines`);
 * - a flag enum (`incompleteReasons`, `invalidAssignmentReasons`, `primaryUseRights`,
 *   `fullUseRights`, `useRights`) is read from a bitmask, an array of names or comma-separated
 *   names into one form, the list of its names in bit order (`flag_enums.ts`);
 * - a field the spec renamed is read under either name (`isVendorDRS` or the real service's
 *   `isVMwareDRS`) and written under both, so code written for either dialect reads it;
 * - a number must be finite and exact (`number_range.ts`): at most 2^53 − 1 in magnitude, a money
 *   field at most 9,999,999,999,999.99; `"1e309"`, a JSON `1e309` (read as Infinity) and
 *   `"9007199254740993"` (read rounded) are refused, never read as a blank or a rounded value;
 *   a negative zero is read as zero;
 * - a number sent for text (an id sent as `7`) is read as its text only when it is exact, so an
 *   id of `12345678901234567890` (read rounded) or `1e999` (read as Infinity) is refused;
 * - a value that cannot be read as its type throws `NormalisationError` naming the operation and
 *   the item (its id, and its place in the answer) when the normaliser knows them, the resource,
 *   the field and the value (`<redacted>` for a sensitive field).
 *
 * Sensitive fields are kept: the caller asked the API for them. Redaction is for what is printed.
 *
 * @module
 */

import {
  type FieldSpec,
  type FieldType,
  type Link,
  type Resource,
  type ResourceName,
  RESOURCES,
} from "./catalogue.ts";
import { NormalisationError } from "./errors.ts";
import { readFlags } from "./flag_enums.ts";
import { inExactRange, type NumberKind, rangeText, readNumberText } from "./number_range.ts";

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;
const LICENSE_DATE =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\.?)?)?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of month `mo` (1–12) of year `y` in the proleptic Gregorian calendar. */
function daysInMonth(y: number, mo: number): number {
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return mo === 2 && leap ? 29 : DAYS[mo - 1];
}

function utc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): Date | undefined {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return undefined;
  if (d > daysInMonth(y, mo)) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms));
  date.setUTCFullYear(y); // Date.UTC maps years 0–99 to 1900–1999.
  return date;
}

/** The digit at `i` of `text` as a number, or NaN. */
function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/**
 * The time of `YYYY-MM-DDTHH:MM:SS.sssZ` (the form nearly every date comes in, as the service and
 * `toISOString` write it) read without the general pattern; NaN for an impossible date in that
 * form; `undefined` for any other text (years before 100 included), left to the pattern.
 */
function canonicalTime(text: string): number | undefined {
  if (
    text.length !== 24 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 ||
    text.charCodeAt(19) !== 46 || text.charCodeAt(23) !== 90
  ) return undefined;
  const n = (from: number, to: number) => {
    let v = 0;
    for (let i = from; i < to; i++) v = v * 10 + digit(text, i);
    return v;
  };
  const y = n(0, 4), mo = n(5, 7), d = n(8, 10), h = n(11, 13), mi = n(14, 16), s = n(17, 19);
  const ms = n(20, 23);
  if (Number.isNaN(y + mo + d + h + mi + s + ms) || y < 100) return undefined;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return NaN;
  if (d > daysInMonth(y, mo)) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, Math.min(s, 59), ms);
}

/**
 * An RFC 3339 date-time as a `Date`: `T`/`Z` in either case, a space for `T`, a fraction, an
 * offset or none (read as UTC), or a date alone (midnight UTC). `undefined` when the text is not
 * one or names an impossible date.
 *
 * @example
 * ```ts
 * import { parseRfc3339 } from "./normalise.ts";
 * console.log(parseRfc3339("2024-02-29t10:00:00z")?.toISOString()); // "2024-02-29T10:00:00.000Z"
 * console.log(parseRfc3339("2024-01-01T01:00:00+01:00")?.toISOString());
 * // "2024-01-01T00:00:00.000Z"
 * console.log(parseRfc3339("2023-02-29T00:00:00Z")); // undefined
 * ```
 */
export function parseRfc3339(text: string): Date | undefined {
  const canonical = canonicalTime(text);
  if (canonical !== undefined) return Number.isNaN(canonical) ? undefined : new Date(canonical);
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone = "Z"] = m;
  const date = utc(+y!, +mo!, +d!, +h, +mi, +s, Number(frac.slice(0, 3).padEnd(3, "0")));
  if (!date) return undefined;
  if (zone === "Z" || zone === "z") return date;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offH = Number(digits.slice(0, 2));
  const offM = Number(digits.slice(2) || "0");
  if (offH > 23 || offM > 59) return undefined;
  return new Date(date.getTime() - sign * (offH * 60 + offM) * 60_000);
}

/**
 * A license date in the `M/d/yyyy h:mm:ss AM` form of license resources, read as UTC. The time,
 * the seconds and the AM/PM suffix are optional (no suffix reads the hour on a 24-hour clock).
 * `undefined` when the text is not one or names an impossible date.
 *
 * @example
 * ```ts
 * import { parseLicenseDate } from "./normalise.ts";
 * console.log(parseLicenseDate("3/7/2021 1:05:09 PM")?.toISOString()); // "2021-03-07T13:05:09.000Z"
 * console.log(parseLicenseDate("12/31/2020 12:00:00 AM")?.toISOString());
 * // "2020-12-31T00:00:00.000Z"
 * ```
 */
export function parseLicenseDate(text: string): Date | undefined {
  const m = LICENSE_DATE.exec(text.trim());
  if (!m) return undefined;
  const [, mo, d, y, h = "0", mi = "0", s = "0", ampm] = m;
  let hour = +h;
  if (ampm) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (ampm.toLowerCase() === "p" ? 12 : 0);
  }
  return utc(+y!, +mo!, +d!, hour, +mi, +s, 0);
}

/**
 * A date in either form the API sends (RFC 3339 or the license form), or `undefined`.
 *
 * @example
 * ```ts
 * import { parseApiDate } from "./normalise.ts";
 * console.log(parseApiDate("1/2/2023 3:04:05 AM")?.toISOString()); // "2023-01-02T03:04:05.000Z"
 * ```
 */
export function parseApiDate(text: string): Date | undefined {
  return parseRfc3339(text) ?? parseLicenseDate(text);
}

type Convert = (value: unknown) => unknown;
/** Thrown inside a converter; the caller turns it into a `NormalisationError`. */
const BAD = Symbol("bad");

/** The converter of numbers of a kind: a number or numeric text, finite and within its bound. */
function numberConverter(kind: NumberKind): Convert {
  return (v) => {
    if (typeof v === "number") return inExactRange(v, kind) ? v + 0 : BAD;
    if (typeof v === "string") {
      if (v.trim() === "") return null;
      const n = readNumberText(v, kind);
      return n === undefined ? BAD : n + 0;
    }
    return BAD;
  };
}

/**
 * A number sent for text (an id sent as `7`) as its text, when it is the number the service
 * sent: finite and at most 2^53 − 1 in magnitude (a `12345678901234567890` is read rounded, a
 * `1e999` as Infinity: neither is the id meant). `undefined` otherwise.
 */
function exactText(v: number): string | undefined {
  return inExactRange(v, "number") ? String(v + 0) : undefined;
}

const MONEY = numberConverter("money");

const CONVERT: Readonly<Record<FieldType, Convert>> = {
  string: (v) => {
    if (typeof v === "string") return v;
    if (typeof v === "number") return exactText(v) ?? BAD;
    if (typeof v === "boolean") return String(v);
    return BAD;
  },
  number: numberConverter("number"),
  boolean: (v) => {
    if (typeof v === "boolean") return v;
    if (typeof v === "string") {
      const t = v.trim().toLowerCase();
      if (t === "true" || t === "1") return true;
      if (t === "false" || t === "0") return false;
      return t === "" ? null : BAD;
    }
    if (v === 0 || v === 1) return v === 1;
    return BAD;
  },
  date: (v) => {
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? BAD : v;
    if (typeof v === "string") {
      if (v.trim() === "") return null;
      return parseApiDate(v) ?? BAD;
    }
    return BAD;
  },
  strings: (v) => {
    if (!Array.isArray(v)) return BAD;
    const out: string[] = [];
    for (const item of v) {
      const text = typeof item === "string"
        ? item
        : typeof item === "number"
        ? exactText(item)
        : typeof item === "boolean"
        ? String(item)
        : undefined;
      if (text === undefined) return BAD;
      out.push(text);
    }
    return out;
  },
};

/** The converter of a field: its flag enum's reader, or its type's. */
function converterOf(field: FieldSpec): Convert {
  const flags = field.flags;
  if (flags !== undefined) return (v) => readFlags(flags, v) ?? BAD;
  return field.money ? MONEY : CONVERT[field.type];
}

/** When a number sent for text is read as its text. */
const EXACT = `exact: finite and at most ${Number.MAX_SAFE_INTEGER} in magnitude`;

/** What a field's value must be, in words. */
function expectedOf(field: FieldSpec): string {
  if (field.flags) return `${field.flags} flags (a number, names, or comma-separated names)`;
  if (field.type === "strings") return `list of strings (a number in it only when ${EXACT})`;
  if (field.type === "string") return `string (a number only when ${EXACT})`;
  if (field.type === "number") return rangeText(field.money ? "money" : "number");
  return field.type;
}

interface Step {
  readonly key: string;
  /** The real service's name of a renamed top-level field. */
  readonly alias?: string;
  readonly field: FieldSpec;
  readonly convert: Convert;
}

interface PlanFields {
  readonly resource: ResourceName;
  readonly top: readonly Step[];
  readonly nested: ReadonlyMap<string, readonly Step[]>;
  readonly known: ReadonlySet<string>;
}

interface Plan extends PlanFields {
  /** Builds an item's known fields, in the order of `top` then `nested`. */
  readonly build: (source: Record<string, unknown>) => Record<string, unknown>;
}

const PLANS = new Map<ResourceName, Plan>();

function planOf(resource: ResourceName): Plan {
  let plan = PLANS.get(resource);
  if (plan) return plan;
  const spec = RESOURCES[resource];
  if (!spec) throw new RangeError(`Unknown resource "${resource}"`);
  const top: Step[] = [];
  const nested = new Map<string, Step[]>();
  for (const field of spec.fields) {
    if (field.hidden) continue;
    const dot = field.name.indexOf(".");
    if (dot < 0) {
      const alias = field.realName;
      top.push({
        key: field.name,
        ...(alias ? { alias } : {}),
        field,
        convert: converterOf(field),
      });
    } else {
      const prefix = field.name.slice(0, dot);
      const steps = nested.get(prefix) ?? [];
      steps.push({ key: field.name.slice(dot + 1), field, convert: converterOf(field) });
      nested.set(prefix, steps);
    }
  }
  const partial = {
    resource,
    top,
    nested,
    known: new Set([
      ...top.flatMap((s) => s.alias ? [s.key, s.alias] : [s.key]),
      ...nested.keys(),
      "_links",
      "links",
    ]),
  };
  plan = { ...partial, build: builderOf(partial) };
  PLANS.set(resource, plan);
  return plan;
}

/** The normalised value of one field of `source`; throws `NormalisationError`. */
function valueOf(plan: PlanFields, step: Step, source: Record<string, unknown>): unknown {
  const raw = source[step.key] ?? (step.alias === undefined ? undefined : source[step.alias]);
  if (raw === undefined || raw === null) return null;
  const value = step.convert(raw);
  if (value === BAD) {
    throw new NormalisationError({
      resource: plan.resource,
      field: step.field.name,
      raw,
      expected: expectedOf(step.field),
      sensitive: step.field.sensitive,
    });
  }
  return value;
}

/** The object of nested prefix `prefix`: its fields as sent, then its known fields normalised. */
function nestedOf(
  plan: PlanFields,
  prefix: string,
  steps: readonly Step[],
  source: Record<string, unknown>,
): Record<string, unknown> {
  const inner = source[prefix];
  if (
    inner !== undefined && inner !== null && (typeof inner !== "object" || Array.isArray(inner))
  ) {
    throw new NormalisationError({
      resource: plan.resource,
      field: prefix,
      raw: inner,
      expected: "object",
    });
  }
  const innerSource = (inner ?? {}) as Record<string, unknown>;
  const target: Record<string, unknown> = {};
  for (const k of Object.keys(innerSource)) target[k] = innerSource[k];
  for (const step of steps) {
    const value = valueOf(plan, step, innerSource);
    target[step.key] = value;
    if (step.alias !== undefined) target[step.alias] = value;
  }
  return target;
}

/** A name an object literal cannot carry as a plain field in place (`__proto__`, indices). */
const awkward = (name: string) => name === "__proto__" || /^\d+$/.test(name);

/**
 * The builder of a resource's known fields. Items are made by one object literal generated for
 * the resource (every field present, always in the same order), so they share one hidden class
 * and stay in V8's fast mode; a field set one by one under a computed name leaves a large item in
 * dictionary mode, about three times the memory. Fields are read in plan order, so the first bad
 * value found is the one named, as before.
 */
function builderOf(plan: PlanFields): Plan["build"] {
  const slots = new Map<string, string>(); // field name -> expression; a later one wins in place
  plan.top.forEach((step, i) => {
    slots.set(step.key, `v${i}`);
    if (step.alias !== undefined) slots.set(step.alias, `v${i}`);
  });
  const prefixes = [...plan.nested.keys()];
  prefixes.forEach((prefix, j) => slots.set(prefix, `n${j}`));
  if ([...slots.keys()].some(awkward)) return (source) => buildByAssignment(plan, source);
  const reads = plan.top.map((_, i) => `const v${i} = read(plan, top[${i}], s);`);
  const nests = prefixes.map((p, j) =>
    `const n${j} = nested(plan, ${JSON.stringify(p)}, inner[${j}], s);`
  );
  const fields = [...slots].map(([name, expr]) => `${JSON.stringify(name)}: ${expr}`);
  const body = `return (s) => {\n${[...reads, ...nests].join("\n")}\nreturn { ${
    fields.join(", ")
  } };\n};`;
  const make = new Function("plan", "top", "inner", "read", "nested", body);
  return make(plan, plan.top, [...plan.nested.values()], valueOf, nestedOf);
}

/** The known fields set one by one (a resource with a field name a literal cannot hold). */
function buildByAssignment(
  plan: PlanFields,
  source: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const step of plan.top) {
    const value = valueOf(plan, step, source);
    out[step.key] = value;
    if (step.alias !== undefined) out[step.alias] = value;
  }
  for (const [prefix, steps] of plan.nested) out[prefix] = nestedOf(plan, prefix, steps, source);
  return out;
}

/** Whether `l` is a link as normalised: exactly `href`, `method` and `rel`, all strings. */
function isLink(l: unknown): boolean {
  if (l === null || typeof l !== "object") return false;
  const o = l as Record<string, unknown>;
  let fields = 0;
  for (const _ in o) fields++;
  return fields === 3 && typeof o.href === "string" && typeof o.method === "string" &&
    typeof o.rel === "string" && Object.getPrototypeOf(o) === Object.prototype;
}

/**
 * A link array as the API sends it (`_links` or `links`: an array of `{href, method, rel}`, or a
 * HAL-style object keyed by rel) as `Link[]`. `undefined` when absent.
 *
 * @example
 * ```ts
 * import { readLinks } from "./normalise.ts";
 * console.log(readLinks([{ href: "api/sam/v1/licenses/1", method: "GET", rel: "self" }]));
 * // [{ href: "api/sam/v1/licenses/1", method: "GET", rel: "self" }]
 * console.log(readLinks({ next: { href: "/api/x?page_number=2" } }));
 * // [{ href: "/api/x?page_number=2", method: "GET", rel: "next" }]
 * ```
 */
export function readLinks(raw: unknown): Link[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const one = (l: unknown, rel?: string): Link | undefined => {
    if (typeof l === "string") return { href: l, method: "GET", rel: rel ?? "" };
    if (!l || typeof l !== "object") return undefined;
    const o = l as Record<string, unknown>;
    if (typeof o.href !== "string") return undefined;
    return {
      href: o.href,
      method: typeof o.method === "string" ? o.method : "GET",
      rel: typeof o.rel === "string" ? o.rel : rel ?? "",
    };
  };
  if (Array.isArray(raw)) {
    // Links already in their normalised form (the common case) are kept, not copied.
    if (raw.every(isLink)) return raw as Link[];
    return raw.map((l) => one(l)).filter((l): l is Link => !!l);
  }
  if (typeof raw === "object") {
    const out: Link[] = [];
    for (const [rel, v] of Object.entries(raw)) {
      for (const l of Array.isArray(v) ? v : [v]) {
        const link = one(l, rel);
        if (link) out.push(link);
      }
    }
    return out;
  }
  return undefined;
}

/**
 * One API object as the normalised `Resource<N>` of the catalogue.
 *
 * @example
 * ```ts
 * import { normalise } from "./normalise.ts";
 * const license = normalise("License", {
 *   id: "L1", quantity: "12", purchaseValue: "99.5", purchaseDate: "3/7/2021 1:05:09 PM",
 *   _links: [{ href: "api/sam/v1/licenses/L1", method: "GET", rel: "self" }],
 * });
 * console.log(license.quantity, license.purchaseDate?.toISOString(), license.links?.[0]?.rel);
 * // 12 "2021-03-07T13:05:09.000Z" "self"
 * ```
 */
export function normalise<N extends ResourceName>(resource: N, raw: unknown): Resource<N> {
  return createNormaliser(resource)(raw);
}

/** Options of {@link createNormaliser}: where its items come from, for error messages. */
export interface NormaliserOptions {
  /** The operation whose answers it reads (`licenses.list`). */
  readonly operation?: string;
}

/** A short quoted form of an id for a message. */
function quoted(value: unknown): string {
  const text = JSON.stringify(String(value));
  return text.length > 60 ? `${text.slice(0, 56)}..."` : text;
}

/**
 * How a message names an item: by its `id`, else by its id-like fields (`licenseId`, …), with
 * its place in the answer (`item 3 of page 2`) when given.
 */
function itemName(plan: PlanFields, source: Record<string, unknown>, what?: string): string {
  const id = source.id;
  let name: string | undefined;
  if (typeof id === "string" || typeof id === "number") name = `item ${quoted(id)}`;
  else {
    const keys = plan.top.filter((s) => s.key.endsWith("Id") && !s.field.sensitive)
      .map((s) => s.key).filter((k) => typeof source[k] === "string").slice(0, 3);
    if (keys.length > 0) name = `item ${keys.map((k) => `${k} ${quoted(source[k])}`).join(", ")}`;
  }
  if (name === undefined) return what ?? "";
  return what === undefined ? name : `${name} (${what})`;
}

/**
 * A normaliser for one resource, with its per-field plan built once (for reading many items). A
 * value it cannot read throws `NormalisationError` naming `options.operation`, the item (its id,
 * and `what` the caller says it is: `item 3 of page 2`), the field and the value.
 *
 * @example
 * ```ts
 * import { createNormaliser } from "./normalise.ts";
 * const toComputer = createNormaliser("Computer");
 * console.log(toComputer({ id: "C1", isVirtual: "true" }).isVirtual); // true
 * const toLicense = createNormaliser("License", { operation: "licenses.list" });
 * try {
 *   toLicense({ id: "L1", quantity: "1e309" }, "item 3 of page 2");
 * } catch (e) {
 *   console.log((e as Error).message);
 *   // 'licenses.list: License.quantity of item "L1" (item 3 of page 2): cannot read "1e309" as a finite number of at most 9007199254740991 in magnitude'
 * }
 * ```
 */
export function createNormaliser<N extends ResourceName>(
  resource: N,
  options: NormaliserOptions = {},
): (raw: unknown, what?: string) => Resource<N> {
  const plan = planOf(resource);
  const operation = options.operation;
  return (raw, what) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new NormalisationError({
        resource,
        field: "(item)",
        raw,
        expected: "object",
        ...(operation ? { operation } : {}),
        ...(what ? { item: what } : {}),
      });
    }
    const source = raw as Record<string, unknown>;
    let out: Record<string, unknown>;
    try {
      out = plan.build(source);
    } catch (error) {
      throw error instanceof NormalisationError ? named(error, plan, source, options, what) : error;
    }
    // `for…in` walks a parsed object's keys without making an array of them per item.
    for (const k in source) {
      if (!plan.known.has(k) && Object.hasOwn(source, k)) out[k] = source[k];
    }
    const links = readLinks(source._links ?? source.links);
    if (links) out.links = links;
    return out as Resource<N>;
  };
}

/** A field's error again, naming the operation and the item. */
function named(
  error: NormalisationError,
  plan: PlanFields,
  source: Record<string, unknown>,
  options: NormaliserOptions,
  what: string | undefined,
): NormalisationError {
  const item = itemName(plan, source, what);
  return new NormalisationError({
    resource: error.resource,
    field: error.field,
    raw: error.raw,
    expected: error.expected,
    sensitive: RESOURCES[plan.resource].byName.get(error.field)?.sensitive ?? false,
    ...(options.operation ? { operation: options.operation } : {}),
    ...(item ? { item } : {}),
  });
}
