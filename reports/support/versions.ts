/**
 * The registry's `version` is a field of the spec only: the public service's registry sends no
 * version (its application names carry it). A Version column is therefore shown only when the
 * registry in use sent a version for at least one application the report lists; otherwise the
 * column, and the rows' `version` key, are left out rather than printed empty.
 *
 * @module
 */

import type { Row, Section } from "../../lib/report/model.ts";

/** A section whose rows are already read. */
export type ReadSection = Section & { readonly rows: readonly Row[] };

/**
 * The sections, each without its `version` column and row key when it has rows and none of
 * them has a version; unchanged otherwise. Rows must be arrays (already read).
 *
 * @example
 * ```ts
 * import { versionWhenSent } from "./versions.ts";
 * const [section] = versionWhenSent([{
 *   id: "apps",
 *   title: "Applications",
 *   columns: [
 *     { key: "application", label: "Application", type: "text" },
 *     { key: "version", label: "Version", type: "text" },
 *   ],
 *   rows: [{ application: "Office Standard 2019", version: null }],
 * }]);
 * console.log(section?.columns.map((c) => c.key)); // ["application"]
 * ```
 */
export function versionWhenSent(sections: readonly ReadSection[]): ReadSection[] {
  return sections.map((section) => {
    const sent = section.rows.some((r) => r.version !== null && r.version !== undefined);
    if (sent || section.rows.length === 0) return section;
    return {
      ...section,
      columns: section.columns.filter((c) => c.key !== "version"),
      rows: section.rows.map(({ version: _version, ...rest }) => rest),
    };
  });
}
