/**
 * Display labels that tell items apart: an item's name, with its id appended when another item
 * has the same name or when the name is blank.
 *
 * @module
 */

/**
 * The label of each item by id: its trimmed name, or `"<name> (<id>)"` when the (raw) name is
 * shared by several items or blank (then the name is `blank`).
 *
 * @example
 * ```ts
 * import { uniqueLabels } from "./labels.ts";
 * const items = [{ id: "C1", name: "Billing" }, { id: "C2", name: "Billing" }, { id: "C3", name: "" }];
 * const labels = uniqueLabels(items, (c) => c.name, (c) => c.id, "(unnamed)");
 * console.log([...labels.values()]); // ["Billing (C1)", "Billing (C2)", "(unnamed) (C3)"]
 * ```
 */
export function uniqueLabels<T>(
  items: readonly T[],
  name: (item: T) => string | null | undefined,
  id: (item: T) => string,
  blank: string,
): Map<string, string> {
  const uses = Map.groupBy(items, (item) => name(item) ?? "");
  return new Map(items.map((item) => {
    const raw = name(item) ?? "";
    const shown = raw.trim() || blank;
    const shared = uses.get(raw)!.length > 1 || !raw.trim();
    return [id(item), shared ? `${shown} (${id(item)})` : shown];
  }));
}
