/**
 * Verifying a finished run folder as an auditor would: every file the manifest lists is there,
 * a regular file, with its size and SHA-256; no file is there that the manifest does not list
 * (but `manifest.json` and `manifest.sig`); the signature holds for the key
 * (`verify_signature.ts`); and, when asked, every report file re-renders the same from the run's
 * snapshot (`rerender_run.ts`). Nothing is ever written into the run folder, and every file is
 * read as a regular file inside it (a FIFO or a link planted there is named, never followed or
 * waited on).
 *
 * @module
 */

import { join } from "node:path";
import type { Manifest, ManifestFile, ManifestReport } from "./manifest.ts";
import { SIGNATURE_FILE, toHex } from "./sign.ts";
import { checkSignature, type SignatureCheck } from "./verify_signature.ts";
import type { RerenderResult } from "./rerender_run.ts";
import type { RunRates } from "./summary_rates.ts";
import type { ReportDefinition } from "../report/model.ts";
import type { Theme } from "../render/theme.ts";
import { checkContained, checkSubfolder } from "../fs/containment.ts";
import { fileKind, readProblem, readRegularFile } from "../fs/regular_file.ts";

/** The manifest's own name in the run folder. */
const MANIFEST_FILE = "manifest.json";
/** The snapshot's name in the run folder. */
const SNAPSHOT_FILE = "snapshot.sqlite";
/** The most entries a run folder may hold before verify stops walking it. */
const MAX_ENTRIES = 100_000;
/** The deepest sub-folder verify walks into. */
const MAX_DEPTH = 16;
/** The largest manifest read. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** A file of the run that fails, and why. */
export interface VerifyFinding {
  /** The file, relative to the run folder. */
  readonly file: string;
  /**
   * What fails: `missing`, `changed`, `unlisted`, `not a regular file`, `bad path`,
   * `not a manifest`, `signature` (bad signature, wrong key, missing, not signed),
   * `re-render differs` or `cannot re-render`.
   */
  readonly problem: string;
  /** Why, for a person. */
  readonly detail: string;
}

/** What verifying a run found. */
export interface RunVerification {
  /** The run folder. */
  readonly dir: string;
  /** Whether everything holds. */
  readonly ok: boolean;
  /** Every file that fails, with why. */
  readonly findings: readonly VerifyFinding[];
  /** The files whose size and SHA-256 are the manifest's. */
  readonly matched: number;
  /** The manifest, when it could be read. */
  readonly manifest?: Manifest;
  /** The signature check, when the manifest could be read. */
  readonly signature?: SignatureCheck;
  /** The re-render, when asked for and possible. */
  readonly rerender?: RerenderResult;
}

/** Options of {@link verifyRunFolder}. */
export interface VerifyRunOptions {
  /** The run folder. */
  readonly dir: string;
  /** The public key file to check the signature with (else `SAMKIT_PUBLIC_KEY`, else found). */
  readonly publicKey?: string;
  /** Re-render every report from the snapshot and compare. */
  readonly rerender?: boolean;
  /** The report catalogue (for the re-render; default none). */
  readonly reports?: readonly ReportDefinition[];
  /** The theme the run was made with (for the re-render). */
  readonly theme?: Theme;
  /** Reads a variable (default `Deno.env.get`). */
  readonly env?: (name: string) => string | undefined;
}

/**
 * A run folder verify cannot work on (bad input, exit 2): it does not exist, is not a folder, or
 * `--rerender` was asked of a run without a snapshot.
 *
 * @example
 * ```ts
 * import { RunFolderError } from "./verify_run.ts";
 * console.log(new RunFolderError("out/packs/x/2026-11-22T0600Z", "does not exist").message);
 * ```
 */
export class RunFolderError extends Error {
  /**
   * @param dir The run folder given.
   * @param problem What is wrong.
   */
  constructor(dir: string, problem: string) {
    super(`run folder ${dir} ${problem}`);
    this.name = "RunFolderError";
  }
}

/** What is at each path below the run folder: `file`, `folder`, or what else it is. */
type Inventory = Map<string, string>;

async function walk(dir: string, inventory: Inventory, prefix = "", depth = 0): Promise<void> {
  for await (const entry of Deno.readDir(prefix ? join(dir, prefix) : dir)) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (inventory.size >= MAX_ENTRIES) {
      throw new RunFolderError(dir, `holds more than ${MAX_ENTRIES} entries`);
    }
    if (entry.isDirectory) {
      if (depth >= MAX_DEPTH) throw new RunFolderError(dir, `nests folders past ${MAX_DEPTH} deep`);
      inventory.set(rel, "folder");
      await walk(dir, inventory, rel, depth + 1);
    } else if (entry.isFile) inventory.set(rel, "file");
    else inventory.set(rel, fileKind(await Deno.lstat(join(dir, rel))));
  }
}

/** Whether a manifest path names a file inside the run folder (relative, no `.`/`..` step). */
function insidePath(path: string): boolean {
  if (!path || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((step) => step !== "" && step !== "." && step !== "..");
}

/** The manifest's shape as verify needs it, or what is wrong with it. */
function manifestProblem(value: unknown): string | null {
  const m = value as Partial<Manifest> | null;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return "not a JSON object";
  if (!Array.isArray(m.files)) return "no files list";
  if (!Array.isArray(m.reports)) return "no reports list";
  for (const [i, r] of (m.reports as unknown[]).entries()) {
    const module = (r as Partial<ManifestReport> | null)?.module;
    if (module === undefined) continue;
    if (typeof module?.path !== "string" || !insidePath(module.path)) {
      return `reports[${i}].module.path is not a path inside the project folder`;
    }
    if (typeof module.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(module.sha256)) {
      return `reports[${i}].module.sha256 is not a hex SHA-256`;
    }
  }
  for (const [i, f] of (m.files as unknown[]).entries()) {
    const file = f as Partial<ManifestFile> | null;
    if (typeof file?.path !== "string") return `files[${i}].path is not a path`;
    if (!Number.isSafeInteger(file.bytes)) return `files[${i}].bytes is not a size`;
    if (typeof file.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(file.sha256)) {
      return `files[${i}].sha256 is not a hex SHA-256`;
    }
  }
  return null;
}

/** Reads a file of the run folder: really inside it, a regular file, never waited on. */
function runFileReader(dir: string): (rel: string) => Promise<Uint8Array<ArrayBuffer>> {
  return async (rel) => {
    const path = join(dir, rel);
    checkSubfolder(dir, path, "run file", "read");
    return await readRegularFile(path);
  };
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** What the checksum pass keeps for the re-render. */
interface Checked {
  matched: number;
  snapshot?: Uint8Array;
  summary?: Uint8Array;
}

/** Checks every file the manifest lists against the folder. */
async function checkListed(
  dir: string,
  manifest: Manifest,
  inventory: Inventory,
  findings: VerifyFinding[],
): Promise<Checked> {
  const read = runFileReader(dir);
  const checked: Checked = { matched: 0 };
  const seen = new Set<string>();
  for (const file of manifest.files) {
    const path = file.path;
    if (!insidePath(path) || path === MANIFEST_FILE || path === SIGNATURE_FILE) {
      findings.push({
        file: MANIFEST_FILE,
        problem: "bad path",
        detail: `lists ${JSON.stringify(path)}, not a file of the run folder`,
      });
      continue;
    }
    if (seen.has(path)) {
      findings.push({ file: path, problem: "bad path", detail: "listed twice in the manifest" });
      continue;
    }
    seen.add(path);
    const kind = inventory.get(path);
    if (kind === undefined) {
      findings.push({
        file: path,
        problem: "missing",
        detail: "listed in the manifest, not there",
      });
      continue;
    }
    if (kind !== "file") {
      findings.push({ file: path, problem: "not a regular file", detail: `is a ${kind}` });
      continue;
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await read(path);
    } catch (e) {
      findings.push({ file: path, problem: "not a regular file", detail: readProblem(e) });
      continue;
    }
    const sha256 = await sha256Hex(bytes);
    if (sha256 !== file.sha256 || bytes.length !== file.bytes) {
      findings.push({
        file: path,
        problem: "changed",
        detail: `${bytes.length} bytes with SHA-256 ${sha256}; the manifest says ${file.bytes} ` +
          `bytes with SHA-256 ${file.sha256}`,
      });
      continue;
    }
    checked.matched++;
    if (path === SNAPSHOT_FILE) checked.snapshot = bytes;
    if (path === "summary.json") checked.summary = bytes;
  }
  for (const [path, kind] of inventory) {
    if (kind === "folder" || seen.has(path)) continue;
    if (path === MANIFEST_FILE || path === SIGNATURE_FILE) continue;
    const what = kind === "file" ? "there, not listed in the manifest" : `a ${kind} there`;
    findings.push({ file: path, problem: "unlisted", detail: what });
  }
  return checked;
}

/** The reporting-currency rates `summary.json` states, if any. */
function ratesOf(summary: Uint8Array | undefined): RunRates | undefined {
  if (!summary) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(summary));
    return parsed?.reportingCurrency ?? undefined;
  } catch {
    return undefined;
  }
}

/** The folder verify reads: there, a folder, really inside the task's folders. */
async function checkFolder(dir: string): Promise<void> {
  checkContained(dir, { what: "run folder" });
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch (e) {
    throw new RunFolderError(
      dir,
      e instanceof Deno.errors.NotFound ? "does not exist" : readProblem(e),
    );
  }
  if (!info.isDirectory) throw new RunFolderError(dir, `is a ${fileKind(info)}, not a folder`);
}

/** The manifest's bytes and parsed value, or the finding that says why there is none. */
async function readManifestOf(
  dir: string,
  inventory: Inventory,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; manifest: Manifest } | VerifyFinding> {
  const kind = inventory.get(MANIFEST_FILE);
  if (kind === undefined) {
    return { file: MANIFEST_FILE, problem: "missing", detail: "no manifest: not a pack run" };
  }
  if (kind !== "file") return { file: MANIFEST_FILE, problem: "not a regular file", detail: kind };
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readRegularFile(join(dir, MANIFEST_FILE), { maxBytes: MAX_MANIFEST_BYTES });
  } catch (e) {
    return { file: MANIFEST_FILE, problem: "not a regular file", detail: readProblem(e) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (e) {
    return { file: MANIFEST_FILE, problem: "not a manifest", detail: (e as Error).message };
  }
  const problem = manifestProblem(parsed);
  if (problem) return { file: MANIFEST_FILE, problem: "not a manifest", detail: problem };
  return { bytes, manifest: parsed as Manifest };
}

/**
 * Verifies a run folder; never writes into it. Throws {@link RunFolderError} (bad input) when it
 * is no folder, or `rerender` is asked of a run that has no snapshot.
 *
 * @example
 * ```ts
 * import { verifyRunFolder } from "./verify_run.ts";
 * import { checksumFolder, writeManifest } from "./manifest.ts";
 * const dir = await Deno.makeTempDir(); // a run folder
 * await Deno.writeTextFile(`${dir}/report.csv`, "a,b\n1,2\n");
 * await writeManifest(dir, {
 *   pack: "weekly",
 *   status: "complete",
 *   started: "2026-11-22T06:00:00Z",
 *   finished: "2026-11-22T06:01:00Z",
 *   source: "demo",
 *   samkitVersion: "0.1.0",
 *   parameters: {},
 *   reports: [],
 *   files: await checksumFolder(dir),
 * });
 * const env = () => undefined;
 * console.log((await verifyRunFolder({ dir, env })).ok); // true
 * await Deno.writeTextFile(`${dir}/extra.csv`, "x\n");
 * console.log((await verifyRunFolder({ dir, env })).findings);
 * // [{ file: "extra.csv", problem: "unlisted", detail: "there, not listed in the manifest" }]
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function verifyRunFolder(options: VerifyRunOptions): Promise<RunVerification> {
  const { dir } = options;
  await checkFolder(dir);
  const inventory: Inventory = new Map();
  await walk(dir, inventory);
  const read = await readManifestOf(dir, inventory);
  if ("problem" in read) return { dir, ok: false, findings: [read], matched: 0 };
  const { manifest, bytes } = read;
  const listsSnapshot = manifest.files.some((f) => f.path === SNAPSHOT_FILE);
  if (options.rerender && !listsSnapshot && !inventory.has(SNAPSHOT_FILE)) {
    throw new RunFolderError(
      dir,
      `has no ${SNAPSHOT_FILE}: --rerender needs a run made with deno task pack --snapshot`,
    );
  }
  const findings: VerifyFinding[] = [];
  const signature = await checkSignature({
    dir,
    manifestBytes: bytes,
    manifest,
    publicKey: options.publicKey,
    env: options.env,
  });
  if (signature.state === "failed") {
    findings.push({ file: signature.file!, problem: "signature", detail: signature.detail });
  }
  const checked = await checkListed(dir, manifest, inventory, findings);
  let rerender: RerenderResult | undefined;
  if (options.rerender) {
    if (!checked.snapshot) {
      findings.push({
        file: SNAPSHOT_FILE,
        problem: "cannot re-render",
        detail: "the snapshot does not match the manifest (see above)",
      });
    } else {
      // The re-render (report code, renderers, browser) loads only when asked for.
      const { rerenderRun } = await import("./rerender_run.ts");
      rerender = await rerenderRun({
        manifest,
        snapshot: checked.snapshot,
        rates: ratesOf(checked.summary),
        reports: options.reports ?? [],
        theme: options.theme,
        readRunFile: runFileReader(dir),
      });
      findings.push(...rerender.findings);
    }
  }
  return {
    dir,
    ok: findings.length === 0,
    findings,
    matched: checked.matched,
    manifest,
    signature,
    ...(rerender ? { rerender } : {}),
  };
}
