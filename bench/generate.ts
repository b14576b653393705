/**
 * Time the estate generator with a no-op sink (the store's cost is measured elsewhere).
 *
 * Usage: `deno run bench/generate.ts [computers] [seed]` (defaults: 50000, 1).
 *
 * @module
 */

import { generateEstate } from "../lib/server/generator.ts";

const computers = Number(Deno.args[0] ?? 50_000);
const seed = Number(Deno.args[1] ?? 1);
const started = performance.now();
const stats = generateEstate({ seed, computers }, () => {});
const ms = performance.now() - started;
const rows = Object.values(stats).reduce((s, n) => s + n, 0);
console.log(
  `generateEstate: ${computers} computers, ${rows} rows in ${(ms / 1000).toFixed(2)} s ` +
    `(${Math.round(rows / (ms / 1000))} rows/s, no-op sink)`,
);
