/**
 * The rows of `samkit doctor` about the service rather than one area: the registry path the
 * client detected, the wire dialect, the page size the service accepts, the rate-limit headers
 * it sends and how far its clock is from this machine's.
 *
 * @module
 */

import type { SamClient } from "../api/client.ts";
import { MAX_PAGE_SIZE } from "../api/client.ts";
import { RESOURCES } from "../api/catalogue.ts";
import { AREA_PREFIX } from "../api/operations.ts";
import type { ResponseObserver } from "./doctor_observer.ts";
import { type DoctorRow, errorLine, genericFix, statusAt } from "./doctor_row.ts";

/** The largest clock difference that is only a `ok` (tokens expire by the service's clock). */
export const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * The registry path row: the prefix the client settled on and how.
 *
 * @example
 * ```ts ignore
 * console.log(registryPathRow(client, true).detail); // "/api/sam/software-registry/v1 (detected)"
 * ```
 */
export function registryPathRow(client: SamClient, registryAnswered: boolean): DoctorRow {
  if (!registryAnswered) {
    return { check: "registry path", status: "skip", detail: "needs the registry read above" };
  }
  return { check: "registry path", status: "ok", detail: client.registryPrefix.describe() };
}

/**
 * The wire dialect of one raw license: `spec` when a field the spec sends as text (numbers,
 * booleans, `M/d/yyyy` dates) comes as text, `real` when such fields come typed, `undefined`
 * when the item has none of them.
 *
 * @example
 * ```ts
 * import { dialectOf } from "./doctor_service_rows.ts";
 * console.log(dialectOf({ quantity: "5", purchaseDate: "1/2/2024 3:04:05 PM" })); // "spec"
 * console.log(dialectOf({ quantity: 5, purchaseDate: "2024-01-02T15:04:05Z" })); // "real"
 * ```
 */
export function dialectOf(raw: Record<string, unknown>): "spec" | "real" | undefined {
  let quirk = false;
  let typed = false;
  for (const field of RESOURCES.License.fields) {
    const value = raw[field.name];
    if (!field.wire || value === null || value === undefined) continue;
    const asText = field.wire === "string"
      ? typeof value === "string"
      : typeof value === "string" && /^\d{1,2}\/\d{1,2}\/\d{4}\b/.test(value);
    if (asText) quirk = true;
    else typed = true;
  }
  return quirk ? "spec" : typed ? "real" : undefined;
}

const DIALECT_TEXT = {
  spec: "the spec's: numbers and booleans as text, license dates as M/d/yyyy h:mm:ss AM",
  real: "the public service's: typed numbers and booleans, RFC 3339 dates",
};

/**
 * The dialect row, from one raw license (samkit reads either dialect; the row says which).
 *
 * @example
 * ```ts ignore
 * console.log((await dialectRow(client, true)).detail);
 * ```
 */
export async function dialectRow(client: SamClient, licensesAnswered: boolean): Promise<DoctorRow> {
  if (!licensesAnswered) {
    return { check: "dialect", status: "skip", detail: "needs the licenses read above" };
  }
  try {
    const res = await client.request({
      path: `${AREA_PREFIX.licenses}/licenses`,
      query: { page_size: 1, page_number: 1 },
    });
    const item = (res.body as { items?: unknown[] } | null)?.items?.[0];
    const dialect = item && typeof item === "object"
      ? dialectOf(item as Record<string, unknown>)
      : undefined;
    return {
      check: "dialect",
      status: "ok",
      detail: dialect
        ? DIALECT_TEXT[dialect]
        : "not seen (no license to look at); samkit reads both",
    };
  } catch (error) {
    return {
      check: "dialect",
      status: "warn",
      detail: `${statusAt(error)}: ${errorLine(error)}`,
      fix: genericFix(error),
    };
  }
}

/**
 * The page size row: one page of the extended coverage types (a short license collection) at
 * the spec's maximum, and the page size the service says is in force. A refusal stops every
 * report (they all ask for the maximum); a smaller size in force is fine (paging follows it).
 *
 * @example
 * ```ts ignore
 * console.log((await pageSizeRow(client, true)).detail); // "page_size=1000 accepted"
 * ```
 */
export async function pageSizeRow(
  client: SamClient,
  licensesAnswered: boolean,
): Promise<DoctorRow> {
  const check = "page size";
  if (!licensesAnswered) return { check, status: "skip", detail: "needs the licenses read above" };
  try {
    const res = await client.request({
      path: `${AREA_PREFIX.licenses}/licenses-extended-coverage-types`,
      query: { page_size: MAX_PAGE_SIZE, page_number: 1 },
    });
    const stated = (res.body as { pagination?: { page_size?: unknown } } | null)?.pagination
      ?.page_size;
    const size = typeof stated === "string" ? Number(stated) : stated;
    if (typeof size !== "number" || !Number.isFinite(size)) {
      return {
        check,
        status: "ok",
        detail: `page_size=${MAX_PAGE_SIZE} accepted (size in force not stated)`,
      };
    }
    return size >= MAX_PAGE_SIZE
      ? { check, status: "ok", detail: `page_size=${MAX_PAGE_SIZE} accepted` }
      : {
        check,
        status: "ok",
        detail:
          `page_size=${MAX_PAGE_SIZE} clamped to ${size}: samkit pages by what the service states`,
      };
  } catch (error) {
    return {
      check,
      status: "FAIL",
      detail: `${statusAt(error)}: page_size=${MAX_PAGE_SIZE} (the spec's maximum, which every ` +
        `report asks for) was not accepted: ${errorLine(error)}`,
      fix: genericFix(error),
    };
  }
}

/**
 * The rate-limit row: which rate-limit headers the responses carried.
 *
 * @example
 * ```ts
 * import { ResponseObserver } from "./doctor_observer.ts";
 * import { rateLimitRow } from "./doctor_service_rows.ts";
 * console.log(rateLimitRow(new ResponseObserver()).detail);
 * ```
 */
export function rateLimitRow(observer: ResponseObserver): DoctorRow {
  const names = observer.rateLimitHeaders;
  return {
    check: "rate-limit headers",
    status: "ok",
    detail: names.length
      ? names.join(", ")
      : "none seen (samkit slows down on 429 and waits as its Retry-After asks)",
  };
}

/**
 * The clock row: the service's `Date` against this machine's clock; over
 * {@link MAX_CLOCK_SKEW_MS} apart is a warning.
 *
 * @example
 * ```ts
 * import { ResponseObserver } from "./doctor_observer.ts";
 * import { clockRow } from "./doctor_service_rows.ts";
 * console.log(clockRow(new ResponseObserver()).status); // "warn"
 * ```
 */
export function clockRow(observer: ResponseObserver): DoctorRow {
  const check = "clock skew";
  const skew = observer.lastDated?.skewMs;
  if (skew === undefined) {
    return {
      check,
      status: "warn",
      detail: "no response carried a Date header: the clocks could not be compared",
      fix: "make sure this machine's clock is set by NTP (tokens expire by the service's clock)",
    };
  }
  const seconds = Math.round(Math.abs(skew) / 1000);
  const side = skew > 0 ? "behind" : "ahead of";
  if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS) {
    return {
      check,
      status: "ok",
      detail: `within ${Math.max(seconds, 1)} s of the service's clock`,
    };
  }
  return {
    check,
    status: "warn",
    detail: `this machine's clock is ${seconds} s ${side} the service's`,
    fix: "set this machine's clock by NTP: tokens expire by the service's clock, and reports " +
      'date their data ("as of", ages) by this machine\'s',
  };
}
