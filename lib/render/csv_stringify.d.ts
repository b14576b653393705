/**
 * The part of `csv-stringify/sync` samkit uses. Declared here because the package's own types
 * reference Node's types, which makes Deno load an old `@types/node` and breaks `node:test`
 * typings in every test that imports the CSV renderer.
 *
 * @module
 */

/** Options of {@link stringify} (a subset). */
export interface Options {
  /** Text between records, e.g. `"\r\n"`. */
  record_delimiter?: string;
  /** Fields matching it are quoted (besides those with a delimiter or quote). */
  quoted_match?: string | RegExp | (string | RegExp)[];
  /** Field separator (default `,`). */
  delimiter?: string;
}

/** Stringifies records (arrays of fields) as CSV text. */
export function stringify(input: readonly (readonly unknown[])[], options?: Options): string;
