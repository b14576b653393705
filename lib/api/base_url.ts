/**
 * Where the API lives: the base URL and the path prefix of each area.
 *
 * The spec gives the base address as `https://{region}.<host>` and hides the host. samkit does
 * not guess it: give a full `baseUrl` (or `SAM_BASE_URL`), or a region plus the host (`SAM_REGION`
 * and `SAM_HOST`, or the options `region` and `host`).
 *
 * The registry prefix is `softwareregistry` in the spec and `software-registry` in the public
 * service's documents (option `registryPrefix` or `SAM_REGISTRY_PREFIX`); the connector prefix is
 * this project's choice (option `connectorsPrefix` or `SAM_CONNECTORS_PREFIX`).
 *
 * @module
 */

import { type Area, AREA_PREFIX } from "./operations.ts";

/** Options that locate the API. Options win over the environment. */
export interface BaseUrlOptions {
  /** The full base URL (`https://eu.example.com`, `http://127.0.0.1:8080`). */
  readonly baseUrl?: string;
  /** The data region, used with `host` when no base URL is given. */
  readonly region?: string;
  /** The host under which regions live (`https://{region}.{host}`). */
  readonly host?: string;
  /**
   * The registry's path segment: `softwareregistry` (default, the spec's spelling) or
   * `software-registry` (the public service's), or a whole prefix starting with `/`.
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
 * set when nothing locates the API, or when the URL is not http(s).
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`The API base URL "${raw}" is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`The API base URL must be http(s), not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new TypeError("The API base URL must not carry credentials");
  }
  url.search = "";
  url.hash = "";
  return url.href.replace(/\/+$/, "");
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
    registry: registry === undefined
      ? AREA_PREFIX.registry
      : registry.startsWith("/")
      ? trimSlash(registry)
      : `/api/sam/${registry}/v1`,
    connectors: connectors === undefined ? AREA_PREFIX.connectors : trimSlash(connectors),
  };
}

function trimSlash(prefix: string): string {
  const p = prefix.replace(/\/+$/, "");
  return p.startsWith("/") ? p : `/${p}`;
}
