import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { resolveBaseUrl } from "../../lib/api/base_url.ts";
import { createRequest } from "../../lib/api/request.ts";
import { runCli } from "../helpers/cli.ts";

const SECRET = "s3cr3t-in-the-query-0123456789";
const env = (vars: Record<string, string>) => (name: string) => vars[name];

/** The message of what `fn` throws (it must throw a TypeError). */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof TypeError, String(error));
    return error.message;
  }
  assert.fail("did not throw");
}

describe("base URL queries and fragments", () => {
  it("refuses a base URL with a query or fragment without echoing either", () => {
    const urls = [
      `https://sam.example.com/?api_key=${SECRET}`,
      `https://sam.example.com/tenant?api_key=${SECRET}#x`,
      `https://sam.example.com/#${SECRET}`,
      "https://sam.example.com/?",
      "https://sam.example.com/#",
    ];
    for (const baseUrl of urls) {
      for (const options of [{ baseUrl }, { env: env({ SAM_BASE_URL: baseUrl }) }]) {
        const message = thrown(() => resolveBaseUrl(options));
        assert.match(message, /query string or fragment/, baseUrl);
        assert.ok(!message.includes(SECRET), message);
        assert.ok(!message.includes("api_key"), message);
      }
    }
  });

  it("refuses one made of a region and a host with a query", () => {
    const message = thrown(() =>
      resolveBaseUrl({ env: env({ SAM_REGION: "eu", SAM_HOST: `sam.example.com?k=${SECRET}` }) })
    );
    assert.match(message, /query string or fragment/);
    assert.ok(!message.includes(SECRET));
  });

  it("does not echo the query of a base URL that is not a URL", () => {
    const message = thrown(() => resolveBaseUrl({ baseUrl: `http://exa mple.com/?k=${SECRET}` }));
    assert.match(message, /not a URL/);
    assert.ok(!message.includes(SECRET), message);
  });

  it("is refused by the request function too", () => {
    const message = thrown(() => createRequest({ baseUrl: `http://127.0.0.1:9/?k=${SECRET}` }));
    assert.ok(!message.includes(SECRET), message);
  });

  it("is a usage error of the CLI (exit 2), the query not printed", async () => {
    const run = await runCli([
      "report",
      "unused-software",
      "--format",
      "json",
      "--base-url",
      `http://127.0.0.1:9/?token=${SECRET}`,
      "--out",
      "/tmp/samkit-base-url-query-never-written",
    ], { env: { SAM_TOKEN: "tok-base-url-query-0123456789" } });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /query string or fragment/);
    assert.ok(!run.stderr.includes(SECRET) && !run.stdout.includes(SECRET));
  });
});
