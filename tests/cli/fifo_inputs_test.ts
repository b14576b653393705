/**
 * Every file samkit is told to read, made a FIFO: each run refuses it at once with a message
 * naming the file and what it is (exit 2, nothing written), instead of blocking on the open for
 * as long as nothing writes to the FIFO. Each run has a guard that kills it and fails the test
 * rather than hang.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkfifo, runCliBounded, spawnBounded } from "../helpers/bounded.ts";
import { outTestDir } from "../helpers/files.ts";

const LIMIT = 120;
const REFUSED = /is a FIFO, not a regular file/;

let dir: string;

before(async () => {
  dir = await outTestDir("fifo-inputs-");
});
after(async () => {
  await Deno.remove(dir, { recursive: true });
});

/** A FIFO named `name` in the test folder; its path. */
async function fifo(name: string): Promise<string> {
  const path = `${dir}/${name}`;
  await mkfifo(path);
  return path;
}

/** A pack file with these fields over a one-report pack writing into `runs`. */
async function packFile(name: string, fields: Record<string, unknown>): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({
      name: name.replace(/\.json$/, ""),
      output: `${dir}/runs`,
      reports: [{ id: "license-cost-summary", formats: ["json"] }],
      ...fields,
    }),
  );
  return path;
}

/** The run ended by itself (not the guard), with exit 2 and the FIFO named. */
function assertRefused(r: Awaited<ReturnType<typeof runCliBounded>>, path: string): void {
  assert.equal(r.timedOut, false, `blocked on the FIFO ${path} (killed after ${LIMIT} s)`);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, REFUSED);
  assert.ok(r.stderr.includes(path), r.stderr);
}

describe("a FIFO where samkit reads a file", () => {
  it("as the pack file: exit 2 naming it", async () => {
    const path = await fifo("pack.fifo");
    const r = await runCliBounded(["pack", path, "--quiet"], { set: "pack", limitSeconds: LIMIT });
    assertRefused(r, path);
  });

  it("as a report's price file in a pack: exit 2 before the run folder exists", async () => {
    const prices = await fifo("prices.csv");
    const pack = await packFile("priced.json", {
      reports: [{ id: "license-position", formats: ["json"], params: { priceFile: prices } }],
    });
    const r = await runCliBounded(["pack", pack, "--quiet"], { set: "pack", limitSeconds: LIMIT });
    assertRefused(r, prices);
    assert.deepEqual([...Deno.readDirSync(dir)].filter((e) => e.name === "runs"), []);
  });

  it("as the pack's rates file: exit 2", async () => {
    const rates = await fifo("rates.csv");
    const pack = await packFile("rated.json", { reportingCurrency: "EUR", fxRates: rates });
    const r = await runCliBounded(["pack", pack, "--quiet"], { set: "pack", limitSeconds: LIMIT });
    assertRefused(r, rates);
  });

  it("as a report's price file: exit 2", async () => {
    const prices = await fifo("report-prices.csv");
    const r = await runCliBounded(
      ["report", "license-position", "--format", "json", "--out", `${dir}/report`]
        .concat(["--param", `priceFile=${prices}`, "--quiet"]),
      { set: "report", limitSeconds: LIMIT },
    );
    assertRefused(r, prices);
  });

  it("as the snapshot of --from-snapshot: exit 2", async () => {
    const snapshot = await fifo("snapshot.sqlite");
    const r = await runCliBounded(
      ["report", "license-cost-summary", "--format", "json", "--out", `${dir}/snap`]
        .concat(["--from-snapshot", snapshot, "--quiet"]),
      { set: "report", limitSeconds: LIMIT },
    );
    assertRefused(r, snapshot);
  });

  it("as the tenants file of enqueue: exit 2 before any database is asked", async () => {
    const tenants = await fifo("tenants.json");
    const pack = await packFile("queued.json", {});
    const r = await runCliBounded(
      ["enqueue", pack, "--tenants", tenants, "--database-url", "postgresql://127.0.0.1:9/none"],
      { set: "enqueue", limitSeconds: LIMIT },
    );
    assertRefused(r, tenants);
  });

  it("as the reference server's --db file: exit 2 naming it", async () => {
    const db = await fifo("estate.sqlite");
    const r = await runCliBounded(
      ["serve", "--port", "0", "--computers", "3", "--db", db],
      { set: "serve", limitSeconds: LIMIT },
    );
    assertRefused(r, db);
  });

  it("as a history run's manifest and summary: trends passes the run over, never blocks", async () => {
    const history = `${dir}/history/weekly`;
    await Deno.mkdir(`${history}/2026-01-05T0600Z`, { recursive: true });
    await mkfifo(`${history}/2026-01-05T0600Z/manifest.json`);
    await mkfifo(`${history}/2026-01-05T0600Z/summary.json`);
    const r = await runCliBounded(
      ["report", "trends", "--format", "json", "--out", `${dir}/trends`]
        .concat(["--param", `history=${history}`, "--quiet"]),
      { set: "report", limitSeconds: LIMIT },
    );
    assert.equal(r.timedOut, false, `blocked on a history FIFO (killed after ${LIMIT} s)`);
    assert.ok(r.code === 0 || r.code === 2, `${r.code}: ${r.stderr}`);
  });

  it("as a tenant's secret file: the read refuses it, naming the file, never its content", async () => {
    const secret = await fifo("acme_secret");
    const module = new URL("../../lib/tenants/secret_file.ts", import.meta.url).href;
    const script = `import { readSecretFile } from ${JSON.stringify(module)};
      for (const name of [${JSON.stringify(secret)}, "acme_secret"]) {
        try { await readSecretFile(name, [${JSON.stringify(dir)}]); console.log("read"); }
        catch (e) { console.log(e.name + ": " + e.message); }
      }`;
    const r = await spawnBounded(
      new Deno.Command(Deno.execPath(), {
        args: ["eval", script],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }),
      LIMIT,
    ).result();
    assert.equal(r.timedOut, false, `blocked on the secret FIFO (killed after ${LIMIT} s)`);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 2, r.stdout + r.stderr);
    for (const line of lines) {
      assert.match(line, /^SecretFileError: secret file /);
      assert.ok(line.includes(secret), line);
      assert.match(line, REFUSED);
    }
  });
});
