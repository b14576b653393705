/**
 * Which files a pack's email attaches: `summary.pdf` always, then what `email.attach` names — a
 * report id (its PDF), `<report>.<format>` (that report's files of the format) — in order, while
 * the total stays within `email.maxAttachmentBytes`. What does not fit is linked: the body names
 * it and points to the evidence folder.
 *
 * @module
 */

import { basename } from "node:path";

/** The summary PDF's file name in the run folder. */
export const SUMMARY_PDF = "summary.pdf";

/** An attachment chosen, or a file linked instead. */
export interface ChosenFile {
  /** The file name shown. */
  readonly filename: string;
  /** The path relative to the run folder. */
  readonly path: string;
  /** Its size in bytes. */
  readonly bytes: number;
}

/** The attachments of a message and the files linked instead. */
export interface AttachmentChoice {
  /** Attached, in order (summary.pdf first). */
  readonly attached: readonly ChosenFile[];
  /** Asked for but over the size cap: in the evidence folder, linked from the body. */
  readonly linked: readonly ChosenFile[];
}

/**
 * The run folder's files one `email.attach` entry names: `summary.pdf`, a report id (its PDF),
 * or `<report>.<format>` (its files of that format).
 *
 * @example
 * ```ts
 * import { filesOfEntry } from "./attachments.ts";
 * const manifest = { reports: [{ id: "r", files: ["r.pdf", "r.json"] }] };
 * console.log(filesOfEntry("r.json", manifest)); // ["r.json"]
 * ```
 */
export function filesOfEntry(
  entry: string,
  manifest: { readonly reports: readonly { id: string; files: readonly string[] }[] },
): string[] {
  if (entry === SUMMARY_PDF) return [SUMMARY_PDF];
  const report = manifest.reports.find((r) => r.id === entry) ??
    manifest.reports.find((r) => entry.startsWith(`${r.id}.`));
  if (!report) return [];
  const format = report.id === entry ? "pdf" : entry.slice(report.id.length + 1);
  return report.files.filter((f) => f.endsWith(`.${format}`));
}

/**
 * Chooses the attachments: summary.pdf first, then each entry's files in order while the total
 * stays within `maxBytes`; files that would pass it are linked instead.
 *
 * @example
 * ```ts
 * import { chooseAttachments } from "./attachments.ts";
 * const manifest = {
 *   reports: [{ id: "r", files: ["r.pdf"] }],
 *   files: [{ path: "summary.pdf", bytes: 40 }, { path: "r.pdf", bytes: 900 }],
 * };
 * const choice = chooseAttachments(["r"], manifest, 500);
 * console.log(choice.linked.map((f) => f.filename)); // ["r.pdf"]
 * ```
 */
export function chooseAttachments(
  attach: readonly string[],
  manifest: {
    readonly reports: readonly { id: string; files: readonly string[] }[];
    readonly files: readonly { path: string; bytes: number }[];
  },
  maxBytes: number,
): AttachmentChoice {
  const paths = [SUMMARY_PDF, ...attach.flatMap((e) => filesOfEntry(e, manifest))];
  const attached: ChosenFile[] = [];
  const linked: ChosenFile[] = [];
  let total = 0;
  for (const path of [...new Set(paths)]) {
    const bytes = manifest.files.find((f) => f.path === path)?.bytes ?? 0;
    const file = { filename: basename(path), path, bytes };
    if (path === SUMMARY_PDF || total + bytes <= maxBytes) {
      attached.push(file);
      total += bytes;
    } else linked.push(file);
  }
  return { attached, linked };
}

/**
 * The link to a run's evidence folder under `evidenceUrl` (where the output root is published),
 * or null without one: a `file://` link to the machine that ran the pack opens nothing for a
 * recipient.
 *
 * @example
 * ```ts
 * import { evidenceLink } from "./attachments.ts";
 * console.log(evidenceLink("/srv/out/packs/weekly/2026-11-23T0600Z", "https://files.test/packs"));
 * // "https://files.test/packs/weekly/2026-11-23T0600Z/"
 * console.log(evidenceLink("/srv/out/packs/weekly/2026-11-23T0600Z")); // null
 * ```
 */
export function evidenceLink(folder: string, evidenceUrl?: string): string | null {
  if (!evidenceUrl) return null;
  const parts = folder.split("/").filter(Boolean).slice(-2).map(encodeURIComponent);
  return `${evidenceUrl.replace(/\/+$/, "")}/${parts.join("/")}/`;
}
