/**
 * Columns the source did not fill. A column declared `whenUnfilled: "drop"` shows a field one
 * service sends and another does not (the spec's registry has a `version`, the public service's
 * has none): when its section has rows and no row has a value in it, the column is left out of
 * every format and the section says why, instead of printing an empty column on every row.
 *
 * @module
 */

import type { Column, Row } from "./model.ts";

/** A column left out because no row had a value in it. */
export interface OmittedColumn {
  /** The column's row key. */
  readonly key: string;
  /** The column's header label. */
  readonly label: string;
  /** The sentence that explains it (shown with the section's description). */
  readonly note: string;
}

/** What {@link UnfilledColumns.result} gives: the columns shown and those left out. */
export interface UnfilledResult {
  /** The columns to show, in display order. */
  readonly columns: readonly Column[];
  /** The columns left out (empty when none). */
  readonly omitted: readonly OmittedColumn[];
}

const filled = (v: unknown) => v !== null && v !== undefined && v !== "";

/**
 * Watches the droppable columns of a section while its rows pass.
 *
 * @example
 * ```ts
 * import { UnfilledColumns } from "./unfilled.ts";
 * const columns = [
 *   { key: "application", label: "Application", type: "text" as const },
 *   { key: "version", label: "Version", type: "text" as const, whenUnfilled: "drop" as const },
 * ];
 * const watch = new UnfilledColumns(columns);
 * watch.add({ application: "Visio 2019", version: null });
 * const { columns: shown, omitted } = watch.result();
 * console.log(shown.map((c) => c.key), omitted[0]?.note);
 * // ["application"] "Version: not shown, the source sent no value for it on any row."
 * ```
 */
export class UnfilledColumns {
  #columns: readonly Column[];
  #watched: Set<string>;
  #rows = 0;

  /** @param columns The section's columns. */
  constructor(columns: readonly Column[]) {
    this.#columns = columns;
    this.#watched = new Set(columns.filter((c) => c.whenUnfilled === "drop").map((c) => c.key));
  }

  /** Counts a row; a watched column with a value in it is kept. */
  add(row: Row): void {
    this.#rows++;
    if (this.#watched.size === 0) return;
    for (const key of this.#watched) if (filled(row[key])) this.#watched.delete(key);
  }

  /** The columns to show and those left out (none when the section has no rows). */
  result(): UnfilledResult {
    if (this.#rows === 0 || this.#watched.size === 0) {
      return { columns: this.#columns, omitted: [] };
    }
    const gone = this.#watched;
    return {
      columns: this.#columns.filter((c) => !gone.has(c.key)),
      omitted: this.#columns.filter((c) => gone.has(c.key)).map((c) => ({
        key: c.key,
        label: c.label,
        note: `${c.label}: not shown, the source sent no value for it on any row.`,
      })),
    };
  }
}

/**
 * A section's description with the notes of its omitted columns after it.
 *
 * @example
 * ```ts
 * import { describeOmitted } from "./unfilled.ts";
 * console.log(describeOmitted("Installs.", [{ key: "v", label: "Version", note: "Version: not shown." }]));
 * // "Installs. Version: not shown."
 * ```
 */
export function describeOmitted(
  description: string | undefined,
  omitted: readonly OmittedColumn[],
): string | undefined {
  if (omitted.length === 0) return description;
  return [description, ...omitted.map((o) => o.note)].filter((t) => t).join(" ");
}
