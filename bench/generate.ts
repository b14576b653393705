/**
 * Benchmark of the estate generator: 50,000 computers with a no-op sink and loaded into the
 * SQLite store, side by side, with the ratio.
 *
 * Usage: `deno run -P=bench bench/generate.ts [computers] [seed]` (defaults: 50000, 1).
 *
 * @module
 */

import { generateEstate } from "../lib/server/generator.ts";
import { EstateStore } from "../lib/server/store.ts";

/**
 * Times generating `computers` computers with a no-op sink, then generating and loading them
 * into an in-memory store, and prints both and the share of time the store takes.
 *
 * @example
 * ```ts ignore
 * import { benchGenerate } from "./generate.ts";
 * await benchGenerate({ computers: 50_000 });
 * ```
 */
export async function benchGenerate(
  options: { computers?: number; seed?: number } = {},
): Promise<void> {
  const computers = options.computers ?? 50_000;
  const seed = options.seed ?? 1;
  let started = performance.now();
  const stats = generateEstate({ seed, computers }, () => {});
  const genMs = performance.now() - started;
  const rows = Object.values(stats).reduce((s, n) => s + n, 0);
  const store = new EstateStore();
  started = performance.now();
  await store.bulkInsert((sink) => {
    generateEstate({ seed, computers }, sink);
  });
  const loadMs = performance.now() - started;
  store.close();
  console.log(
    `generate ${computers} computers (${rows} rows): no-op sink ${(genMs / 1000).toFixed(2)} s ` +
      `(${Math.round(rows / (genMs / 1000))} rows/s); into SQLite ${
        (loadMs / 1000).toFixed(2)
      } s; ` +
      `ratio ${(loadMs / genMs).toFixed(2)}x`,
  );
}

if (import.meta.main) {
  await benchGenerate({
    computers: Number(Deno.args[0] ?? 50_000),
    seed: Number(Deno.args[1] ?? 1),
  });
}
