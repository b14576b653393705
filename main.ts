/**
 * The samkit CLI entry point. See `lib/cli/main.ts` for the commands.
 *
 * @module
 */

import { main } from "./lib/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
