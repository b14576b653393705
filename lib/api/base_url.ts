/**
 * Where the API lives: the base URL and the path prefix of each area.
 *
 * The spec gives the base address as `https://{region}.<host>` and hides the host. samkit does
 * not guess it: give a full `baseUrl` (or `SAM_BASE_URL`), or a region plus the host (`SAM_REGION`
 * and `SAM_HOST`, or the options `region` and `host`).
 *
 * The registry prefix is `softwareregistry` in the spec and `software-registry` on the public
 * service. Unless one is configured (option `registryPrefix`, `--registry-prefix` or
 * `SAM_REGISTRY_PREFIX`), a client tries the public spelling first and the spec's on a 404, and
 * keeps the one that answers ({@link registryPrefixes}). The connector prefix is this project's
 * choice (option `connectorsPrefix` or `SAM_CONNECTORS_PREFIX`).
 *
 * @module
 */

import { NotFoundError } from "./errors.ts";
import { type Area, AREA_PREFIX } from "./operations.ts";
import { parseBase } from "./same_origin.ts";

/** Options that locate the API. Options win over the environment. */
export interface BaseUrlOptions {
  /** The full base URL (`https://eu.example.com`, `http://127.0.0.1:8080`). */
  readonly baseUrl?: string;
  /** The data region, used with `host` when no base URL is given. */
  readonly region?: string;
  /** The host under which regions live (`https://{region}.{host}`). */
  readonly host?: string;
  /**
   * The registry's path segment: `software-registry` (the public service's spelling) or
   * `softwareregistry` (the spec's), or a whole prefix starting with `/`. Unset: detected.
   */
  readonly registryPrefix?: string;
  /** The connector area's path prefix (default `/api/cloud-cost/v1`). */
  readonly connectorsPrefix?: string;
  /** Reads an environment variable; default `Deno.env.get`, `undefined` without permission. */
  readonly env?: (name: string) => string | undefined;
}

/**
 * Reads an environment variable, or `undefined` when it is unset, empty or env access is denied.
 *
 * @example
 * ```ts
 * import { readEnv } from "./base_url.ts";
 * console.log(readEnv("SAM_BASE_URL") ?? "not set");
 * ```
 */
export function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The base URL: option `baseUrl`, else `SAM_BASE_URL`, else `https://{region}.{host}` from the
 * options or `SAM_REGION` and `SAM_HOST`. No trailing slash. Throws a `TypeError` saying what to
 * set when nothing locates the API, or when the URL is not http(s), carries credentials, or
 * carries a query string or fragment (never echoing the query or fragment: either may hold a
 * secret, and dropping it silently would hide that samkit does not send it).
 *
 * @example
 * ```ts
 * import { resolveBaseUrl } from "./base_url.ts";
 * console.log(resolveBaseUrl({ region: "eu", host: "sam.example.com", env: () => undefined }));
 * // "https://eu.sam.example.com"
 * console.log(resolveBaseUrl({ baseUrl: "http://127.0.0.1:8080/" })); // "http://127.0.0.1:8080"
 * ```
 */
export function resolveBaseUrl(options: BaseUrlOptions = {}): string {
  const env = options.env ?? readEnv;
  let raw = options.baseUrl ?? env("SAM_BASE_URL");
  if (!raw) {
    const region = options.region ?? env("SAM_REGION");
    const host = options.host ?? env("SAM_HOST");
    if (region && host) {
      if (!/^[a-z0-9-]+$/i.test(region)) {
        throw new TypeError(`SAM region "${region}" is not a valid host label`);
      }
      raw = `https://${region}.${host.replace(/^https?:\/\//, "").replace(/\/+$/, "")}`;
    } else if (region) {
      throw new TypeError(
        "SAM_REGION is set but the host is not: set SAM_HOST (the host under which regions " +
          "live, https://{region}.{host}) or give the full SAM_BASE_URL",
      );
    } else {
      throw new TypeError(
        "The API's address is not set: give baseUrl, or set SAM_BASE_URL, or SAM_REGION and " +
          "SAM_HOST",
      );
    }
  }
  return parseBase(raw).href.replace(/\/+$/, "");
}

/**
 * The path prefix of each area, with the registry and connector prefixes as configured.
 *
 * @example
 * ```ts
 * import { areaPrefixes } from "./base_url.ts";
 * const p = areaPrefixes({ registryPrefix: "software-registry", env: () => undefined });
 * console.log(p.registry); // "/api/sam/software-registry/v1"
 * ```
 */
export function areaPrefixes(options: BaseUrlOptions = {}): Readonly<Record<Area, string>> {
  const env = options.env ?? readEnv;
  const registry = options.registryPrefix ?? env("SAM_REGISTRY_PREFIX");
  const connectors = options.connectorsPrefix ?? env("SAM_CONNECTORS_PREFIX");
  return {
    estate: AREA_PREFIX.estate,
    licenses: AREA_PREFIX.licenses,
    registry: registry === undefined ? AREA_PREFIX.registry : registryPath(registry),
    connectors: connectors === undefined ? AREA_PREFIX.connectors : trimSlash(connectors),
    organizations: AREA_PREFIX.organizations,
  };
}

/**
 * The registry prefix of the public service (`software-registry`, its own documents' spelling).
 *
 * @example
 * ```ts
 * import { REAL_REGISTRY_PREFIX } from "./base_url.ts";
 * console.log(REAL_REGISTRY_PREFIX); // "/api/sam/software-registry/v1"
 * ```
 */
export const REAL_REGISTRY_PREFIX = "/api/sam/software-registry/v1";

/**
 * The registry prefix as the spec spells it (`softwareregistry`, the operation table's).
 *
 * @example
 * ```ts
 * import { SPEC_REGISTRY_PREFIX } from "./base_url.ts";
 * console.log(SPEC_REGISTRY_PREFIX); // "/api/sam/softwareregistry/v1"
 * ```
 */
export const SPEC_REGISTRY_PREFIX: string = AREA_PREFIX.registry;

/** Where the registry prefix in use came from. */
export type RegistryPrefixOrigin = "option" | "environment" | "detected";

/** The registry prefixes to try, in order, and where they came from. */
export interface RegistryPrefixes {
  /** One prefix when configured; the public then the spec spelling when detected. */
  readonly candidates: readonly string[];
  /** `option` (`registryPrefix`, the CLI flag), `environment` or `detected`. */
  readonly origin: RegistryPrefixOrigin;
}

/**
 * The registry prefixes a client tries: the configured one alone (option `registryPrefix`, else
 * `SAM_REGISTRY_PREFIX`), or, with neither, the public service's spelling and then the spec's.
 * Throws a `TypeError` naming the setting for a value that is not a path segment or a path.
 *
 * @example
 * ```ts
 * import { registryPrefixes } from "./base_url.ts";
 * console.log(registryPrefixes({ env: () => undefined }).candidates);
 * // ["/api/sam/software-registry/v1", "/api/sam/softwareregistry/v1"]
 * console.log(registryPrefixes({ registryPrefix: "softwareregistry" }));
 * // { candidates: ["/api/sam/softwareregistry/v1"], origin: "option" }
 * ```
 */
export function registryPrefixes(options: BaseUrlOptions = {}): RegistryPrefixes {
  const env = options.env ?? readEnv;
  const fromOption = options.registryPrefix;
  const raw = fromOption ?? env("SAM_REGISTRY_PREFIX");
  if (raw === undefined || raw.trim() === "") {
    return { candidates: [REAL_REGISTRY_PREFIX, SPEC_REGISTRY_PREFIX], origin: "detected" };
  }
  const origin = fromOption === undefined ? "environment" : "option";
  if (!/^[\w./-]+$/.test(raw.trim())) {
    const name = origin === "option" ? "registryPrefix" : "SAM_REGISTRY_PREFIX";
    throw new TypeError(
      `${name} "${raw.slice(0, 80)}" is not a path segment (software-registry) or a path ` +
        "(/api/sam/software-registry/v1)",
    );
  }
  return { candidates: [registryPath(raw.trim())], origin };
}

/** A registry setting as a prefix: a segment goes into `/api/sam/{segment}/v1`. */
function registryPath(setting: string): string {
  return setting.startsWith("/") ? trimSlash(setting) : `/api/sam/${setting}/v1`;
}

function trimSlash(prefix: string): string {
  const p = prefix.replace(/\/+$/, "");
  return p.startsWith("/") ? p : `/${p}`;
}

/**
 * The registry prefix of one client: fixed when configured, else detected on the first registry
 * request that settles it. A request is tried under the public spelling first; on a 404 it is
 * tried under the spec's, and whichever answers is kept for the rest of the client's life. A 404
 * under both (an unknown id) settles nothing and throws the first 404. Registry requests made
 * while a detection is under way wait for it, so it happens once.
 *
 * @example
 * ```ts
 * import { RegistryPrefix, registryPrefixes } from "./base_url.ts";
 * import { NotFoundError } from "./errors.ts";
 * const prefix = new RegistryPrefix(registryPrefixes({ env: () => undefined }));
 * const answer = await prefix.use((p) =>
 *   p.includes("software-registry")
 *     ? Promise.reject(new NotFoundError({ status: 404, method: "GET", path: p, message: "" }))
 *     : Promise.resolve(`read ${p}`)
 * );
 * console.log(answer, prefix.describe()); // "read /api/sam/softwareregistry/v1" "/api/sam/softwareregistry/v1 (detected)"
 * ```
 */
export class RegistryPrefix {
  #candidates: readonly string[];
  #origin: RegistryPrefixOrigin;
  #chosen: string | undefined;
  #detecting: Promise<unknown> | undefined;
  #tried = false;

  /**
   * Holds a registry prefix and how it may change.
   *
   * @param prefixes The candidates and their origin, from {@link registryPrefixes}.
   *
   * @example
   * ```ts
   * import { RegistryPrefix } from "./base_url.ts";
   * const fixed = new RegistryPrefix({ candidates: ["/reg/v1"], origin: "option" });
   * console.log(fixed.current, fixed.settled); // "/reg/v1" true
   * ```
   */
  constructor(prefixes: RegistryPrefixes) {
    if (prefixes.candidates.length === 0) throw new RangeError("no registry prefix to try");
    this.#candidates = prefixes.candidates;
    this.#origin = prefixes.origin;
    if (prefixes.candidates.length === 1) this.#chosen = prefixes.candidates[0];
  }

  /**
   * The prefix in use: the settled one, else the first to be tried.
   *
   * @example
   * ```ts
   * import { RegistryPrefix, registryPrefixes } from "./base_url.ts";
   * console.log(new RegistryPrefix(registryPrefixes({ env: () => undefined })).current);
   * // "/api/sam/software-registry/v1"
   * ```
   */
  get current(): string {
    return this.#chosen ?? this.#candidates[0]!;
  }

  /**
   * Whether the prefix is settled (configured, or detected by a registry request that answered).
   *
   * @example
   * ```ts
   * import { RegistryPrefix, registryPrefixes } from "./base_url.ts";
   * console.log(new RegistryPrefix(registryPrefixes({ env: () => undefined })).settled); // false
   * ```
   */
  get settled(): boolean {
    return this.#chosen !== undefined;
  }

  /**
   * The prefix and where it came from, for `--verbose`: `… (detected)`, `… (set by option)`,
   * `… (SAM_REGISTRY_PREFIX)`, `… (not detected: no registry read was made)`, or
   * `… (not detected: no registry request answered)` when every spelling gave a 404.
   *
   * @example
   * ```ts
   * import { RegistryPrefix } from "./base_url.ts";
   * const p = new RegistryPrefix({ candidates: ["/r/v1"], origin: "environment" });
   * console.log(p.describe()); // "/r/v1 (SAM_REGISTRY_PREFIX)"
   * ```
   */
  describe(): string {
    const how = this.#origin === "environment"
      ? "SAM_REGISTRY_PREFIX"
      : this.#origin === "option"
      ? "set by option"
      : this.settled
      ? "detected"
      : this.#tried
      ? "not detected: no registry request answered"
      : "not detected: no registry read was made";
    return `${this.current} (${how})`;
  }

  /**
   * Runs one registry request under the prefix in use, detecting it first when unsettled.
   *
   * @example
   * ```ts
   * import { RegistryPrefix } from "./base_url.ts";
   * const p = new RegistryPrefix({ candidates: ["/r/v1"], origin: "option" });
   * console.log(await p.use((prefix) => Promise.resolve(`${prefix}/applications`)));
   * // "/r/v1/applications"
   * ```
   */
  async use<T>(attempt: (prefix: string) => Promise<T>): Promise<T> {
    while (this.#chosen === undefined && this.#detecting !== undefined) {
      await this.#detecting.catch(() => undefined);
    }
    if (this.#chosen !== undefined) return await attempt(this.#chosen);
    this.#tried = true;
    const run = this.#detect(attempt);
    this.#detecting = run;
    try {
      return await run;
    } finally {
      if (this.#detecting === run) this.#detecting = undefined;
    }
  }

  async #detect<T>(attempt: (prefix: string) => Promise<T>): Promise<T> {
    let first: unknown;
    for (const prefix of this.#candidates) {
      try {
        const result = await attempt(prefix);
        this.#chosen = prefix;
        return result;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        first ??= error;
      }
    }
    throw first;
  }
}
