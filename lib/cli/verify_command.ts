/**
 * `samkit verify RUN_FOLDER`: checks a pack's run folder as an auditor would — every file listed
 * with its checksum, nothing unlisted, the signature, and with `--rerender` every report file
 * re-rendered the same from the run's snapshot — and prints one line per check and per failing
 * file. Reads only; exit 0 only when everything holds.
 *
 * @module
 */

import { parseArgs, stringFlag } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { clip, printOut } from "./terminal_text.ts";
import { themeFlag } from "./theme_flag.ts";
import { type RunVerification, verifyRunFolder } from "../pack/verify_run.ts";
import { PUBLIC_KEY_ENV } from "../pack/verify_signature.ts";
import { PUBLIC_KEY_FILE } from "../pack/sign.ts";
import { VERSION } from "../version.ts";

/** The help text of `samkit verify`. */
export const VERIFY_HELP = `Usage: deno task verify <run-folder> [options]

Checks a pack's run folder (<output>/<pack>/<YYYY-MM-DDTHHMMZ>/) without changing it:
every file manifest.json lists is there with its size and SHA-256, no file is there that it
does not list (but manifest.json and manifest.sig), and manifest.sig is a valid Ed25519
signature of manifest.json's exact bytes by the key the manifest names.

Options:
  --public-key FILE  The signer's public key (PEM); else the file ${PUBLIC_KEY_ENV} names; else
                     ${PUBLIC_KEY_FILE} in the pack folder (the run folder's parent). A key
                     given (flag or variable) makes a signature required: an unsigned run fails
  --rerender         Also re-render every report from the run's snapshot.sqlite (a run made
                     with --snapshot) into a temp folder and compare: each file byte-identical,
                     an XLSX part by part (its zip's file times aside)
  --theme FILE       The theme the run was made with, for --rerender
  -h, --help         This help

Exit codes: 0 every check holds, 1 a file fails (each named with why: missing, changed,
unlisted, bad signature, wrong key, re-render differs), 2 bad usage or no such run folder.`;

/** A line of the report: a label in a column of its own, then the text. */
const line = (label: string, text: string) => `${label.padEnd(10)} ${text}`;

/** The lines that say what was checked and what holds. */
function summaryLines(result: RunVerification, rerender: boolean): string[] {
  const m = result.manifest;
  if (!m) return [];
  const lines = [
    line("run", `${m.pack}, ${m.status}, started ${m.started}, samkit ${m.samkitVersion}`),
    line("source", clip(m.source, 200)),
  ];
  const fileFails = result.findings.some((f) =>
    ["missing", "changed", "unlisted", "not a regular file", "bad path"].includes(f.problem)
  );
  const listed = `${result.matched} of ${m.files.length} listed match their size and SHA-256`;
  lines.push(
    line("files", fileFails ? `FAILS (below): ${listed}` : `ok: ${listed}; none unlisted`),
  );
  const s = result.signature;
  if (s) {
    const text = s.state === "valid"
      ? `ok: ${s.detail}`
      : s.state === "unsigned"
      ? s.detail
      : "FAILS (below)";
    lines.push(line("signature", text));
  }
  if (rerender && result.rerender) {
    const r = result.rerender;
    const counts = `${r.identical} files byte-identical` +
      (r.sameParts ? `, ${r.sameParts} XLSX identical part by part` : "") +
      " from snapshot.sqlite" +
      (r.notReports.length ? `; not report files: ${clip(r.notReports.join(", "), 200)}` : "");
    lines.push(line("re-render", r.findings.length ? `FAILS (below): ${counts}` : `ok: ${counts}`));
    if (r.findings.length && m.samkitVersion !== VERSION) {
      lines.push(line("note", `the run was made by samkit ${m.samkitVersion}; this is ${VERSION}`));
    }
  }
  return lines;
}

/**
 * Runs `samkit verify` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { verifyCommand } from "./verify_command.ts";
 * Deno.exit(await verifyCommand(["out/packs/weekly-audit/2026-11-22T0600Z", "--rerender"]));
 * ```
 */
export async function verifyCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, {
      "public-key": { type: "string" },
      rerender: { type: "boolean" },
      theme: { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      console.log(VERIFY_HELP);
      return 0;
    }
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length
          ? `expected one run folder, got ${clip(positionals.join(" "))}`
          : "which run folder? e.g. out/packs/weekly-audit/2026-11-22T0600Z",
      );
    }
    const rerender = values.rerender === true;
    const theme = await themeFlag(stringFlag(values, "theme"));
    const result = await verifyRunFolder({
      dir: positionals[0],
      publicKey: stringFlag(values, "public-key"),
      rerender,
      // The report catalogue (and the renderers) load only for a re-render.
      reports: rerender ? (await import("../../reports/mod.ts")).REPORTS : [],
      theme,
    });
    printOut(line("verify", result.dir));
    for (const line of summaryLines(result, rerender)) printOut(line);
    for (const f of result.findings) printOut(line("FAIL", `${f.file}: ${f.problem}: ${f.detail}`));
    const failing = new Set(result.findings.map((f) => f.file)).size;
    printOut(
      result.ok ? "verified" : `NOT VERIFIED: ${failing} file${failing === 1 ? "" : "s"} fail`,
    );
    return result.ok ? 0 : 1;
  } catch (error) {
    return reportError(error);
  }
}
