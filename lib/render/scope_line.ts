/**
 * The scope of a run in one line, for what a single printed page must say on its own (the PDF's
 * running footer): which organisation (by name, with its id) and which filter the figures cover,
 * or that they cover the whole estate. A page torn out of an organisation's report never reads as
 * the whole estate's.
 *
 * @module
 */

import type { RenderDocument } from "./renderer.ts";
import { visibleText } from "./format.ts";

/**
 * An organisation as a person reads it: its name with its id (`Contoso EMEA / IT (ORG07)`), or
 * the id alone when no name is known.
 *
 * @example
 * ```ts
 * import { labelledValue } from "./scope_line.ts";
 * console.log(labelledValue("ORG07", "Contoso EMEA / IT")); // Contoso EMEA / IT (ORG07)
 * console.log(labelledValue("ORG99", undefined)); // ORG99
 * ```
 */
export function labelledValue(value: string, label: string | undefined): string {
  return label && label !== value ? `${label} (${value})` : value;
}

/**
 * The scope line of a document: `Organisation: <name> (<id>)` when it is limited to one,
 * `Filter: <filter>` when it is filtered (both, joined by `; `), else `Whole estate`.
 *
 * @example
 * ```ts
 * import { scopeLine } from "./scope_line.ts";
 * console.log(scopeLine({
 *   scope: {
 *     parameters: [{
 *       name: "organization", description: "", value: "ORG07", origin: "given",
 *       label: "Contoso EMEA / IT",
 *     }],
 *     filter: "publisher -eq 'Adobe Inc.'",
 *   },
 *   params: {},
 * })); // Organisation: Contoso EMEA / IT (ORG07); Filter: publisher -eq 'Adobe Inc.'
 * console.log(scopeLine({ params: {} })); // Whole estate
 * ```
 */
export function scopeLine(doc: Pick<RenderDocument, "scope" | "params">): string {
  const parts: string[] = [];
  const organization = doc.scope?.parameters.find((p) =>
    p.name === "organization" && p.origin !== "unset" && p.value !== undefined && p.value !== null
  );
  const value = organization?.value ?? doc.params.organization;
  if (typeof value === "string" && value.trim() !== "") {
    parts.push(`Organisation: ${labelledValue(value.trim(), organization?.label)}`);
  }
  if (doc.scope?.filter) parts.push(`Filter: ${doc.scope.filter}`);
  return visibleText(parts.length > 0 ? parts.join("; ") : "Whole estate");
}
