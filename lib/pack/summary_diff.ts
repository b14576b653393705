/**
 * The summary's "what moved, row by row" section, for a pack with a diff: what changed since the
 * previous run counted (computers, installs, licenses), then one line per position whose
 * shortfall or surplus changed, with the installs and licenses that moved it — as many as the
 * pack's `diff.mailRows`, the rest counted with the file that lists them all — or why no
 * comparison was made. The mail's HTML and text parts and summary.pdf all show it (one view).
 *
 * @module
 */

import type { RowDiff, RowDiffCounts } from "./run_row_diff.ts";
import type { ViewSection } from "./summary_view.ts";

/** The heading of the section's table of moved positions. */
export const MOVED_ROWS_HEADING = "Position: before → now: what moved it";

const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** What changed, counted, in one sentence (what did not change left out). */
function countsLine(c: RowDiffCounts): string {
  const parts = [
    c.computersAdded ? `${plural(c.computersAdded, "computer")} added` : "",
    c.computersRemoved ? `${plural(c.computersRemoved, "computer")} removed` : "",
    c.installsAppeared ? `${plural(c.installsAppeared, "install")} appeared` : "",
    c.installsDisappeared ? `${plural(c.installsDisappeared, "install")} disappeared` : "",
    c.licensesAdded ? `${plural(c.licensesAdded, "license")} added` : "",
    c.licensesRemoved ? `${plural(c.licensesRemoved, "license")} removed` : "",
    c.licensesChanged ? `${plural(c.licensesChanged, "license")} changed` : "",
  ].filter(Boolean);
  const moved = c.positions
    ? `${plural(c.positions, "position")} moved`
    : "no position's shortfall or surplus changed";
  return parts.length ? `${parts.join(", ")}; ${moved}.` : `No computer, install or license ` +
    `changed; ${moved}.`;
}

/** Whether anything changed between the runs. */
const changed = (c: RowDiffCounts) => Object.values(c).some((n) => n > 0);

/** The file a reader opens for every row: the PDF when written, else the first file. */
function fullFile(diff: RowDiff): string {
  return diff.files.find((f) => f.toLowerCase().endsWith(".pdf")) ?? diff.files[0] ?? "run-diff";
}

/**
 * The section (see the module doc), or null when the pack has no diff.
 *
 * @example
 * ```ts
 * import { rowDiffSection } from "./summary_diff.ts";
 * const section = rowDiffSection({
 *   status: "not made",
 *   previous: null,
 *   note: "Not compared row by row: this is the pack's first finished run.",
 *   files: [],
 *   counts: {
 *     positions: 0, computersAdded: 0, computersRemoved: 0, installsAppeared: 0,
 *     installsDisappeared: 0, licensesAdded: 0, licensesRemoved: 0, licensesChanged: 0,
 *   },
 *   lines: [],
 *   mailRows: 10,
 * }, null);
 * console.log(section?.intro); // ["Not compared row by row: this is the pack's first finished run."]
 * ```
 */
export function rowDiffSection(
  diff: RowDiff | undefined,
  comparedWith: string | null,
): ViewSection | null {
  if (!diff) return null;
  const base = { id: "rows", tables: [], notes: [], link: null };
  if (diff.status !== "made") {
    return { ...base, heading: "What moved, row by row", intro: [diff.note ?? ""] };
  }
  const since = comparedWith ? ` since ${comparedWith}` : "";
  const shown = diff.lines.slice(0, diff.mailRows);
  const more = diff.lines.length - shown.length;
  const file = fullFile(diff);
  const cell = (text: string) => ({ text, numeric: false, bad: false, good: false });
  return {
    ...base,
    heading: `What moved, row by row${since}`,
    intro: [countsLine(diff.counts)],
    tables: shown.length
      ? [{
        caption: "",
        columns: [cell(MOVED_ROWS_HEADING)],
        rows: shown.map((line) => [cell(line)]),
        after: more ? [`and ${more.toLocaleString("en-US")} more — see ${file}`] : [],
      }]
      : [],
    notes: [
      ...(!shown.length && more ? [`${plural(more, "position")} moved — see ${file}`] : []),
      changed(diff.counts)
        ? `Every computer, install and license that changed: ${diff.files.join(", ")} in the ` +
          "evidence folder."
        : `The two runs compared: ${diff.files.join(", ")} in the evidence folder.`,
    ],
  };
}
