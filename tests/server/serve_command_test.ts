import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { serveCommand } from "../../lib/server/serve_command.ts";

/** Run the command with captured output; `whileUp` runs once it prints its URL, then it stops. */
async function run(argv: string[], whileUp?: (url: string) => Promise<void>) {
  const out: string[] = [];
  const err: string[] = [];
  const stop = new AbortController();
  let up: Promise<void> | undefined;
  const code = await serveCommand(argv, {
    signal: stop.signal,
    printError: (l) => err.push(l),
    print: (l) => {
      out.push(l);
      const m = /^listening on (\S+)$/.exec(l);
      if (m) {
        up = (whileUp ? whileUp(m[1]) : Promise.resolve()).finally(() => stop.abort());
      }
    },
  });
  await up;
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("samkit serve", () => {
  it("exits 2 with a message for bad flags", async () => {
    const cases: [string[], RegExp][] = [
      [["--port", "http"], /--port must be an integer/],
      [["--port", "70000"], /--port must be at most 65535/],
      [["--computers", "0"], /--computers must be an integer of at least 1/],
      [["--bogus"], /bogus/],
      [["extra"], /unexpected argument "extra"/],
      [["--client-secret", ""], /--client-secret must not be empty/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      assert.equal(r.code, 2, argv.join(" "));
      assert.match(r.err, message);
      assert.match(r.err, /Usage: samkit serve/);
    }
  });

  it("prints its usage for --help and exits 0", async () => {
    const r = await run(["--help"]);
    assert.equal(r.code, 0);
    assert.match(r.out, /--rate-limit N/);
  });

  it("serves until stopped and prints where and the demo credentials", async () => {
    const r = await run(["--port", "0", "--computers", "8", "--seed", "2"], async (url) => {
      const res = await fetch(`${url}/idp/api/connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&client_id=demo&client_secret=demo-secret",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    });
    assert.equal(r.code, 0);
    assert.match(r.out, /^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    assert.match(r.out, /^client id: demo$/m);
    assert.match(r.out, /^client secret: demo-secret$/m);
    assert.match(r.out, /stopped/);
  });

  it("never prints a secret or token the user supplied", async () => {
    const secret = "Very-Private-Secret-42";
    const token = "Private-Fixed-Token-99";
    const r = await run(
      [
        "--port",
        "0",
        "--computers",
        "3",
        "--client-id",
        "acme",
        "--client-secret",
        secret,
        "--token",
        token,
      ],
      async (url) => {
        const res = await fetch(`${url}/api/sam/estate/v1/computers`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      },
    );
    assert.equal(r.code, 0);
    assert.match(r.out, /client id: acme/);
    assert.match(r.out, /client secret: \(as given\)/);
    assert.ok(!r.out.includes(secret) && !r.err.includes(secret));
    assert.ok(!r.out.includes(token) && !r.err.includes(token));
  });
});
