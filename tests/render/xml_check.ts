/**
 * A tiny XML well-formedness check for the charts' SVG: one root element, tags properly nested,
 * attribute values quoted and unique, only the five XML entities and numeric references, no raw
 * `<` or `&` in text. Returns the element tree to query.
 *
 * @module
 */

/** An element of the parsed tree. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: (XmlElement | string)[];
}

/** Thrown when the text is not well-formed. */
export class XmlError extends Error {
  override name = "XmlError";
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITY = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;

/** Parses `text` strictly; throws {@link XmlError} with the offset of the first fault. */
export function parseXml(text: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  while (i < text.length) {
    if (text[i] === "<") {
      i = tag(text, i, stack, (el) => {
        if (root) throw new XmlError(`second root element <${el.name}> at ${i}`);
        root = el;
      });
    } else {
      const end = text.indexOf("<", i) === -1 ? text.length : text.indexOf("<", i);
      const chunk = text.slice(i, end);
      checkText(chunk, i);
      if (stack.length === 0 && chunk.trim() !== "") {
        throw new XmlError(`text outside root at ${i}`);
      }
      stack.at(-1)?.children.push(decode(chunk));
      i = end;
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed <${stack.at(-1)!.name}>`);
  if (!root) throw new XmlError("no root element");
  return root;
}

function tag(
  text: string,
  at: number,
  stack: XmlElement[],
  onRoot: (el: XmlElement) => void,
): number {
  const close = text.indexOf(">", at);
  if (close === -1) throw new XmlError(`unterminated tag at ${at}`);
  if (text[at + 1] === "/") {
    const name = text.slice(at + 2, close).trim();
    const open = stack.pop();
    if (!open || open.name !== name) {
      throw new XmlError(`</${name}> closes <${open?.name}> at ${at}`);
    }
    return close + 1;
  }
  const selfClosing = text[close - 1] === "/";
  const body = text.slice(at + 1, selfClosing ? close - 1 : close);
  const name = NAME.exec(body)?.[0];
  if (!name) throw new XmlError(`bad tag name at ${at}`);
  const el: XmlElement = { name, attrs: attributes(body.slice(name.length), at), children: [] };
  if (stack.length === 0) onRoot(el);
  else stack.at(-1)!.children.push(el);
  if (!selfClosing) stack.push(el);
  return close + 1;
}

function attributes(source: string, at: number): Record<string, string> {
  const attrs: Record<string, string> = {};
  const rest = source.replace(
    /\s+([A-Za-z_][\w.:-]*)="([^"<]*)"/g,
    (_, name: string, value: string) => {
      if (name in attrs) throw new XmlError(`duplicate attribute ${name} at ${at}`);
      checkText(value, at);
      attrs[name] = decode(value);
      return "";
    },
  );
  if (rest.trim() !== "") throw new XmlError(`malformed attributes "${rest.trim()}" at ${at}`);
  return attrs;
}

function checkText(chunk: string, at: number): void {
  for (let j = chunk.indexOf("&"); j !== -1; j = chunk.indexOf("&", j + 1)) {
    if (!ENTITY.test(chunk.slice(j))) throw new XmlError(`bare & at ${at + j}`);
  }
  if (chunk.includes(">") && chunk.includes("]]>")) throw new XmlError(`]]> in text at ${at}`);
}

function decode(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g,
    (_, e: string) =>
      e === "amp"
        ? "&"
        : e === "lt"
        ? "<"
        : e === "gt"
        ? ">"
        : e === "quot"
        ? '"'
        : e === "apos"
        ? "'"
        : String.fromCodePoint(e.startsWith("#x") ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
  );
}

/** Every element named `name` under (and including) `el`, in document order. */
export function elements(el: XmlElement, name: string): XmlElement[] {
  const out = el.name === name ? [el] : [];
  for (const child of el.children) {
    if (typeof child !== "string") out.push(...elements(child, name));
  }
  return out;
}

/** The text content of `el` (its `<title>` children's text included). */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => typeof c === "string" ? c : textOf(c)).join("");
}

/** The text content of `el` without `<title>` and `<desc>` children (what is drawn). */
export function drawnText(el: XmlElement): string {
  return el.children.map((c) =>
    typeof c === "string" ? c : c.name === "title" || c.name === "desc" ? "" : drawnText(c)
  ).join("");
}
