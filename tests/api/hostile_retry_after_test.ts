/**
 * A throttled service whose `Retry-After` is garbage: only delay-seconds and the three HTTP-date
 * forms of RFC 9110 section 5.6.7 are a wait asked for. Text the lenient `Date.parse` happens to
 * read as a date (`"a 1"` is 2001, `"x 2030"` is 2030) is no wait asked for: the client backs off
 * as for a 429 or 503 without one, rather than retry at once (hammering the service) or give up
 * at once on a four-year "wait".
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, type SamClient } from "../../lib/api/client.ts";
import { serveHostile } from "../helpers/hostile_http.ts";

const TOKEN = "tok-hostile-retry-after-0123456789";
const NOW = Date.parse("Wed, 21 Oct 2015 07:28:00 GMT");

/** One read of each kind, with the JSON that answers it. */
const READS: [string, (c: SamClient) => Promise<unknown>, unknown][] = [
  ["licenses.list", (c) => c.licenses.list().toArray(), { items: [{ id: "L1", quantity: 1 }] }],
  ["estate.computer", (c) => c.estate.computer("C1"), { id: "C1", hostName: "h" }],
  ["registry.family", (c) => c.registry.family("F1"), { id: "F1", name: "Office" }],
];

/**
 * The waits a read made when its first answer was `status` with `retryAfter` (then a good one),
 * on a wall clock that moves only by those waits; backoff jitter is 0 (half the step). (A wait
 * asked for also holds the read's later requests at the client's gate, timed by the real
 * monotonic clock: only the first wait is the one asked for.)
 */
async function waitsAfter(
  status: number,
  retryAfter: string,
  read: (c: SamClient) => Promise<unknown>,
  good: unknown,
): Promise<number[]> {
  let first = true;
  const srv = serveHostile(() => {
    if (!first) return Response.json(good);
    first = false;
    return new Response("{}", { status, headers: { "retry-after": retryAfter } });
  });
  const waits: number[] = [];
  let clock = 0;
  try {
    const client = createClient({
      baseUrl: srv.url,
      token: TOKEN,
      env: () => undefined,
      random: () => 0,
      now: () => NOW + clock,
      sleep: (ms) => {
        waits.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    await read(client);
    return waits;
  } finally {
    await srv.close();
  }
}

/** The first backoff step with no jitter: half of 1,000 ms for a 429, of 500 ms for a 503. */
const BACKOFF: Readonly<Record<number, number>> = { 429: 500, 503: 250 };

describe("a Retry-After that is neither seconds nor an HTTP date", () => {
  const garbage = ["a 1", "x 2030", "May 2099", "-5", "1e3", "Infinity", "soon", "2, 3"];
  for (const [op, read, good] of READS) {
    for (const status of [429, 503]) {
      it(`is backed off from on ${op} after a ${status}`, async () => {
        for (const value of garbage) {
          const waits = await waitsAfter(status, value, read, good);
          assert.deepEqual(waits, [BACKOFF[status]], `Retry-After: ${JSON.stringify(value)}`);
        }
      });
    }
  }
});

describe("a Retry-After HTTP date", () => {
  const dates = [
    "Wed, 21 Oct 2015 07:28:30 GMT",
    "Wednesday, 21-Oct-15 07:28:30 GMT",
    "Wed Oct 21 07:28:30 2015",
    "wed, 21 oct 2015 07:28:30 gmt",
  ];
  for (const [op, read, good] of READS) {
    it(`is waited for, in each of RFC 9110's three forms, on ${op}`, async () => {
      for (const value of dates) {
        const waits = await waitsAfter(429, value, read, good);
        assert.equal(waits[0], 30_000, `Retry-After: ${JSON.stringify(value)}`);
      }
      assert.equal((await waitsAfter(429, "7", read, good))[0], 7_000);
      assert.deepEqual(await waitsAfter(429, "Wed, 21 Oct 2015 07:27:00 GMT", read, good), []);
    });
  }
});
