/**
 * A token endpoint that issues an access token no `Authorization` header can carry (a line
 * break, a space, a control or a non-ASCII character): the read fails with an `AuthError` naming
 * the token endpoint and what is wrong with the token, on every kind of read, and the token is in
 * no message (it was a `TypeError` quoting it whole, line break and all). A static token or a
 * provider's token with such a character is refused alike, and a CLI report run over such an
 * endpoint exits non-zero, writes nothing and never prints the token.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { AuthError } from "../../lib/api/errors.ts";
import { TOKEN_PATH } from "../../lib/api/operations.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { runCli } from "../helpers/cli.ts";

const SECRET = "client-secret-hostile-token-0123";
/** The issued tokens' common part: the test looks for it in every message. */
const MARK = "ISSUEDtoken9876543210";
const BAD_TOKENS = [
  `${MARK}\r\nX-Injected: 1`,
  `${MARK}\n`,
  `${MARK} more`,
  `${MARK}\u0000`,
  `${MARK}é`,
  `${MARK}\u2028`,
];

/** One read of each kind. */
const READS: [string, (c: SamClient) => Promise<unknown>][] = [
  ["licenses.list", (c) => c.licenses.list().toArray()],
  ["estate.computer", (c) => c.estate.computer("C1")],
  ["registry.families", (c) => c.registry.families().toArray()],
  ["licenses.entitlementStates", (c) => c.licenses.entitlementStates().toArray()],
];

/** A service whose token endpoint issues `token`; its other paths answer an empty page. */
function tokenService(token: string) {
  return serveHostile((_req, url) =>
    url.pathname === TOKEN_PATH
      ? Response.json({ access_token: token, token_type: "Bearer", expires_in: 3600 })
      : Response.json({ items: [], id: "C1", hostName: "h" })
  );
}

describe("an access token no header can carry", () => {
  for (const [op, read] of READS) {
    it(`fails ${op} with an AuthError naming the token endpoint, never the token`, async () => {
      for (const token of BAD_TOKENS) {
        const srv = tokenService(token);
        try {
          const client = createClient({
            baseUrl: srv.url,
            clientId: "reports",
            clientSecret: SECRET,
            env: () => undefined,
          });
          const error = await read(client).then(() => undefined, (e) => e);
          const what = JSON.stringify(token);
          assert.ok(error instanceof AuthError, `${what}: ${error}`);
          assert.match(error.message, new RegExp(`^POST ${TOKEN_PATH} → 200: `), what);
          assert.match(error.message, /cannot be sent in an Authorization header/, what);
          assert.ok(!error.message.includes(MARK), `${what}: the token in ${error.message}`);
          assert.ok(!/[\r\n]/.test(error.message), what);
          assert.deepEqual(srv.hits.map((h) => h.path), [TOKEN_PATH], `${what}: sent on`);
        } finally {
          await srv.close();
        }
      }
    });
  }

  it("is refused as a static token or a provider's, never quoted", async () => {
    for (const token of BAD_TOKENS) {
      assert.throws(
        () => createClient({ baseUrl: "http://127.0.0.1:9", token, env: () => undefined }),
        (e: unknown) => {
          assert.ok(e instanceof TypeError, String(e));
          assert.match(e.message, /^staticToken: the token .*cannot be sent in an Authorization/);
          assert.ok(!e.message.includes(MARK));
          return true;
        },
      );
      const srv = tokenService("unused");
      try {
        const client = createClient({
          baseUrl: srv.url,
          tokenProvider: () => Promise.resolve(token),
          env: () => undefined,
        });
        const error = await client.licenses.list().toArray().then(() => undefined, (e) => e);
        assert.ok(error instanceof TypeError, String(error));
        assert.match(error.message, /^tokenProvider: the token .*cannot be sent/);
        assert.ok(!error.message.includes(MARK));
        assert.equal(srv.hits.length, 0);
      } finally {
        await srv.close();
      }
    }
  });

  it("fails a CLI report run: non-zero, nothing written, the token never printed", async () => {
    const srv = tokenService(BAD_TOKENS[0]!);
    const dir = await Deno.makeTempDir({ prefix: "samkit-hostile-token-" });
    try {
      const run = await runCli(
        ["report", "license-cost-summary", "--format", "json,csv", "--out", dir, "--quiet"].concat(
          ["--base-url", srv.url],
        ),
        { env: { SAM_CLIENT_ID: "reports", SAM_CLIENT_SECRET: SECRET } },
      );
      assert.notEqual(run.code, 0, run.stderr);
      assert.match(run.stderr, /token/i);
      assert.match(run.stderr, /cannot be sent in an Authorization header/);
      for (const text of [run.stderr, run.stdout]) {
        assert.ok(!text.includes(MARK) && !text.includes(SECRET), text);
      }
      assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), []);
    } finally {
      await srv.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
});
