import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { withServer } from "../helpers/server.ts";
import { RESOURCES } from "../../lib/api/catalogue.ts";
import type { RunningServer } from "../../lib/server/server.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
/** Every canary starts so; no other text in any output does. */
const CANARY = "CNRY";
const TOKEN = `${CANARY}TOK0000`;
const dec = new TextDecoder();

async function cli(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=pack", "--no-prompt", "main.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, text: dec.decode(out.stdout) + dec.decode(out.stderr) };
}

/** Puts a unique canary into every sensitive field of every row the store holds. */
function plantCanaries(srv: RunningServer): number {
  let planted = 0;
  for (const spec of Object.values(RESOURCES)) {
    const fields = spec.fields.filter((f) => f.sensitive);
    if (!fields.length || !spec.table) continue;
    const ids = new Set<string>();
    for (let offset = 0;; offset += 500) {
      const { rows } = srv.store.query({ resource: spec.name, limit: 500, offset, noTotal: true });
      for (const row of rows) ids.add(String(row.id));
      if (rows.length < 500) break;
    }
    for (const id of ids) {
      const set = Object.fromEntries(
        fields.map((
          f,
        ) => [spec.columnOf(f.name), `${CANARY}${String(++planted).padStart(5, "0")}`]),
      );
      srv.store.update(spec.table, { id }, set);
    }
  }
  return planted;
}

async function filesBelow(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...await filesBelow(path));
    else out.push(path);
  }
  return out;
}

/** The text a person or a program could read out of a file. */
async function readable(path: string): Promise<string> {
  const run = async (cmd: string, args: string[]) =>
    dec.decode((await new Deno.Command(cmd, { args, stdout: "piped" }).output()).stdout);
  if (path.endsWith(".pdf")) return await run("pdftotext", [path, "-"]);
  if (path.endsWith(".xlsx")) return await run("unzip", ["-p", path]);
  const raw = await Deno.readFile(path);
  if (path.endsWith(".eml")) {
    const mail = await simpleParser(Buffer.from(raw));
    return `${dec.decode(raw)}\n${mail.html}\n${mail.text}`;
  }
  return new TextDecoder("latin1").decode(raw); // any bytes, snapshot.sqlite included
}

describe("no secret reaches any output", () => {
  it("a pack with snapshot and .eml, a failing report and a report in every format hold no canary", async () => {
    await withServer({ computers: 60, seed: 9, token: TOKEN }, async (srv) => {
      const planted = plantCanaries(srv);
      assert.ok(planted > 60, `planted ${planted} canaries`);
      // The server does send them (else this test proves nothing).
      const c = srv.store.query({ resource: "ComputerDetail", limit: 1, offset: 0 }).rows[0];
      const res = await fetch(`${srv.url}/api/sam/estate/v1/computers/${c.id}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.match(await res.text(), new RegExp(`"securityCode":"${CANARY}`));
      // Retried and failed as ever, but the server asks for no wait between the retries (the
      // client's own back-off would wait 7 s).
      srv.faults.add({ match: "/connectors", status: 500, retryAfter: 0, times: 1000 });

      await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
      const dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "canary-" });
      const reports = [
        ["license-cost-summary", ["pdf", "xlsx", "json", "csv"]],
        ["license-position", ["json", "csv", "xlsx"]],
        ["hardware-socket-map", ["pdf", "html", "json", "csv"]],
        ["stale-computers", ["html", "json", "csv"]],
        ["unused-software", ["json"]],
        ["end-of-life-software", ["json"]],
        ["entitlement-state-by-computer", ["json", "csv"]],
        ["connector-health", ["json"]],
      ].map(([id, formats]) => ({ id, formats }));
      await Deno.writeTextFile(
        `${dir}/canary.json`,
        JSON.stringify({
          name: "canary",
          output: `${dir}/runs`,
          reports,
          email: {
            host: "127.0.0.1",
            from: "samkit@example.test",
            to: ["audit@example.test"],
            attach: ["license-cost-summary", "hardware-socket-map"],
          },
        }),
      );
      const env = { SAM_TOKEN: TOKEN };
      const pack = await cli(
        ["pack", `${dir}/canary.json`, "--snapshot", "--base-url", srv.url],
        env,
      );
      assert.equal(pack.code, 1, pack.text); // connector-health failed, the others did not
      assert.match(pack.text, /connector-health: failed/);
      const report = await cli([
        "report",
        "hardware-socket-map",
        "--format",
        "html,pdf,xlsx,csv,json",
        "--out",
        `${dir}/report`,
        "--base-url",
        srv.url,
      ], env);
      assert.equal(report.code, 0, report.text);

      const files = await filesBelow(dir);
      const names = files.map((f) => f.slice(dir.length + 1));
      for (const must of ["snapshot.sqlite", "summary.eml", "summary.pdf", "manifest.json"]) {
        assert.ok(names.some((n) => n.endsWith(`/${must}`)), `${must} written`);
      }
      assert.ok(names.filter((n) => n.startsWith("report/")).length >= 5, names.join(", "));
      const hits: string[] = [];
      for (const path of files) {
        if ((await readable(path)).includes(CANARY)) hits.push(path.slice(dir.length + 1));
      }
      if (pack.text.includes(CANARY)) hits.push("pack stdout/stderr");
      if (report.text.includes(CANARY)) hits.push("report stdout/stderr");
      assert.deepEqual(hits, []);
    });
  });
});
