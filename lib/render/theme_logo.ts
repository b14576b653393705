/**
 * A theme's logo: read like every file a user names (its real path inside the task's roots, a
 * regular file, size-capped), accepted only as PNG, JPEG or SVG by its bytes, and embedded as a
 * `data:` URI, so a report that shows it makes no request. An SVG is shown as an image (`<img>`),
 * where it runs no script and loads nothing; on top of that, an SVG holding a script, a foreign
 * object, an event handler, an entity declaration or any reference outside itself is refused.
 *
 * @module
 */

import { extname } from "node:path";
import { checkContained } from "../fs/containment.ts";
import { readProblem, readRegularFile } from "../fs/regular_file.ts";

/** The largest logo file accepted, in bytes (256 KiB). */
export const MAX_LOGO_BYTES = 256 * 1024;

/** The image types a logo may have. */
export type LogoType = "image/png" | "image/jpeg" | "image/svg+xml";

/**
 * A logo ready to embed.
 *
 * @example
 * ```ts
 * import type { ThemeLogo } from "./theme_logo.ts";
 * const logo: ThemeLogo = {
 *   file: "logo.png",
 *   type: "image/png",
 *   bytes: new Uint8Array(),
 *   dataUri: "data:image/png;base64,",
 * };
 * console.log(logo.type);
 * ```
 */
export interface ThemeLogo {
  /** The path as the theme resolved it. */
  readonly file: string;
  /** Its image type, from its bytes. */
  readonly type: LogoType;
  /** The file's bytes. */
  readonly bytes: Uint8Array;
  /** `data:<type>;base64,<bytes>`: the image with nothing to fetch. */
  readonly dataUri: string;
}

/**
 * A logo that cannot be used: what is wrong and, for an SVG, the line.
 *
 * @example
 * ```ts
 * import { LogoError } from "./theme_logo.ts";
 * const e = new LogoError("logo.svg", "an SVG logo may not hold <script>", 3);
 * console.log(e.message); // logo.svg:3: an SVG logo may not hold <script>
 * ```
 */
export class LogoError extends Error {
  /** The logo file. */
  readonly file: string;
  /** The line of the problem (an SVG's), if known. */
  readonly line?: number;
  /**
   * Builds the error from the file, the problem and its line.
   *
   * @param file The logo file.
   * @param problem What is wrong and what to do.
   * @param line The line of the problem, if known.
   */
  constructor(file: string, problem: string, line?: number) {
    super(`${file}${line ? `:${line}` : ""}: ${problem}`);
    this.name = "LogoError";
    this.file = file;
    this.line = line;
  }
}

const EXTENSIONS: Readonly<Record<string, LogoType>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".svg": "image/svg+xml",
};

/** What an SVG logo may not hold, with what to say. */
const SVG_REFUSED: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /<\s*script\b/i, what: "a <script>" },
  { pattern: /<\s*foreignObject\b/i, what: "a <foreignObject>" },
  { pattern: /<\s*(?:iframe|embed|object|image|feImage|audio|video)\b/i, what: "embedded content" },
  { pattern: /<!\s*(?:DOCTYPE|ENTITY)\b/i, what: "a DOCTYPE or entity declaration" },
  { pattern: /<\?\s*xml-stylesheet\b/i, what: "an xml-stylesheet" },
  { pattern: /\son[a-z]+\s*=/i, what: "an event handler attribute (on…=)" },
  { pattern: /\bhref\s*=\s*(?!["']?\s*#)/i, what: "a link to something outside itself" },
  { pattern: /\burl\s*\(\s*(?!["']?\s*#)/i, what: "a url() outside itself" },
  { pattern: /@import\b/i, what: "an @import" },
  { pattern: /javascript\s*:/i, what: "a javascript: address" },
];

/** The image type the bytes say, or undefined. */
function sniff(bytes: Uint8Array): LogoType | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((b, i) => bytes[i] === b)) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, "");
  const start = head.replace(/^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/i, "");
  // A DOCTYPE is taken as SVG here, to be refused by name (entities) rather than by type.
  return /^<(?:svg[\s>/]|!DOCTYPE\s+svg\b)/i.test(start) ? "image/svg+xml" : undefined;
}

/**
 * The first thing an SVG's text may not hold, with its line, or undefined when it holds none.
 *
 * @example
 * ```ts
 * import { svgProblem } from "./theme_logo.ts";
 * console.log(svgProblem('<svg>\n<a href="https://x.test">x</a></svg>'));
 * // { line: 2, what: "a link to something outside itself" }
 * console.log(svgProblem('<svg><use href="#a"/></svg>')); // undefined
 * ```
 */
export function svgProblem(text: string): { line: number; what: string } | undefined {
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    for (const { pattern, what } of SVG_REFUSED) {
      if (pattern.test(line)) return { line: i + 1, what };
    }
  }
  // A tag spread over lines: look at the whole text too (the line is then the first one's).
  for (const { pattern, what } of SVG_REFUSED) {
    const at = text.search(pattern);
    if (at >= 0) return { line: text.slice(0, at).split("\n").length, what };
  }
  return undefined;
}

/** Base64 of bytes (in slices, so a large file does not overflow the argument list). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The logo's bytes, read under the containment and regular-file rules. */
async function readLogoBytes(path: string): Promise<Uint8Array> {
  checkContained(path, { what: "theme logo" });
  try {
    return await readRegularFile(path, { maxBytes: MAX_LOGO_BYTES });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new LogoError(path, "no such file");
    if (e instanceof RangeError) {
      throw new LogoError(path, `is larger than ${MAX_LOGO_BYTES / 1024} KiB: use a smaller image`);
    }
    throw new LogoError(path, readProblem(e));
  }
}

/**
 * Reads a logo: PNG, JPEG or SVG (by its bytes, matching its extension), at most
 * {@link MAX_LOGO_BYTES}; an SVG holding anything {@link svgProblem} finds is refused. Throws
 * {@link LogoError} naming the file (and an SVG's line), or `ContainmentError` for a path that
 * leads outside the task's folders.
 *
 * @example
 * ```ts
 * import { readLogo } from "./theme_logo.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/logo.svg`, '<svg xmlns="http://www.w3.org/2000/svg"/>');
 * const logo = await readLogo(`${dir}/logo.svg`);
 * console.log(logo.type, logo.dataUri.startsWith("data:image/svg+xml;base64,"));
 * // image/svg+xml true
 * ```
 */
export async function readLogo(path: string): Promise<ThemeLogo> {
  const expected = EXTENSIONS[extname(path).toLowerCase()];
  if (!expected) throw new LogoError(path, "a logo must be a .png, .jpg, .jpeg or .svg file");
  const bytes = await readLogoBytes(path);
  const type = sniff(bytes);
  if (type !== expected) {
    const found = type ? `its bytes are ${type}` : "its bytes are not PNG, JPEG or SVG";
    throw new LogoError(path, `is not a ${expected} image (${found})`);
  }
  if (type === "image/svg+xml") {
    const problem = svgProblem(new TextDecoder().decode(bytes));
    if (problem) {
      throw new LogoError(
        path,
        `an SVG logo may not hold ${problem.what}: remove it, or give a PNG`,
        problem.line,
      );
    }
  }
  return { file: path, type, bytes, dataUri: `data:${type};base64,${base64(bytes)}` };
}
