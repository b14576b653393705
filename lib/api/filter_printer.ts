/**
 * The filter printer: a {@link FilterNode} back to the text of spec section 4.4, in canonical
 * form, so that `parseFilter(printFilter(tree))` deep-equals `tree` for every tree the parser or
 * the builder can make.
 *
 * Canonical form: operators in lower case; a lone comparison without parentheses; every operand
 * of `-and` / `-or` and the operand of `-not` in its own parentheses; single spaces between
 * tokens; lists as `[a,b]`; a value written unquoted when it was unquoted, otherwise in double
 * quotes with `\"` and `\\` escapes.
 *
 * @module
 */

import type { FilterLiteral, FilterNode } from "./filter_ast.ts";
import { isWordBreak, unquotedProblem } from "./filter_literal.ts";

/**
 * Writes a value: its text unquoted if it was unquoted (and can be), otherwise double-quoted.
 *
 * @example
 * ```ts
 * import { printLiteral } from "./filter_printer.ts";
 * import { literalFromText } from "./filter_literal.ts";
 * console.log(printLiteral(literalFromText('say "hi"', true))); // "say \"hi\""
 * ```
 */
export function printLiteral(literal: FilterLiteral): string {
  const { text, quoted } = literal;
  if (!quoted && canWriteUnquoted(text)) return text;
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

function canWriteUnquoted(text: string): boolean {
  if (text === "" || unquotedProblem(text) !== undefined) return false;
  for (const ch of text) if (isWordBreak(ch)) return false;
  return true;
}

function content(node: FilterNode): string {
  switch (node.kind) {
    case "cmp": {
      const value = Array.isArray(node.value)
        ? `[${(node.value as readonly FilterLiteral[]).map(printLiteral).join(",")}]`
        : printLiteral(node.value as FilterLiteral);
      return `${node.field} -${node.op} ${value}`;
    }
    case "and":
    case "or":
      return node.items.map((item) => `(${content(item)})`).join(` -${node.kind} `);
    case "not":
      return `-not (${content(node.expr)})`;
  }
}

/**
 * Prints a filter tree in canonical form (see the module notes).
 *
 * @example
 * ```ts
 * import { printFilter } from "./filter_printer.ts";
 * import { and, eq, le } from "./filter_builder.ts";
 * console.log(printFilter(and(eq("status", "Active"), le("lastScanDate", new Date(Date.UTC(2022, 0, 1))))));
 * // (status -eq Active) -and (lastScanDate -le "2022-01-01T00:00:00.000Z")
 * ```
 */
export function printFilter(node: FilterNode): string {
  return content(node);
}
