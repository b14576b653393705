/**
 * Parsing a JSON file a user names without ever echoing its text: a file that is not JSON (say
 * `/etc/passwd`) fails with its line and column and the kind of problem, never an excerpt, since
 * V8's own messages quote the text (`Unexpected token 'r', "root:x:0:0"...`).
 *
 * @module
 */

/**
 * Text that is not valid JSON: the message gives the line, the column and what was expected,
 * never the text itself.
 *
 * @example
 * ```ts
 * import { JsonTextError } from "./json_text.ts";
 * console.log(new JsonTextError(2, 5, "expected a value").message);
 * // not valid JSON at line 2, column 5: expected a value
 * ```
 */
export class JsonTextError extends Error {
  /** The line (from 1). */
  readonly line: number;
  /** The column (from 1). */
  readonly column: number;
  /**
   * @param line The line (from 1).
   * @param column The column (from 1).
   * @param problem What was wrong there, in words (no text of the file).
   */
  constructor(line: number, column: number, problem: string) {
    super(`not valid JSON at line ${line}, column ${column}: ${problem}`);
    this.name = "JsonTextError";
    this.line = line;
    this.column = column;
  }
}

/** Finds the first syntax error of `text` (known not to parse): its offset and problem. */
function firstError(text: string): { at: number; problem: string } {
  let i = 0;
  const fail = (problem: string): never => {
    throw { at: i, problem };
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (word: string) => {
    for (const c of word) if (text[i++] !== c) (i--, fail(`expected ${word}`));
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) return void i++;
      if (c < 0x20) fail("control character in a string");
      if (c === 0x5c) {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("bad \\u escape");
          i += 5;
        } else if (`"\\/bfnrt`.includes(text[i] ?? "x")) i++;
        else fail("bad escape in a string");
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === "-") fail("expected a value");
    i += m![0].length;
  };
  const list = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === close) return void i++;
      if (text[i] !== ",") fail(`expected ',' or '${close}'`);
      i++;
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === undefined) fail("unexpected end of the file");
    if (c === "{") {
      return list("}", () => {
        space();
        if (text[i] !== '"') fail("expected a double-quoted property name");
        string();
        space();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        value();
      });
    }
    if (c === "[") return list("]", value);
    if (c === '"') return string();
    if (c === "t") return expect("true");
    if (c === "f") return expect("false");
    if (c === "n") return expect("null");
    number();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    space();
    if (i < text.length) fail("unexpected text after the JSON value");
    return { at: i, problem: "not valid JSON" };
  } catch (e) {
    if (e && typeof e === "object" && "at" in e) return e as { at: number; problem: string };
    throw e;
  }
}

/**
 * Parses JSON text; on a syntax error throws {@link JsonTextError} with the line and column of
 * the first error and no excerpt of the text. A leading byte-order mark is allowed.
 *
 * @example
 * ```ts
 * import { parseJsonText } from "./json_text.ts";
 * console.log(parseJsonText('{"a": 1}')); // { a: 1 }
 * try {
 *   parseJsonText("root:x:0:0:root:/root:/bin/bash\n");
 * } catch (e) {
 *   console.log((e as Error).message); // not valid JSON at line 1, column 1: expected a value
 * }
 * ```
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const { at, problem } = firstError(text);
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    throw new JsonTextError(line, column, problem);
  }
}
