/**
 * Assembles a PDF from parts printed separately (Chrome prints long documents in chunks): copies
 * the pages of each part in order, keeps every part's named destinations (so links and bookmarks
 * reach pages of other parts), stamps a running header and a "Page X of Y" footer numbered over
 * the WHOLE document, builds a document outline (bookmarks) from named destinations, and sets the
 * document's metadata.
 *
 * Chrome writes a named destination (`/Dests` in the catalog) for every element id that some
 * `<a href="#id">` in the printed HTML points at (even a link inside `display: none`), and writes
 * internal links as `/Dest /<id>`. Merging the parts' destinations into one `/Dests` dictionary
 * makes those links work across parts, and lets the outline point at section headings wherever
 * they were printed.
 *
 * @module
 */

import {
  type PDFArray,
  PDFDict,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  rgb,
  StandardFonts,
} from "pdf-lib";

/**
 * A bookmark: a title and the named destination it opens, with optional children.
 *
 * @example
 * ```ts
 * import type { OutlineItem } from "./pdf_merge.ts";
 * const outline: OutlineItem[] = [
 *   { title: "Cover", page: 0 },
 *   { title: "Licences", dest: "section-1-licences" },
 * ];
 * console.log(outline.length); // 2
 * ```
 */
export interface OutlineItem {
  /** The bookmark's text. */
  readonly title: string;
  /** A named destination of one of the parts (an element id of the printed HTML). */
  readonly dest?: string;
  /** Or a 0-based page of the assembled document (used when `dest` is absent or unknown). */
  readonly page?: number;
  /** Nested bookmarks. */
  readonly children?: readonly OutlineItem[];
}

/**
 * The running header and footer stamped on every page.
 *
 * @example
 * ```ts
 * import type { StampOptions } from "./pdf_merge.ts";
 * const stamp: StampOptions = {
 *   headerLeft: "Licence position",
 *   footerLeft: "Generated 2024-05-01 08:00 UTC",
 *   pageLabel: "Page {page} of {pages}",
 * };
 * console.log(stamp.headerLeft);
 * ```
 */
export interface StampOptions {
  /** Left of the header (the report title). */
  readonly headerLeft?: string;
  /** Right of the header. */
  readonly headerRight?: string;
  /**
   * Left of the footer (e.g. generated-at and source). Given as parts, they are joined with " · "
   * and, where the line is too wide for the page, whole parts are left off from the end (never a
   * word cut); only a first part too wide alone is shortened with "…".
   */
  readonly footerLeft?: string | readonly string[];
  /** A line above the footer, left (a theme's footer text), on every page. */
  readonly footerNote?: string;
  /** The page label; `{page}` and `{pages}` are replaced (default `Page {page} of {pages}`). */
  readonly pageLabel?: string;
  /** Leave the header off the first page (a cover). Default true. */
  readonly skipHeaderOnFirstPage?: boolean;
  /** Distance of the header's baseline from the top edge, in points (default 28). */
  readonly headerOffset?: number;
  /** Distance of the footer's baseline from the bottom edge, in points (default 22). */
  readonly footerOffset?: number;
  /** Left and right inset of header and footer, in points (default 42, about 15 mm). */
  readonly inset?: number;
  /** Font size in points (default 8). */
  readonly fontSize?: number;
}

/**
 * Document metadata.
 *
 * @example
 * ```ts
 * import type { PdfMetadata } from "./pdf_merge.ts";
 * const metadata: PdfMetadata = { title: "Licence position", created: new Date() };
 * console.log(metadata.title);
 * ```
 */
export interface PdfMetadata {
  /** Title (shown in the viewer's title bar). */
  readonly title: string;
  /** Subject (the report's description). */
  readonly subject?: string;
  /** Author. */
  readonly author?: string;
  /** Creator application (default `samkit`). */
  readonly creator?: string;
  /** Producer. */
  readonly producer?: string;
  /** Keywords. */
  readonly keywords?: readonly string[];
  /** Creation and modification date. */
  readonly created: Date;
  /** Natural language (BCP 47), e.g. `en-US`. */
  readonly language?: string;
}

/**
 * Options of {@link PdfAssembler.finish}.
 *
 * @example
 * ```ts
 * import type { FinishOptions } from "./pdf_merge.ts";
 * const options: FinishOptions = {
 *   metadata: { title: "Report", created: new Date() },
 *   outline: [{ title: "Cover", page: 0 }],
 *   stamp: { headerLeft: "Report" },
 * };
 * console.log(options.metadata.title);
 * ```
 */
export interface FinishOptions {
  /** Metadata to set. */
  readonly metadata: PdfMetadata;
  /** Bookmarks (items whose destination is unknown are dropped, their children kept). */
  readonly outline?: readonly OutlineItem[];
  /** The header and footer stamp (none when absent). */
  readonly stamp?: StampOptions;
}

/** A destination as Chrome writes it: `[pageRef /XYZ left top zoom]`. */
interface Destination {
  readonly page: PDFRef;
  readonly rest: PDFObject[];
}

/**
 * Collects printed parts into one document.
 *
 * @example
 * ```ts
 * import { PdfAssembler } from "./pdf_merge.ts";
 * import { PDFDocument } from "pdf-lib";
 * const part = await PDFDocument.create();
 * part.addPage();
 * const assembler = await PdfAssembler.create();
 * await assembler.add(await part.save());
 * await assembler.add(await part.save());
 * const bytes = await assembler.finish({
 *   metadata: { title: "Two pages", created: new Date() },
 *   stamp: { headerLeft: "Two pages" },
 * });
 * console.log(assembler.pageCount, bytes.length > 0); // 2 true
 * ```
 */
export class PdfAssembler {
  #doc: PDFDocument;
  #dests = new Map<string, Destination>();
  #finished = false;

  private constructor(doc: PDFDocument) {
    this.#doc = doc;
  }

  /** Starts an empty document. */
  static async create(): Promise<PdfAssembler> {
    return new PdfAssembler(await PDFDocument.create({ updateMetadata: false }));
  }

  /** Pages so far. */
  get pageCount(): number {
    return this.#doc.getPageCount();
  }

  /** The named destinations collected so far (name → 0-based page of the assembled document). */
  destinations(): Map<string, number> {
    const index = this.#pageIndex();
    const out = new Map<string, number>();
    for (const [name, dest] of this.#dests) {
      const page = index.get(dest.page.toString());
      if (page !== undefined) out.set(name, page);
    }
    return out;
  }

  /**
   * Appends every page of a printed part and keeps its named destinations (a name seen before
   * keeps its first page). Returns the number of pages added.
   */
  async add(bytes: Uint8Array): Promise<number> {
    if (this.#finished) throw new Error("the PDF is already finished");
    const part = await PDFDocument.load(bytes, { updateMetadata: false });
    const indices = part.getPageIndices();
    const copied = await this.#doc.copyPages(part, indices);
    const map = new Map<string, PDFRef>();
    part.getPages().forEach((page, i) => map.set(page.ref.toString(), copied[i].ref));
    for (const page of copied) this.#doc.addPage(page);

    for (const [name, dest] of readDests(part)) {
      const page = map.get(dest.page.toString());
      if (page && !this.#dests.has(name)) this.#dests.set(name, { page, rest: dest.rest });
    }
    return copied.length;
  }

  /**
   * Puts every page of a printed part before the pages so far (a cover printed last, once the
   * pages its contents list names are known) and keeps its named destinations. Returns the number
   * of pages added.
   */
  async prepend(bytes: Uint8Array): Promise<number> {
    if (this.#finished) throw new Error("the PDF is already finished");
    const part = await PDFDocument.load(bytes, { updateMetadata: false });
    const copied = await this.#doc.copyPages(part, part.getPageIndices());
    const map = new Map<string, PDFRef>();
    part.getPages().forEach((page, i) => map.set(page.ref.toString(), copied[i].ref));
    copied.forEach((page, i) => this.#doc.insertPage(i, page));
    for (const [name, dest] of readDests(part)) {
      const page = map.get(dest.page.toString());
      if (page && !this.#dests.has(name)) this.#dests.set(name, { page, rest: dest.rest });
    }
    return copied.length;
  }

  /** Stamps, outlines, sets metadata and serialises the document. */
  async finish(options: FinishOptions): Promise<Uint8Array> {
    if (this.#finished) throw new Error("the PDF is already finished");
    this.#finished = true;
    const doc = this.#doc;
    this.#writeDests();
    if (options.stamp) await this.#stamp(options.stamp);
    if (options.outline && options.outline.length > 0) this.#writeOutline(options.outline);
    const m = options.metadata;
    doc.setTitle(m.title, { showInWindowTitleBar: true });
    if (m.subject) doc.setSubject(m.subject);
    if (m.author) doc.setAuthor(m.author);
    doc.setCreator(m.creator ?? "samkit");
    doc.setProducer(m.producer ?? "samkit (Chromium, pdf-lib)");
    if (m.keywords) doc.setKeywords([...m.keywords]);
    doc.setCreationDate(m.created);
    doc.setModificationDate(m.created);
    if (m.language) doc.setLanguage(m.language);
    return await doc.save({ useObjectStreams: true });
  }

  #pageIndex(): Map<string, number> {
    const index = new Map<string, number>();
    this.#doc.getPages().forEach((page, i) => index.set(page.ref.toString(), i));
    return index;
  }

  #writeDests(): void {
    if (this.#dests.size === 0) return;
    const context = this.#doc.context;
    const dests = context.obj({});
    for (const [name, dest] of this.#dests) {
      dests.set(PDFName.of(name), context.obj([dest.page, ...dest.rest]));
    }
    this.#doc.catalog.set(PDFName.of("Dests"), context.register(dests));
  }

  async #stamp(stamp: StampOptions): Promise<void> {
    const doc = this.#doc;
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const size = stamp.fontSize ?? 8;
    const inset = stamp.inset ?? 42;
    const headerOffset = stamp.headerOffset ?? 28;
    const footerOffset = stamp.footerOffset ?? 22;
    const color = rgb(0.35, 0.38, 0.42);
    const rule = rgb(0.75, 0.78, 0.82);
    const label = stamp.pageLabel ?? "Page {page} of {pages}";
    const pages = doc.getPages();
    const total = pages.length;
    const fit = (text: string, max: number) => fitText(winAnsi(text, font), font, size, max);

    pages.forEach((page, i) => {
      const { width, height } = page.getSize();
      const usable = width - 2 * inset;
      const pageText = label.replace("{page}", String(i + 1)).replace("{pages}", String(total));
      const pageWidth = font.widthOfTextAtSize(pageText, size);
      const y = footerOffset;
      page.drawText(pageText, { x: width - inset - pageWidth, y, size, font, color });
      if (stamp.footerLeft) {
        const text = fitLine(stamp.footerLeft, font, size, usable - pageWidth - 24);
        page.drawText(text, { x: inset, y, size, font, color });
      }
      if (stamp.footerNote) {
        const note = fit(stamp.footerNote, usable);
        page.drawText(note, { x: inset, y: y + size + 3, size, font, color });
      }
      if (i === 0 && (stamp.skipHeaderOnFirstPage ?? true)) return;
      if (!stamp.headerLeft && !stamp.headerRight) return;
      const top = height - headerOffset;
      const right = stamp.headerRight ? fit(stamp.headerRight, usable * 0.4) : "";
      const rightWidth = right ? font.widthOfTextAtSize(right, size) : 0;
      if (right) page.drawText(right, { x: width - inset - rightWidth, y: top, size, font, color });
      if (stamp.headerLeft) {
        const left = fit(stamp.headerLeft, usable - rightWidth - 24);
        page.drawText(left, { x: inset, y: top, size, font, color });
      }
      page.drawLine({
        start: { x: inset, y: top - 4 },
        end: { x: width - inset, y: top - 4 },
        thickness: 0.5,
        color: rule,
      });
    });
  }

  #writeOutline(items: readonly OutlineItem[]): void {
    const doc = this.#doc;
    const context = doc.context;
    const pages = doc.getPages();
    const resolve = (item: OutlineItem): PDFObject | undefined => {
      const named = item.dest ? this.#dests.get(item.dest) : undefined;
      if (named) return context.obj([named.page, ...named.rest]);
      if (item.page !== undefined && pages[item.page]) {
        return context.obj([pages[item.page].ref, PDFName.of("Fit")]);
      }
      return undefined;
    };
    // Items without a destination are dropped; their children move up a level.
    const flatten = (list: readonly OutlineItem[]): { item: OutlineItem; dest: PDFObject }[] => {
      const out: { item: OutlineItem; dest: PDFObject }[] = [];
      for (const item of list) {
        const dest = resolve(item);
        if (dest) out.push({ item, dest });
        else if (item.children) out.push(...flatten(item.children));
      }
      return out;
    };

    const build = (list: readonly OutlineItem[], parent: PDFRef): PDFRef[] => {
      const resolved = flatten(list);
      const refs = resolved.map(() => context.nextRef());
      resolved.forEach(({ item, dest }, i) => {
        const dict = context.obj({}) as PDFDict;
        dict.set(PDFName.of("Title"), PDFHexString.fromText(item.title));
        dict.set(PDFName.of("Parent"), parent);
        dict.set(PDFName.of("Dest"), dest);
        if (i > 0) dict.set(PDFName.of("Prev"), refs[i - 1]);
        if (i < refs.length - 1) dict.set(PDFName.of("Next"), refs[i + 1]);
        const kids = item.children ? build(item.children, refs[i]) : [];
        if (kids.length > 0) {
          dict.set(PDFName.of("First"), kids[0]);
          dict.set(PDFName.of("Last"), kids[kids.length - 1]);
          // Negative: children start closed (a long list of groups stays tidy).
          dict.set(PDFName.of("Count"), PDFNumber.of(-kids.length));
        }
        context.assign(refs[i], dict);
      });
      return refs;
    };

    const root = context.nextRef();
    const top = build(items, root);
    if (top.length === 0) return;
    const outlines = context.obj({}) as PDFDict;
    outlines.set(PDFName.of("Type"), PDFName.of("Outlines"));
    outlines.set(PDFName.of("First"), top[0]);
    outlines.set(PDFName.of("Last"), top[top.length - 1]);
    outlines.set(PDFName.of("Count"), PDFNumber.of(top.length));
    context.assign(root, outlines);
    doc.catalog.set(PDFName.of("Outlines"), root);
    doc.catalog.set(PDFName.of("PageMode"), PDFName.of("UseOutlines"));
  }
}

/** The named destinations of a document (`/Dests` in the catalog, or a `/Names` tree). */
function readDests(doc: PDFDocument): Map<string, Destination> {
  const out = new Map<string, Destination>();
  const context = doc.context;
  const toDest = (value: PDFObject | undefined): Destination | undefined => {
    let v = value ? context.lookup(value) : undefined;
    if (v instanceof PDFDict) v = v.lookup(PDFName.of("D")); // { D: [...] } form
    const array = v as PDFArray | undefined;
    if (!array || typeof array.asArray !== "function") return undefined;
    const [page, ...rest] = array.asArray();
    if (!(page instanceof PDFRef)) return undefined;
    return { page, rest };
  };

  const dests = doc.catalog.lookup(PDFName.of("Dests"));
  if (dests instanceof PDFDict) {
    for (const [key, value] of dests.entries()) {
      const dest = toDest(value);
      if (dest) out.set(key.decodeText(), dest);
    }
  }
  const names = doc.catalog.lookup(PDFName.of("Names"));
  const tree = names instanceof PDFDict ? names.lookup(PDFName.of("Dests")) : undefined;
  const walk = (node: PDFObject | undefined, depth: number) => {
    if (!(node instanceof PDFDict) || depth > 32) return;
    const pairs = node.lookup(PDFName.of("Names")) as PDFArray | undefined;
    if (pairs && typeof pairs.asArray === "function") {
      const list = pairs.asArray();
      for (let i = 0; i + 1 < list.length; i += 2) {
        const key = context.lookup(list[i]) as { decodeText?: () => string } | undefined;
        const dest = toDest(list[i + 1]);
        if (key?.decodeText && dest) out.set(key.decodeText(), dest);
      }
    }
    const kids = node.lookup(PDFName.of("Kids")) as PDFArray | undefined;
    if (kids && typeof kids.asArray === "function") {
      for (const kid of kids.asArray()) walk(context.lookup(kid), depth + 1);
    }
  };
  walk(tree, 0);
  return out;
}

const charSets = new WeakMap<PDFFont, Set<number>>();

/**
 * Text a standard (WinAnsi) font can draw: accents that have no glyph are decomposed and dropped,
 * typographic punctuation is kept where the encoding has it, anything else becomes `?`.
 */
function winAnsi(text: string, font: PDFFont): string {
  let set = charSets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charSets.set(font, set);
  }
  let out = "";
  for (const ch of text.replace(/[\r\n\t]+/g, " ")) {
    const code = ch.codePointAt(0)!;
    if (set.has(code)) {
      out += ch;
      continue;
    }
    const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
    out += [...base].every((c) => set!.has(c.codePointAt(0)!)) && base !== "" ? base : "?";
  }
  return out;
}

/** Shortens text with an ellipsis to fit `max` points. */
function fitText(text: string, font: PDFFont, size: number, max: number): string {
  if (max <= 0) return "";
  if (font.widthOfTextAtSize(text, size) <= max) return text;
  const ellipsis = "\u2026";
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(text.slice(0, mid) + ellipsis, size) <= max) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + ellipsis;
}

/**
 * A footer line that fits `max`: a string shortened with "…"; parts joined with " · ", as many
 * from the first as fit whole, else the first part shortened.
 */
function fitLine(
  line: string | readonly string[],
  font: PDFFont,
  size: number,
  max: number,
): string {
  const parts = typeof line === "string" ? [line] : line;
  for (let n = parts.length; n > 1; n--) {
    const text = winAnsi(parts.slice(0, n).join(" \u00b7 "), font);
    if (font.widthOfTextAtSize(text, size) <= max) return text;
  }
  return fitText(winAnsi(parts[0] ?? "", font), font, size, max);
}

/**
 * A printed document with a footer stamped on every page ("Page X of Y" at the right, at the left
 * `footerLeft`, by default the document's title; no header), its title and creation date kept:
 * for documents printed in one piece that Chrome numbers no pages of (a pack's summary.pdf).
 *
 * @example
 * ```ts
 * import { numberPages } from "./pdf_merge.ts";
 * import { PDFDocument } from "pdf-lib";
 * const doc = await PDFDocument.create();
 * doc.setTitle("Weekly pack");
 * doc.addPage();
 * doc.addPage();
 * const bytes = await numberPages(await doc.save(), { footerLeft: "Weekly pack" });
 * console.log((await PDFDocument.load(bytes)).getPageCount()); // 2
 * ```
 */
export async function numberPages(
  bytes: Uint8Array,
  options: { readonly footerLeft?: string } = {},
): Promise<Uint8Array> {
  const part = await PDFDocument.load(bytes, { updateMetadata: false });
  const assembler = await PdfAssembler.create();
  await assembler.add(bytes);
  return await assembler.finish({
    metadata: {
      title: part.getTitle() ?? "",
      created: part.getCreationDate() ?? new Date(0),
      creator: part.getCreator(),
      producer: part.getProducer(),
    },
    stamp: { footerLeft: options.footerLeft ?? part.getTitle(), skipHeaderOnFirstPage: true },
  });
}
