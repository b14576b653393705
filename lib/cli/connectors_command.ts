/**
 * `samkit connectors`: list cloud cost connectors and their retrievals, check a report name,
 * test or add a configuration, and rotate credentials. Keys come from the environment only
 * (`SAMKIT_CONNECTOR_ACCESS_KEY`, `SAMKIT_CONNECTOR_SECRET_KEY`), never from flags, so they do
 * not land in shell history or process lists, and they are never printed: they are registered as
 * secrets when read, and what the service answers is printed with every field named like a
 * secret redacted and every registered secret (keys, token) removed by value.
 *
 * @module
 */

import { parseArgs, stringFlag } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { reportError } from "./errors.ts";
import { printOut, terminalJson, terminalText } from "./terminal_text.ts";
import { assertTenantAddress, openSource, type SourceOptions, tokenFlag } from "./source.ts";
import type { ConnectorConfiguration, ConnectorType } from "../api/client.ts";
import { explainConnectorNotFound } from "../api/connector_path.ts";
import { printable } from "../api/redact.ts";
import { registerSecret } from "../api/secrets.ts";

/** The help text of `samkit connectors`. */
export const CONNECTORS_HELP = `Usage: deno task connectors <action> [options]

Actions:
  list                         Every connector with its status and error code
  retrievals ID                A connector's retrieval history
  validate --type T --report-name N
                               Whether a report name is still free for that connector type
  test --type T [details]      Test a configuration (nothing is created)
  add --type T [details]       Create a connector (after the same test)
  update-credentials ID        Replace a connector's keys

Details: --bucket B --report-prefix P --report-name N --region R [--name NAME]
Types: ProviderAStore (object store), ProviderBBlob (blob store)
Keys: SAMKIT_CONNECTOR_ACCESS_KEY and SAMKIT_CONNECTOR_SECRET_KEY (environment only).

Connector path: no public document describes the connector API, so its path prefix is
samkit's guess (/api/cloud-cost/v1); set SAM_CONNECTORS_PREFIX to your tenant's.

Options:
  --json            Machine-readable output
  --base-url URL    The SAM API (else SAM_BASE_URL / SAM_REGION; none: the embedded demo server,
                    when no credentials are set)
  --token TOKEN     A bearer token (else SAM_TOKEN, or SAM_CLIENT_ID + SAM_CLIENT_SECRET)
  --tenant          Never the demo server: no API address is bad usage (connectors:tenant passes it)
  -h, --help        This help`;

const TYPES: readonly ConnectorType[] = ["ProviderAStore", "ProviderBBlob"];

function keys(): { accessKey: string; secretKey: string } {
  const accessKey = Deno.env.get("SAMKIT_CONNECTOR_ACCESS_KEY");
  const secretKey = Deno.env.get("SAMKIT_CONNECTOR_SECRET_KEY");
  if (!accessKey || !secretKey) {
    throw new UsageError(
      "set SAMKIT_CONNECTOR_ACCESS_KEY and SAMKIT_CONNECTOR_SECRET_KEY for this action",
    );
  }
  registerSecret(accessKey);
  registerSecret(secretKey);
  return { accessKey, secretKey };
}

function connectorType(values: Record<string, unknown>): ConnectorType {
  const type = stringFlag(values as never, "type");
  if (!type) throw new UsageError(`--type is required: ${TYPES.join(" or ")}`);
  const hit = TYPES.find((t) => t.toLowerCase() === type.toLowerCase());
  if (!hit) throw new UsageError(`unknown connector type "${type}"; types are ${TYPES.join(", ")}`);
  return hit;
}

function configuration(values: Record<string, unknown>): ConnectorConfiguration {
  const type = connectorType(values);
  const details: Record<string, string> = {};
  for (
    const [flag, field] of [
      ["bucket", "bucketName"],
      ["report-prefix", "reportPrefix"],
      ["report-name", "reportName"],
      ["region", "region"],
      ["name", "name"],
    ]
  ) {
    const v = stringFlag(values as never, flag);
    if (v !== undefined) details[field] = v;
  }
  return { type, connectionDetails: { ...details, ...keys() } };
}

function table(rows: Record<string, unknown>[], columns: string[]): string {
  const cell = (v: unknown) =>
    v instanceof Date
      ? v.toISOString()
      : v === null || v === undefined
      ? "—"
      : terminalText(String(v)).replace(/\s/g, " ");
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [
    line(columns),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ]
    .join("\n");
}

/**
 * Runs `samkit connectors` and returns the exit code.
 *
 * @example
 * ```ts ignore
 * import { connectorsCommand } from "./connectors_command.ts";
 * Deno.exit(await connectorsCommand(["list"]));
 * ```
 */
export async function connectorsCommand(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs(argv, {
      type: { type: "string" },
      bucket: { type: "string" },
      "report-prefix": { type: "string" },
      "report-name": { type: "string" },
      region: { type: "string" },
      name: { type: "string" },
      json: { type: "boolean" },
      "base-url": { type: "string" },
      token: { type: "string" },
      tenant: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help || positionals.length === 0) {
      console.log(CONNECTORS_HELP);
      return values.help ? 0 : 2;
    }
    const [action, ...rest] = positionals;
    const needsId = action === "retrievals" || action === "update-credentials";
    if (needsId && rest.length !== 1) throw new UsageError(`${action} needs one connector id`);
    if (!needsId && rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    // Check the action's own input before connecting.
    let run: (client: Awaited<ReturnType<typeof openSource>>["client"]) => Promise<unknown>;
    let columns: string[] | undefined;
    switch (action) {
      case "list":
        columns = ["id", "name", "type", "status", "errorCode", "updatedAt", "createdAt"];
        run = async (c) =>
          (await c.connectors.list().toArray()).map((x) => ({
            id: x.id,
            name: x.name,
            type: x.type,
            status: x.status?.type ?? null,
            errorCode: x.status?.errorCode ?? null,
            updatedAt: x.status?.updatedAt ?? null,
            createdAt: x.createdAt,
          }));
        break;
      case "retrievals":
        columns = [
          "calendarMonth",
          "type",
          "errorCode",
          "lastSuccessTime",
          "lastInProgressTime",
          "updatedAt",
        ];
        run = (c) => c.connectors.retrievals(rest[0]).toArray();
        break;
      case "validate": {
        const type = connectorType(values);
        const name = stringFlag(values, "report-name");
        if (!name) throw new UsageError("--report-name is required");
        run = (c) => c.connectors.validateReportName({ type, name });
        break;
      }
      case "test": {
        const config = configuration(values);
        run = (c) => c.connectors.test(config);
        break;
      }
      case "add": {
        const config = configuration(values);
        run = (c) => c.connectors.add(config);
        break;
      }
      case "update-credentials": {
        const credentials = keys();
        run = (c) => c.connectors.updateCredentials(rest[0], credentials);
        break;
      }
      default:
        throw new UsageError(
          `unknown action "${action}"; actions: list, retrievals, validate, test, add, update-credentials`,
        );
    }
    const source: SourceOptions = {
      baseUrl: stringFlag(values, "base-url"),
      token: tokenFlag(stringFlag(values, "token")),
      tenant: values.tenant === true,
    };
    // A tenant's connectors without an address: bad usage, never the demo server's connectors.
    assertTenantAddress(source);
    const api = await openSource(source);
    try {
      // Where no connector id is named, a 404 means the connector API is not at this path.
      const answer = await run(api.client).catch((error) => {
        throw needsId ? error : explainConnectorNotFound(error);
      });
      // The service may echo keys on success: no field named like a secret, no known secret.
      const result = printable(answer);
      // Names and error codes come from the server: no escape sequence reaches the terminal.
      if (values.json || !columns) console.log(terminalJson(result));
      else printOut(table(result as Record<string, unknown>[], columns));
      return 0;
    } finally {
      await api.close();
    }
  } catch (error) {
    return reportError(error);
  }
}
