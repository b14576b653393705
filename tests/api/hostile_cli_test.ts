/**
 * CLI report runs through a proxy in front of the reference server that tells one lie each, of
 * the kinds the client used to take without a word: a `next` link of a flat collection spelt
 * `"self next"` (the run must write what the faithful run writes), a license list in Latin-1, a
 * license id beyond 2^53, an application's license tracking answered with another application's
 * (each run must exit non-zero, name the operation or call and the problem, write nothing and
 * print no secret).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { forwardRequest } from "../helpers/forward.ts";
import { type HostileServer, serveHostile } from "../helpers/hostile_http.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { runCli } from "../helpers/cli.ts";

const SECRET = "demo-secret";

/** A lie: the paths it tells it on, and the answer it sends instead of upstream's. */
interface Lie {
  readonly path: RegExp;
  readonly answer: (upstream: Response) => Promise<Response>;
}

/** `text` one byte per character, as Latin-1 encodes it. */
function latin1(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Upstream's JSON body passed through `edit`. */
const edited = (edit: (text: string) => string) => async (res: Response) =>
  new Response(edit(await res.text()), {
    status: res.status,
    headers: { "content-type": "application/json" },
  });

/** A run's exit code, stderr and files (JSON and CSV, the proxy's address and run time set aside). */
interface Run {
  readonly code: number;
  readonly stderr: string;
  readonly files: ReadonlyMap<string, string>;
}

describe("CLI report runs over a service that lies", () => {
  let server: RunningServer;
  let proxy: HostileServer;
  let lie: Lie | undefined;
  let told = 0;
  before(async () => {
    server = await startServer({ port: 0, computers: 30, seed: 1, now: TEST_NOW, quiet: true });
    proxy = serveHostile(async (req, url) => {
      const res = await forwardRequest(req, server.url);
      if (!lie || res.status !== 200 || !lie.path.test(url.pathname)) return res;
      told++;
      return await lie.answer(res);
    });
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  async function run(report: string, with_?: Lie): Promise<Run> {
    lie = with_;
    told = 0;
    const dir = await Deno.makeTempDir({ prefix: "samkit-hostile-cli-" });
    try {
      const { code, stderr, stdout } = await runCli(
        ["report", report, "--format", "json,csv", "--out", dir, "--base-url", proxy.url],
        { env: { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: SECRET } },
      );
      assert.ok(!stderr.includes(SECRET) && !stdout.includes(SECRET), "the secret was printed");
      if (with_) assert.ok(told > 0, `${report}: the lie was never told`);
      const files = new Map<string, string>();
      for await (const e of Deno.readDir(dir)) {
        const text = await Deno.readTextFile(`${dir}/${e.name}`);
        files.set(e.name, text.replace(/"generatedAt":"[^"]*"/, ""));
      }
      return { code, stderr, files };
    } finally {
      lie = undefined;
      await Deno.remove(dir, { recursive: true });
    }
  }

  function assertNamedFailure(r: Run, ...names: RegExp[]) {
    assert.notEqual(r.code, 0, "exited 0");
    for (const name of names) assert.match(r.stderr, name);
    assert.deepEqual([...r.files.keys()], [], "files written");
  }

  it('reads a flat collection whose next links are spelt "self next" to its end', async () => {
    const report = "entitlement-state-by-computer";
    const faithful = await run(report);
    assert.equal(faithful.code, 0, faithful.stderr);
    const bent = await run(report, {
      path: /\/entitlements\/entitlement-states$/,
      answer: edited((t) => t.replaceAll('"rel":"next"', '"rel":"self next"')),
    });
    assert.equal(bent.code, 0, bent.stderr);
    assert.ok(faithful.files.size > 1);
    assert.deepEqual(bent.files, faithful.files);
  });

  it("fails on a license list in Latin-1, naming the call and the encoding", async () => {
    const r = await run("license-cost-summary", {
      path: /^\/api\/sam\/v1\/licenses$/,
      answer: async (res) =>
        new Response(latin1((await res.text()).replace(/"vendor":"/, '"vendor":"Müller ')), {
          headers: { "content-type": "application/json; charset=iso-8859-1" },
        }),
    });
    assertNamedFailure(
      r,
      /licenses\.list \/api\/sam\/v1\/licenses/,
      /not UTF-8/,
      /not retried/,
      /ask the service's owner .* to send UTF-8/,
    );
    assert.doesNotMatch(r.stderr, /--base-url/, "the base URL is not what is wrong");
  });

  it("fails on a license id beyond 2^53, naming the operation, the item and the field", async () => {
    const r = await run("license-cost-summary", {
      path: /^\/api\/sam\/v1\/licenses$/,
      answer: edited((t) => t.replace(/"id":"LIC\d+"/, '"id":12345678901234567890')),
    });
    assertNamedFailure(r, /licenses\.list/, /License\.id/, /12345678901234567000/);
  });

  it("fails on an application's tracking answered with another's, naming the field", async () => {
    const r = await run("license-position", {
      path: /^\/api\/sam\/v1\/licenses\/tracking\/[^/]+\/computers$/,
      answer: edited((t) => t.replace(/"applicationId":"[^"]+"/g, '"applicationId":"APP-X"')),
    });
    assertNamedFailure(r, /licenses\.computerTracking/, /applicationId "APP-X"/);
  });
});
