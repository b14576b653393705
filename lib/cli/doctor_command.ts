/**
 * `samkit doctor`: checks a tenant before its first audit and prints a readiness table — token
 * obtained, each API area's scope granted, registry path, dialect, page size, rate-limit headers,
 * clock skew — with what to do for each failure. Exit 0 only when every report can run.
 *
 * @module
 */

import { parseArgs, stringFlag } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { assertTenantAddress, openSource, type SourceOptions } from "./source.ts";
import { reportError } from "./errors.ts";
import { clip, printOut, terminalJson } from "./terminal_text.ts";
import { ResponseObserver } from "./doctor_observer.ts";
import { runDoctor } from "./doctor_checks.ts";
import { doctorJson, formatTable } from "./doctor_table.ts";

/** The help text of `samkit doctor`. */
export const DOCTOR_HELP =
  `Usage: deno task doctor [options]              (the embedded demo server)
       SAM_API_HOST=<host> deno task doctor:tenant [options]   (a real tenant)

Checks that every report can run against a tenant before its first audit, with a few cheap
reads (one item each), and prints one row per check with what to do for each failure:
  token               client credentials (SAM_CLIENT_ID + SAM_CLIENT_SECRET) or SAM_TOKEN accepted
  computers, clusters, users, licenses, registry, compliance, organizations, connectors
                      one read per API area: the scope granted, or the scope a 403 names and
                      the reports it blocks
  registry path       software-registry (the public service) or softwareregistry (the spec)
  dialect             how values travel: the spec's text numbers and dates, or typed
  page size           page_size=1000 (the spec's maximum) accepted, or what it is clamped to
  rate-limit headers  which ones the service sends
  clock skew          the service's Date against this machine's clock (warn above 60 s)

Options:
  --base-url URL       The SAM API (else SAM_BASE_URL or SAM_REGION; none: the embedded demo
                       server, when no credentials are set)
  --tenant             Never the demo server: no API address is bad usage (doctor:tenant passes it)
  --registry-prefix P  The registry's path (else SAM_REGISTRY_PREFIX; neither: detected)
  --json               The table as JSON
  -h, --help           This help

Credentials come from the environment only (SAM_CLIENT_ID and SAM_CLIENT_SECRET, or SAM_TOKEN);
they are never printed.

Exit codes: 0 every report can run, 1 some cannot (see the FAIL rows), 2 bad usage.`;

/**
 * Runs `samkit doctor` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { doctorCommand } from "./doctor_command.ts";
 * Deno.exit(await doctorCommand(["--json"]));
 * ```
 */
export async function doctorCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, {
      "base-url": { type: "string" },
      tenant: { type: "boolean" },
      "registry-prefix": { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      console.log(DOCTOR_HELP);
      return 0;
    }
    if (positionals.length) {
      throw new UsageError(`doctor takes no arguments, got "${clip(positionals.join(" "))}"`);
    }
    const source: SourceOptions = {
      baseUrl: stringFlag(values, "base-url"),
      tenant: values.tenant === true,
      registryPrefix: stringFlag(values, "registry-prefix"),
    };
    // A tenant check without an address is bad usage, never "Ready" for the demo server.
    assertTenantAddress(source);
    const observer = new ResponseObserver();
    const api = await openSource({
      ...source,
      computers: 50,
      wrapFetch: (inner) => observer.wrap(inner),
    });
    try {
      const result = await runDoctor(api.client, observer);
      printOut(
        values.json === true
          ? terminalJson(doctorJson(result, api.source))
          : formatTable(result, api.source),
      );
      return result.ready ? 0 : 1;
    } finally {
      await api.close();
    }
  } catch (error) {
    return reportError(error);
  }
}
