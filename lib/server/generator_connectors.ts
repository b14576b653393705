/**
 * Cloud connectors of the generated estate and their monthly retrieval history: both request
 * types, every status (succeeded, failed with `Account-Connection-Error`, in progress, never run),
 * failed months and months that never ran.
 *
 * @module
 */

import { CONNECTOR_PROVIDER_NAMES, CONNECTORS } from "./generator_catalogue.ts";
import { type Ctx, HOUR, iso, MINUTE, pad, streamFor } from "./generator_context.ts";

/** The error code of failed connectors and retrievals. */
export const CONNECTION_ERROR = "Account-Connection-Error";

const KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const SECRET_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * Emit the `connectors` and `retrievals` rows.
 *
 * @example
 * ```ts ignore
 * emitConnectors(ctx); // ctx from generator.ts
 * ```
 */
export function emitConnectors(ctx: Pick<Ctx, "seed" | "now" | "emit">): void {
  const { seed, now, emit } = ctx;
  const r = streamFor(seed, "connectors");
  const today = new Date(now);
  const year = today.getUTCFullYear(), month = today.getUTCMonth();
  CONNECTORS.forEach((c, k) => {
    const id = `CCN${pad(k + 1, 2)}`;
    const slug = c.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    const createdAt = Math.min(
      now - r.int(1, 48) * HOUR,
      Date.UTC(year, month - c.ageMonths, 1 + r.int(0, 20), r.int(7, 18), r.int(0, 59)),
    );
    // One retrieval per complete month since creation; the newest carries the status.
    let lastSuccess: number | null = null;
    let last: { contextId: string; updatedAt: number } | null = null;
    for (let j = 0; j < c.ageMonths; j++) {
      const first = c.ageMonths - j;
      const newest = j === c.ageMonths - 1;
      if (!newest && j > 0 && r.chance(0.08)) continue; // never ran that month
      const type = newest ? c.status : r.chance(0.12) ? "failed" : "succeeded";
      const updatedAt = Math.max(
        createdAt + HOUR,
        Math.min(
          now - r.int(10, 120) * MINUTE,
          Date.UTC(year, month - first + 1, 1 + r.int(0, 3), r.int(0, 23), r.int(0, 59)),
        ),
      );
      if (type === "succeeded") lastSuccess = updatedAt;
      const contextId = r.guid();
      emit("retrievals", {
        contextId,
        calendarMonth: new Date(Date.UTC(year, month - first, 1)).toISOString().slice(0, 10),
        type,
        errorCode: type === "failed" ? CONNECTION_ERROR : null,
        updatedAt: iso(updatedAt),
        lastInProgressTime: iso(updatedAt - r.int(5, 90) * MINUTE),
        lastSuccessTime: iso(lastSuccess),
        connectorId: id,
      });
      last = { contextId, updatedAt };
    }
    const a = c.requestType === "ProviderAStore";
    emit("connectors", {
      id,
      name: c.name,
      type: CONNECTOR_PROVIDER_NAMES[c.requestType],
      createdAt: iso(createdAt),
      status_contextId: last?.contextId ?? r.guid(),
      status_updatedAt: iso(last?.updatedAt ?? createdAt),
      status_type: c.status,
      status_errorCode: c.status === "failed" ? CONNECTION_ERROR : null,
      requestType: c.requestType,
      bucketName: a ? `contoso-cur-${slug}` : `contosobilling${pad(k + 1, 2)}`,
      reportPrefix: a ? "cur/" : "exports/monthly/",
      reportName: `contoso-${slug}`,
      region: c.region,
      accessKey: `AKEX${r.chars(16, KEY_CHARS)}`,
      secretKey: r.chars(40, SECRET_CHARS),
    });
  });
}
