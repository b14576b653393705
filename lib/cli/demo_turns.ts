/**
 * Work on a list, a few items at a time, with each result handed on in the list's order: what
 * lets the demo read its next report while Chrome prints the one before.
 *
 * @module
 */

/**
 * Runs `run` for each item, at most `atOnce` at a time (item n starts when item n − `atOnce` has
 * finished), and hands each result to `done` in the items' order, as soon as it and every item
 * before it are done. On the first failure the runs still going are aborted (their `signal`) and
 * awaited, so none is left running or writing, and that failure is thrown.
 *
 * @example
 * ```ts
 * import { inTurn } from "./demo_turns.ts";
 * const seen: string[] = [];
 * await inTurn(["a", "bb", "ccc"], 2, async (item) => item.length, (item, n) => {
 *   seen.push(`${item}=${n}`);
 * });
 * console.log(seen); // ["a=1", "bb=2", "ccc=3"]
 * ```
 */
export async function inTurn<T, R>(
  items: readonly T[],
  atOnce: number,
  run: (item: T, signal: AbortSignal) => Promise<R>,
  done: (item: T, result: R) => void,
): Promise<void> {
  const width = Math.max(1, Math.floor(atOnce));
  const controller = new AbortController();
  const runs: Promise<R>[] = [];
  items.forEach((item, i) => {
    const after = i >= width ? runs[i - width].then(() => {}, () => {}) : Promise.resolve();
    const result = after.then(() => {
      controller.signal.throwIfAborted();
      return run(item, controller.signal);
    });
    result.catch(() => {}); // awaited in order below
    runs.push(result);
  });
  try {
    for (let i = 0; i < items.length; i++) done(items[i], await runs[i]);
  } catch (error) {
    controller.abort(error);
    await Promise.allSettled(runs);
    throw error;
  }
}
