/**
 * Test support: organisation and metric names read from the reference server's raw JSON with
 * plain `fetch` (no samkit client), to check the names the reports show independently.
 *
 * @module
 */

import { rawAll, type RawApi, REGISTRY } from "./raw_api.ts";

/** The organisation tree of the public service. */
export const ORGANIZATIONS = "/api/organizations/v1";

/**
 * Organisation names by id from the raw tree (`{"nodes": [...]}`), checked to be unique so a
 * report's label is the plain name.
 *
 * @example
 * ```ts ignore
 * const names = await rawOrganizationNames(api);
 * console.log(names.get("ORG07"));
 * ```
 */
export async function rawOrganizationNames(api: RawApi): Promise<Map<string, string>> {
  const res = await fetch(`${api.url}${ORGANIZATIONS}/tree`, {
    headers: { authorization: `Bearer ${api.token}` },
  });
  const body = await res.json();
  if (res.status !== 200) {
    throw new Error(`the tree answered ${res.status}: ${JSON.stringify(body)}`);
  }
  const names = new Map<string, string>(
    (body.nodes as { id: string; name: string }[]).map((n) => [n.id, n.name]),
  );
  if (new Set(names.values()).size !== names.size) throw new Error("organisation names repeat");
  return names;
}

/** The label a report gives an organisation id: its raw name, the id, or `(no organization)`. */
export function rawOrganizationLabel(names: Map<string, string>, id: string | null): string {
  return id ? names.get(id) ?? id : "(no organization)";
}

/**
 * Metric names of the given applications from the raw registry, keyed `<app>/<metric>`.
 *
 * @example
 * ```ts ignore
 * const metrics = await rawMetricNames(api, ["APP0009"]);
 * console.log(metrics.get("APP0009/MET02"));
 * ```
 */
export async function rawMetricNames(
  api: RawApi,
  applicationIds: Iterable<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const app of new Set(applicationIds)) {
    for (const m of await rawAll(api, `${REGISTRY}/applications/${app}/metrics`)) {
      out.set(`${app}/${m.id}`, m.name);
    }
  }
  return out;
}
