/**
 * A service whose 200 bodies are not UTF-8 (a legacy Latin-1 encoder, with or without a charset
 * that says so): JSON is UTF-8 (RFC 8259 section 8.1), so such a body fails the read, naming
 * the call and the encoding, and a report over it writes nothing — never a name with a byte
 * replaced by U+FFFD. A UTF-8 body with a byte order mark, or labelled with another media type,
 * is still read exactly.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { NetworkError, RefusedResponseError } from "../../lib/api/errors.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { serveHostile } from "../helpers/hostile_http.ts";
import { forwardRequest } from "../helpers/forward.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { licenseCostSummary } from "../../reports/mod.ts";

const TOKEN = "tok-hostile-encoding-0123456789";

/** `text` encoded one byte per character (every character below U+0100), as Latin-1 is. */
function latin1(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    assert.ok(code < 0x100, "not Latin-1");
    out[i] = code;
  }
  return out;
}

/**
 * Runs `fn` with a client of a server answering every GET with `body` and `contentType`; returns
 * how many requests the server had.
 */
async function withBody(
  body: Uint8Array<ArrayBuffer> | string,
  contentType: string,
  fn: (client: SamClient) => Promise<void>,
  retries = 0,
): Promise<number> {
  let asked = 0;
  const srv = serveHostile(() => {
    asked++;
    return new Response(body, { headers: { "content-type": contentType } });
  });
  try {
    const sleep = () => Promise.resolve();
    await fn(
      createClient({ baseUrl: srv.url, token: TOKEN, env: () => undefined, retries, sleep }),
    );
  } finally {
    await srv.close();
  }
  return asked;
}

/** One read of each kind, each answered by the same body. */
const READS: [string, RegExp, (c: SamClient) => Promise<unknown>][] = [
  ["licenses.list", /GET \/api\/sam\/v1\/licenses: /, (c) => c.licenses.list().toArray()],
  ["licenses.get", /GET \/api\/sam\/v1\/licenses\/L1: /, (c) => c.licenses.get("L1")],
  [
    "registry.families",
    /GET \/api\/sam\/software-registry\/v1\/families: /,
    (c) => c.registry.families().toArray(),
  ],
  [
    "licenses.entitlementStates",
    /GET \/api\/sam\/v1\/licenses\/entitlements\/entitlement-states: /,
    (c) => c.licenses.entitlementStates().toArray(),
  ],
];

/** An answer every read above takes: a collection envelope whose one item is also an object. */
const ANSWER = '{"id":"L1","name":"Müller","items":[{"id":"L1","name":"Müller"}]}';

describe("a body that is not UTF-8", () => {
  for (const contentType of ["application/json", "application/json; charset=iso-8859-1"]) {
    for (const [op, path, read] of READS) {
      it(`fails ${op}, naming the call and UTF-8 (${contentType})`, async () => {
        const declared = contentType.includes("iso-8859-1");
        const asked = await withBody(latin1(ANSWER), contentType, async (client) => {
          const error = await read(client).then(() => undefined, (e) => e);
          if (declared) {
            // The service says it sends Latin-1: it will again, so it is refused, not retried.
            assert.ok(error instanceof RefusedResponseError, `${op} read ${error}`);
            assert.equal(error.refusal, "encoding");
            assert.match(error.message, new RegExp(path.source.replace("GET ", "")));
            assert.match(error.message, /iso-8859-1/);
          } else {
            // No charset: a body cut inside a character looks the same, so it is retried.
            assert.ok(error instanceof NetworkError, `${op} read ${JSON.stringify(error)}`);
            assert.match(error.message, path);
          }
          assert.match(error.message, /not UTF-8/);
          assert.ok(!error.message.includes(TOKEN));
        }, 2);
        assert.equal(asked, declared ? 1 : 3, `${op}: requests with 2 retries`);
      });
    }
  }

  it("is read exactly when it is UTF-8, with a byte order mark or another media type", async () => {
    for (const [body, type] of [[`\uFEFF${ANSWER}`, "application/json"], [ANSWER, "text/html"]]) {
      await withBody(body!, type!, async (client) => {
        for (const [op, , read] of READS) {
          const got = await read(client);
          const first = (Array.isArray(got) ? got[0] : got) as { name: string };
          assert.equal(first.name, "Müller", `${op} with ${type}`);
        }
      });
    }
  });
});

describe("a report over a service that sends the license list in Latin-1", () => {
  let server: RunningServer;
  let proxy: { url: string; close(): Promise<void> };
  let transcoded = 0;
  before(async () => {
    server = await startServer({ port: 0, computers: 20, seed: 3, quiet: true, token: "t" });
    const listPath = "/api/sam/v1/licenses";
    const srv = serveHostile(async (req, url) => {
      const res = await forwardRequest(req, server.url);
      if (url.pathname !== listPath || res.status !== 200) return res;
      const text = (await res.text()).replace(/"vendor":"/, '"vendor":"Müller ');
      transcoded++;
      return new Response(latin1(text), {
        headers: { "content-type": "application/json; charset=iso-8859-1" },
      });
    });
    proxy = srv;
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  it("fails license-cost-summary naming the call and the encoding, and writes nothing", async () => {
    const base = await Deno.makeTempDir({ prefix: "samkit-hostile-encoding-" });
    const dir = `${base}/out`;
    try {
      const error = await runReportForTest({
        server: { url: proxy.url, token: "t" },
        report: licenseCostSummary,
        formats: ["json", "csv"],
        dir,
      }).then(() => undefined, (e: Error) => e);
      assert.ok(transcoded > 0, "the proxy never sent the list");
      assert.ok(error instanceof RefusedResponseError, `the report finished: ${error}`);
      assert.match(error.message, /\/api\/sam\/v1\/licenses: .*not UTF-8.*iso-8859-1/);
      const written = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
      assert.deepEqual(written, [], "files written");
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  });
});
