/**
 * Audit packs: read and check a pack file, run it into an evidence folder with a checksummed
 * manifest, verify a folder's manifest later, replay a recorded snapshot, and run packs on a
 * schedule. Re-exports only.
 *
 * @example Check a pack against the built-in reports, and when its schedule runs next
 * ```ts
 * import { nextRuns, validatePack } from "./pack.ts";
 * import { REPORTS } from "./reports.ts";
 *
 * const pack = validatePack(
 *   { name: "weekly", reports: [{ id: "stale-computers", formats: ["csv"] }] },
 *   { file: "weekly.json", reports: REPORTS },
 * );
 * console.log(pack.reports.length); // 1
 * console.log(nextRuns("0 6 * * 1", "UTC", new Date("2026-01-01T00:00:00Z"), 1));
 * // [2026-01-05T06:00:00.000Z]
 * ```
 *
 * @module
 */

export {
  DEFAULT_MAX_ATTACHMENT_BYTES,
  type PackEmail,
  type PackFile,
  PackFileError,
  type PackReport,
  type PackSchedule,
  readPackFile,
  validatePack,
  type ValidatePackOptions,
} from "./lib/pack/pack_file.ts";
export type { ManifestSigner } from "./lib/pack/sign.ts";
export type { PackSign } from "./lib/pack/pack_sign.ts";
export type { PackDiff } from "./lib/pack/pack_diff.ts";
export type { SecretRef } from "./lib/tenants/tenants_file.ts";
export {
  type PackRunResult,
  printSummaryPdf,
  runFolderName,
  runPack,
  type RunPackOptions,
} from "./lib/pack/run_pack.ts";
export {
  type Manifest,
  type ManifestFile,
  type ManifestKey,
  type ManifestModule,
  type ManifestReport,
  readManifest,
  verifyManifest,
} from "./lib/pack/manifest.ts";
export {
  openSnapshot,
  SnapshotFileError,
  type SnapshotMeta,
  SnapshotMissError,
  type SnapshotReplay,
} from "./lib/pack/snapshot.ts";
export { CronError, nextRuns, runSchedule, type ScheduleOptions } from "./lib/pack/schedule.ts";
export type { Change, Figure } from "./lib/pack/figures.ts";
export type { Comparison } from "./lib/pack/comparison.ts";
export type { ConvertedTotals, Headline, Optimisation, PurchaseNeed } from "./lib/pack/headline.ts";
export type { SourceOptions } from "./lib/cli/source.ts";
