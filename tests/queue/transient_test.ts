import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isTransient, isTransientError } from "../../lib/queue/transient.ts";
import { NetworkError, PermissionError, ServerError } from "../../lib/api/errors.ts";

describe("which pack failures the queue retries", () => {
  it("retries the network: fetch failed after the client's retries, refused, reset, DNS, time-outs, 429 and 5xx", () => {
    for (
      const message of [
        "license-cost-summary: GET /api/sam/license/v1/licenses: request failed: fetch failed (after 4 retries)",
        "GET /x: request failed: error sending request for url (http://a/x): client error (Connect): tcp connect error: Connection refused (os error 111)",
        "GET /x: request failed: connection reset by peer (after 4 retries)",
        "GET /x: request failed: dns error: failed to lookup address information",
        "GET /x: timed out after 30000 ms (after 4 retries)",
        "GET /x → 503: Service Unavailable (after 4 retries)",
        "GET /x → 429: Too Many Requests (rate limited: gave up after 5 waits)",
      ]
    ) assert.equal(isTransient(message), true, message);
  });

  it("does not retry what answers the same next time: 4xx, Deno permissions, bad input", () => {
    for (
      const message of [
        "GET /x → 403: Forbidden (permission denied: …; not retried)",
        "POST /oauth/token → 401: invalid_client",
        "GET /x → 400: Bad filter",
        'GET /x: request failed: Requires net access to "sam.example.com:443", run again with the --allow-net flag',
        "Fetch failed: Requests to port 1 are blocked",
        "tenant acme: environment variable ACME_TOKEN is not set",
        "weekly.json: reports[0].id: unknown report",
      ]
    ) assert.equal(isTransient(message), false, message);
  });

  it("judges thrown errors by their class first", () => {
    assert.equal(isTransientError(new TypeError("fetch failed")), true);
    assert.equal(
      isTransientError(new NetworkError({ method: "GET", path: "/x", message: "socket hang up" })),
      true,
    );
    assert.equal(
      isTransientError(new ServerError({ status: 502, method: "GET", path: "/x", message: "" })),
      true,
    );
    assert.equal(isTransientError(new Deno.errors.ConnectionRefused("refused")), true);
    assert.equal(
      isTransientError(new PermissionError({ status: 403, method: "GET", path: "/", message: "" })),
      false,
    );
    assert.equal(isTransientError(new Deno.errors.NotCapable("Requires read access")), false);
    assert.equal(isTransientError(new Error("bad pack")), false);
  });
});
