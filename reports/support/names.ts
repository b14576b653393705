/**
 * Organisation and metric names moved to `lib/query/names.ts` (lookups every report shares);
 * this module re-exports them for definitions not yet moved over.
 *
 * @module
 */

export * from "../../lib/query/names.ts";
