import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "../../lib/api/client.ts";
import {
  ApiError,
  AuthError,
  NetworkError,
  NormalisationError,
  PagingIntegrityError,
} from "../../lib/api/errors.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-error-line-0123456789";
const FORGED = "2025-06-30T12:00:00Z INFO report sent to auditors";
/** Line breaks and controls a service might put in its message to forge or hide a log line. */
const BREAKS = [
  "\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  "\x1b[2K\r",
  "\v",
  "\f",
  "\u202e",
];

const client = (baseUrl: string, extra: Record<string, unknown> = {}) =>
  createClient({ baseUrl, token: TOKEN, env: () => undefined, retries: 0, ...extra });

/** Asserts one line with no control character, the break shown escaped. */
// deno-lint-ignore no-control-regex
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function assertOneLine(message: string, what: string) {
  assert.doesNotMatch(message, BREAKING, what);
  assert.ok(message.includes("INFO report sent"), `${what}: the text is still shown`);
}

describe("service text in errors stays on one line", () => {
  it("escapes line breaks and controls in the error body's message", async () => {
    let message = "";
    const srv = serveHostile(() =>
      Response.json({ error: { code: 400, message } }, { status: 400 })
    );
    try {
      for (const brk of BREAKS) {
        message = `Bad filter${brk}${FORGED}`;
        const error = await client(srv.url).object("licenses.get", { id: "L1" }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof ApiError, String(error));
        assertOneLine(error.message, JSON.stringify(brk));
        assert.ok(error.message.startsWith("GET /api/sam/v1/licenses/L1 → 400: "));
      }
      message = "Bad filter: page_size must be at most 1000";
      const plain = await client(srv.url).object("licenses.get", { id: "L1" }).catch((e) => e);
      assert.equal(
        plain.message,
        `GET /api/sam/v1/licenses/L1 → 400: ${message}`,
        "plain text as is",
      );
    } finally {
      await srv.close();
    }
  });

  it("escapes them in a text body, a 403's detail and a 5xx", async () => {
    for (const status of [403, 500, 502]) {
      const srv = serveHostile(() => new Response(`denied\n${FORGED}`, { status }));
      try {
        const error = await client(srv.url).object("licenses.get", { id: "L1" }).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(error instanceof ApiError, String(error));
        assertOneLine(error.message, String(status));
      } finally {
        await srv.close();
      }
    }
  });

  it("escapes them in what the token endpoint says", async () => {
    for (
      const answer of [
        () => Response.json({ error: `invalid_client\n${FORGED}` }, { status: 400 }),
        () => Response.json({ access_token: "t", token_type: `MAC\n${FORGED}` }),
      ]
    ) {
      const srv = serveHostile(answer);
      try {
        const error = await createClient({
          baseUrl: srv.url,
          clientId: "reports",
          clientSecret: "secret-0123456789",
          env: () => undefined,
        }).object("licenses.get", { id: "L1" }).then(() => undefined, (e) => e);
        assert.ok(error instanceof AuthError, String(error));
        assertOneLine(error.message, "token endpoint");
      } finally {
        await srv.close();
      }
    }
  });

  it("keeps a network failure's text on one line", () => {
    const error = new NetworkError({ method: "GET", path: "/x", message: `reset\n${FORGED}` });
    assertOneLine(error.message, "NetworkError");
  });
});

describe("ids the service sent stay on one line in read errors", () => {
  it("escapes a line separator or bidi control in a normalisation or paging error", () => {
    const id = `C1\u2028${FORGED}\u202e`;
    const normalisation = new NormalisationError({
      resource: "Computer",
      field: "cores",
      raw: `12\u2029${FORGED}`,
      expected: "number",
      operation: "estate.computers",
      item: `item ${JSON.stringify(id)}`,
    });
    assertOneLine(normalisation.message, "NormalisationError");
    const paging = new PagingIntegrityError({
      operation: "estate.computers",
      problem: `item ${JSON.stringify(id)} was on two pages`,
      pageNumber: 2,
      readItems: 3,
      duplicates: 1,
      reads: 3,
    });
    assertOneLine(paging.message, "PagingIntegrityError");
  });
});
