/**
 * The PostgreSQL the queue tests run against: `SAMKIT_TEST_DATABASE_URL` (set by `.ci/run`).
 * Each test file gets a fresh database of its own, dropped afterwards. In CI (`CI` set) a missing
 * URL or an unreachable server fails the tests with a clear message; on a developer machine with
 * the variable unset they are skipped with a printed reason.
 *
 * @module
 */

import pg from "pg";

/**
 * The admin URL, or null (with the reason printed) when the tests should be skipped.
 *
 * @example
 * ```ts ignore
 * import { testDatabaseUrl } from "./test_database.ts";
 * const url = testDatabaseUrl("queue");
 * ```
 */
export function testDatabaseUrl(suite: string): string | null {
  const url = Deno.env.get("SAMKIT_TEST_DATABASE_URL");
  if (url) return url;
  if (Deno.env.get("CI")) {
    throw new Error(
      `${suite}: SAMKIT_TEST_DATABASE_URL is not set: .ci/run starts PostgreSQL and sets it; ` +
        "these tests need a real PostgreSQL",
    );
  }
  console.log(
    `${suite}: skipped: set SAMKIT_TEST_DATABASE_URL to a PostgreSQL URL whose role may ` +
      "CREATE DATABASE (e.g. postgresql://samkit:samkit@127.0.0.1:5432/samkit)",
  );
  return null;
}

/**
 * Creates a fresh database next to the admin URL's; its URL and a function that drops it.
 *
 * @example
 * ```ts ignore
 * import { freshDatabase } from "./test_database.ts";
 * const db = await freshDatabase(url);
 * await db.drop();
 * ```
 */
export async function freshDatabase(
  adminUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `samkit_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (e) {
    throw new Error(
      `cannot connect to PostgreSQL at SAMKIT_TEST_DATABASE_URL: ${(e as Error).message}`,
    );
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await dropForced(c, name);
      } finally {
        await c.end();
      }
    },
  };
}

/** PostgreSQL's insufficient_privilege: a backend the role may not end is on the database. */
const INSUFFICIENT_PRIVILEGE = "42501";

/**
 * `DROP DATABASE … WITH (FORCE)`, which ends the role's own sessions on it but cannot end a
 * superuser's: an autovacuum worker that came to the fresh database after its churn. Then it
 * waits for the database to have no session left (checked every 100 ms, 30 s at most) and drops
 * it again.
 */
async function dropForced(c: pg.Client, name: string): Promise<void> {
  for (let waited = 0;; waited += 100) {
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== INSUFFICIENT_PRIVILEGE || waited >= 30_000) throw e;
    }
    const { rows } = await c.query(
      "SELECT backend_type FROM pg_stat_activity WHERE datname = $1",
      [name],
    );
    if (rows.length > 0) await new Promise((r) => setTimeout(r, 100));
  }
}
