/**
 * Active computers not scanned for a number of days, read through samkit's client alone: the
 * script imports only the client entry point, so it needs network access to the service and
 * samkit's environment variables, and no other permission.
 *
 * ```sh
 * SAM_BASE_URL=https://sam.example.com SAM_CLIENT_ID=… SAM_CLIENT_SECRET=… \
 *   deno run --allow-net=sam.example.com \
 *   --allow-env=SAM_BASE_URL,SAM_REGION,SAM_HOST,SAM_CLIENT_ID,SAM_CLIENT_SECRET,SAM_TOKEN,SAM_REGISTRY_PREFIX,SAM_CONNECTORS_PREFIX \
 *   examples/stale_computers.ts --days 30
 * ```
 *
 * Prints one line per computer, `hostName<TAB>lastScanDate` (the date as YYYY-MM-DD), longest
 * unscanned first, then by host name. `--now` sets the day counted from (default today).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { and, createClient, eq, le } from "../client.ts";

const DAY_MS = 86_400_000;

const { values } = parseArgs({
  args: Deno.args,
  options: { days: { type: "string", default: "30" }, now: { type: "string" } },
});
const days = Number(values.days);
const now = values.now === undefined ? new Date() : new Date(values.now);
if (!Number.isInteger(days) || days < 0 || Number.isNaN(now.getTime())) {
  console.error("usage: stale_computers.ts [--days N] [--now YYYY-MM-DD]");
  Deno.exit(2);
}

// The service's address and credentials come from SAM_BASE_URL, SAM_CLIENT_ID and
// SAM_CLIENT_SECRET (or SAM_TOKEN).
const client = createClient();
const cutoff = new Date(now.getTime() - days * DAY_MS);
const stale: { hostName: string; scanned: Date }[] = [];
for await (
  const computer of client.estate.computers({
    filter: and(eq("status", "Active"), le("lastScanDate", cutoff)),
  })
) {
  if (computer.lastScanDate) {
    stale.push({
      hostName: computer.hostName ?? computer.id ?? "",
      scanned: computer.lastScanDate,
    });
  }
}
stale.sort((a, b) =>
  a.scanned.getTime() - b.scanned.getTime() || (a.hostName < b.hostName ? -1 : 1)
);
for (const { hostName, scanned } of stale) {
  console.log(`${hostName}\t${scanned.toISOString().slice(0, 10)}`);
}
