/**
 * Bad input is caught before anything is written: `report`, `pack` and `demo` given a bad
 * parameter, filter, price file, host or token exit 2 (bad input) or 1 (a run that failed) with
 * a message naming the problem, and leave no `--out` folder behind — not even an empty one.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { RunningServer } from "../../lib/server/server.ts";
import { withServer } from "../helpers/server.ts";
import { type CliRun, runCli as samkit } from "../helpers/cli.ts";
import { exists } from "../helpers/files.ts";

/**
 * A fresh temp folder; `fn` gets it and the `--out` to pass (two levels that do not exist yet),
 * and the folder is removed afterwards.
 */
async function inTemp(fn: (tmp: string, out: string) => Promise<void>): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "samkit-rejected-" });
  try {
    await fn(tmp, `${tmp}/out/reports`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Asserts the exit code, the message, and that no `--out` folder (nor its parent) was left. */
async function assertRejected(r: CliRun, tmp: string, code: 1 | 2, message: RegExp): Promise<void> {
  assert.equal(r.code, code, r.stderr);
  assert.match(r.stderr, message);
  assert.equal(r.stdout, "", "no file path printed");
  assert.equal(await exists(`${tmp}/out`), false, `no --out folder left: ${r.stderr}`);
}

/** The environment that points samkit at a test server with its client credentials. */
function tenantEnv(srv: RunningServer): Record<string, string> {
  return { SAM_BASE_URL: srv.url, SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" };
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

describe("samkit report on rejected input", () => {
  it("a misspelt filter field exits 2 with the did-you-mean and column, before any request", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp, out) => {
        const r = await samkit(
          ["report", "license-cost-summary", "--filter", "vndor -eq Adobe", "--out", out],
          { env: tenantEnv(srv) },
        );
        await assertRejected(
          r,
          tmp,
          2,
          /filter error at column 1: License has no field "vndor"; did you mean "vendor"\?.*--allow-unknown-fields/,
        );
        assert.ok(r.stderr.includes("\n  vndor -eq Adobe\n  ^"), "a caret under the field");
        assert.equal(srv.stats.total, 0, "no request reached the server");
      }));
  });

  it("with --allow-unknown-fields the field is sent with a warning; the server's refusal writes nothing", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp, out) => {
        const r = await samkit([
          "report",
          "license-cost-summary",
          "--filter",
          "vndor -eq Adobe",
          "--allow-unknown-fields",
          "--format",
          "json", // the 400 comes before any rendering: no browser to launch for it
          "--out",
          out,
          "--quiet",
        ], { env: tenantEnv(srv) });
        await assertRejected(r, tmp, 1, /→ 400: Invalid filter/);
        assert.match(
          r.stderr,
          /warning: licenses\.list: License has no field "vndor" in samkit's catalogue; sending it for the server to judge \(did you mean "vendor"\?\)/,
        );
        assert.ok(srv.stats.total > 0, "the filter was sent");
      }));
  });

  it("a field the real service has (License agreementId) is accepted without the flag", async () => {
    await inTemp(async (_tmp, out) => {
      const r = await samkit([
        "report",
        "license-cost-summary",
        "--filter",
        "agreementId -exists true",
        "--format",
        "json",
        "--computers",
        "20",
        "--out",
        out,
        "--quiet",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(await exists(`${out}/license-cost-summary.json`));
    });
  });

  const badInput: [string, string[], RegExp][] = [
    [
      "an unknown parameter",
      ["report", "license-cost-summary", "--param", "colour=red"],
      /parameter "colour": not a parameter of license-cost-summary/,
    ],
    [
      "a bad parameter value",
      ["report", "license-cost-summary", "--param", "top=many"],
      /parameter "top": expected a (whole )?number, got "many"/,
    ],
    [
      "a filter that does not parse",
      ["report", "license-cost-summary", "--filter", "vendor -eq"],
      /filter error at column 11/,
    ],
  ];
  for (const [what, args, message] of badInput) {
    it(`${what} exits 2 and leaves no --out folder`, async () => {
      await inTemp(async (tmp, out) => {
        await assertRejected(await samkit([...args, "--out", out]), tmp, 2, message);
      });
    });
  }

  /** Each case writes what it needs into the temp folder and names the price file to pass. */
  const badPriceFiles: [string, (tmp: string) => Promise<string>, RegExp][] = [
    [
      "a missing price file exits 2 and leaves no --out folder",
      (tmp) => Promise.resolve(`${tmp}/no-such-prices.csv`),
      /price file .*no-such-prices\.csv/,
    ],
    [
      "a malformed price file exits 2 naming its line and leaves no --out folder",
      async (tmp) => {
        await Deno.writeTextFile(
          `${tmp}/prices.csv`,
          "application,metric,currency,unitPrice\nOffice,Device,EURO,10\n",
        );
        return `${tmp}/prices.csv`;
      },
      /prices\.csv, line 2: currency "EURO" is not an ISO 4217 code/,
    ],
  ];
  for (const [what, priceFile, message] of badPriceFiles) {
    it(what, async () => {
      await inTemp(async (tmp, out) => {
        const r = await samkit([
          "report",
          "license-position",
          "--param",
          `priceFile=${await priceFile(tmp)}`,
          "--format",
          "json",
          "--computers",
          "20",
          "--out",
          out,
        ]);
        await assertRejected(r, tmp, 2, message);
      });
    });
  }

  it("an unreachable --base-url fails the run and leaves no --out folder", async () => {
    await inTemp(async (tmp, out) => {
      const r = await samkit([
        "report",
        "license-cost-summary",
        "--base-url",
        `http://127.0.0.1:${closedPort()}`,
        "--format",
        "json",
        "--retries", // one retry, not the default four: the back-off is --retries' test's to show
        "1",
        "--out",
        out,
      ], { env: { SAM_TOKEN: "a-token" } });
      await assertRejected(r, tmp, 1, /request failed.*\(after 1 retry\)/);
      assert.match(r.stderr, /Check that the API answers at the base URL/);
    });
  });

  it("a token the service refuses (401) fails the run and leaves no --out folder", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp, out) => {
        const r = await samkit(
          ["report", "license-cost-summary", "--format", "json", "--out", out],
          { env: { SAM_BASE_URL: srv.url, SAM_TOKEN: "not-a-token-it-issued" } },
        );
        await assertRejected(r, tmp, 1, /401/);
        assert.ok(!r.stderr.includes("not-a-token-it-issued"), "the token is not shown");
      }));
  });

  it("a 401 mid-run, after a re-authentication, leaves no empty --out folder", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp, out) => {
        // The first API read succeeds; from the second on, every read is refused.
        srv.faults.add({ match: /^\/api\//, nth: 2, times: 1000, status: 401 });
        const r = await samkit(
          ["report", "license-cost-summary", "--format", "json,csv", "--out", out],
          { env: tenantEnv(srv) },
        );
        await assertRejected(r, tmp, 1, /401/);
        assert.ok((srv.stats.byOperation.get("token") ?? 0) >= 2, "the client re-authenticated");
      }));
  });

  it("a folder that was there before is kept, empty, when the run fails", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp) => {
        await Deno.mkdir(`${tmp}/mine`);
        const r = await samkit(
          ["report", "license-cost-summary", "--format", "json", "--out", `${tmp}/mine`],
          { env: { SAM_BASE_URL: srv.url, SAM_TOKEN: "not-a-token-it-issued" } },
        );
        assert.equal(r.code, 1, r.stderr);
        assert.deepEqual([...Deno.readDirSync(`${tmp}/mine`)], []);
      }));
  });
});

describe("samkit pack on rejected input", () => {
  /** Writes a pack file of `reports` into `tmp` and returns its path. */
  async function packFile(tmp: string, reports: unknown[]): Promise<string> {
    const path = `${tmp}/pack.json`;
    await Deno.writeTextFile(path, JSON.stringify({ name: "rejected", reports }));
    return path;
  }

  const badPackFiles: [string, (tmp: string) => unknown[], RegExp][] = [
    [
      "a misspelt filter field in the pack file exits 2 naming the report and the option",
      () => [{ id: "license-cost-summary", formats: ["json"], filter: "vndor -eq Adobe" }],
      /reports\[0\]\.filter: filter error at column 1: License has no field "vndor"; did you mean "vendor"\?.*"allowUnknownFields": true/,
    ],
    [
      "a bad parameter in the pack file exits 2 and leaves no --out folder",
      () => [{ id: "license-cost-summary", formats: ["json"], params: { top: "many" } }],
      /reports\[0\]\.params\.top/,
    ],
    [
      "a missing price file in the pack file exits 2 before the run folder exists",
      (tmp) => [
        { id: "license-position", formats: ["json"], params: { priceFile: `${tmp}/none.csv` } },
      ],
      /price file .*none\.csv/,
    ],
  ];
  for (const [what, reports, message] of badPackFiles) {
    it(what, async () => {
      await inTemp(async (tmp, out) => {
        const file = await packFile(tmp, reports(tmp));
        const r = await samkit(["pack", file, "--out", out], { set: "pack" });
        await assertRejected(r, tmp, 2, message);
      });
    });
  }

  it("a token the service refuses fails before the run folder exists", async () => {
    await withServer({ computers: 20 }, (srv) =>
      inTemp(async (tmp, out) => {
        const file = await packFile(tmp, [{ id: "license-cost-summary", formats: ["json"] }]);
        const r = await samkit(["pack", file, "--out", out], {
          set: "pack",
          env: { SAM_BASE_URL: srv.url, SAM_TOKEN: "not-a-token-it-issued" },
        });
        await assertRejected(r, tmp, 1, /401/);
        // The check's one read, asked again once after the 401, then nothing.
        assert.ok(srv.stats.total <= 2, `${srv.stats.total} requests`);
        assert.equal(srv.stats.byStatus.get(200), undefined, "no read succeeded");
      }));
  });

  it("an unreachable --base-url fails before the run folder exists", async () => {
    await inTemp(async (tmp, out) => {
      const file = await packFile(tmp, [{ id: "license-cost-summary", formats: ["json"] }]);
      const r = await samkit(
        [
          "pack",
          file,
          "--out",
          out,
          "--base-url",
          `http://127.0.0.1:${closedPort()}`,
          "--retries",
          "0",
        ],
        { set: "pack", env: { SAM_TOKEN: "a-token" } },
      );
      await assertRejected(r, tmp, 1, /request failed/);
    });
  });
});

describe("samkit demo on rejected input", () => {
  const badInput: [string, string[], RegExp][] = [
    ["an unknown format", ["--format", "docx"], /unknown format "docx"/],
    ["a bad estate size", ["--computers", "lots"], /--computers expects a whole number/],
  ];
  for (const [what, args, message] of badInput) {
    it(`${what} exits 2 and leaves no --out folder`, async () => {
      await inTemp(async (tmp, out) => {
        await assertRejected(await samkit(["demo", ...args, "--out", out]), tmp, 2, message);
      });
    });
  }
});
