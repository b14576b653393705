/**
 * Helpers for render tests: a strict RFC 4180 parser, folder listings and failing sections.
 *
 * @module
 */

import type { Row } from "../../lib/report/model.ts";
import type { RenderDocument, RenderSection } from "../../lib/render/renderer.ts";
import { memorySection } from "../../lib/report/spool.ts";

/** Parses RFC 4180 text (CRLF records, quoted fields) strictly; throws on malformed input. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  let fieldStart = true;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        if (i < text.length && text[i] !== "," && text[i] !== "\r") {
          throw new Error(`character after closing quote at ${i}`);
        }
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (!fieldStart) throw new Error(`quote inside unquoted field at ${i}`);
      quoted = true;
      fieldStart = false;
      i++;
    } else if (c === ",") {
      record.push(field);
      field = "";
      fieldStart = true;
      i++;
    } else if (c === "\r") {
      if (text[i + 1] !== "\n") throw new Error(`bare CR at ${i}`);
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      fieldStart = true;
      i += 2;
    } else if (c === "\n") {
      throw new Error(`bare LF outside quotes at ${i}`);
    } else {
      field += c;
      fieldStart = false;
      i++;
    }
  }
  if (quoted) throw new Error("unterminated quoted field");
  if (!fieldStart || record.length > 0) throw new Error("last record lacks CRLF");
  return records;
}

const made: string[] = [];

/** A fresh temp folder, removed by {@link removeTempDirs}. */
export async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "samkit-render-test-" });
  made.push(dir);
  return dir;
}

/** Removes every folder {@link tempDir} made (call from a top-level `after`). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(
    made.splice(0).map((dir) => Deno.remove(dir, { recursive: true }).catch(() => {})),
  );
}

/** The names in a folder, sorted. */
export async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/**
 * A document of one report `r` (title "R", generated at the epoch, no parameters or summary)
 * holding only `section`: what a renderer test needs around the section it is about.
 */
export function oneSectionDoc(section: RenderSection): RenderDocument {
  return sectionsDoc([section]);
}

/**
 * A section "Rows" of `count` rows numbered from 1 in one integer column: the smallest table a
 * print can be measured on.
 *
 * @example Usage
 * ```ts
 * import { numberedSection } from "./helpers.ts";
 *
 * console.assert(numberedSection(3).rowCount === 3);
 * ```
 */
export function numberedSection(count: number): RenderSection {
  return memorySection({
    id: "rows",
    title: "Rows",
    columns: [{ key: "n", label: "N", type: "integer" }],
    rows: Array.from({ length: count }, (_, i) => ({ n: i + 1 })),
  });
}

/**
 * A document of one report `r` (as {@link oneSectionDoc}) holding `sections` in that order.
 *
 * @example Usage
 * ```ts
 * import { sectionsDoc } from "./helpers.ts";
 *
 * console.assert(sectionsDoc([]).report.id === "r");
 * ```
 */
export function sectionsDoc(sections: RenderSection[]): RenderDocument {
  return {
    report: { id: "r", title: "R", description: "" },
    generatedAt: new Date(0),
    source: "s",
    params: {},
    summary: [],
    version: "0",
    sections,
  };
}

/** A row of {@link requirementPerDevice}: an install's application, computer and requirement. */
export interface DeviceRequirement {
  /** The application's name. */
  application: string;
  /** The computer's host name. */
  computer: string;
  /** Its requirement. */
  requirement: number;
}

/**
 * A document of one section shaped as license-position's "Requirement per device" (Application,
 * Computer, Requirement) holding `rows` in the order given: the section a PDF cap picks from.
 *
 * @example Usage
 * ```ts
 * import { requirementPerDevice } from "./helpers.ts";
 *
 * const doc = requirementPerDevice([{ application: "A", computer: "PC-1", requirement: 1 }]);
 * console.assert(doc.sections[0].id === "devices");
 * ```
 */
export function requirementPerDevice(rows: DeviceRequirement[]): RenderDocument {
  return oneSectionDoc(memorySection({
    id: "devices",
    title: "Requirement per device",
    columns: [
      { key: "application", label: "Application", type: "text" },
      { key: "computer", label: "Computer", type: "text" },
      { key: "requirement", label: "Requirement", type: "integer" },
    ],
    rows: rows.map((r) => ({ ...r })),
  }));
}

/** A section whose rows fail after `good` rows (on every read). */
export function failingSection(base: RenderSection, good: number): RenderSection {
  return {
    ...base,
    rows(): AsyncIterable<Row> {
      return {
        async *[Symbol.asyncIterator]() {
          let n = 0;
          for await (const row of base.rows()) {
            if (n++ >= good) throw new Error("row source failed");
            yield row;
          }
          throw new Error("row source failed");
        },
      };
    },
  };
}
