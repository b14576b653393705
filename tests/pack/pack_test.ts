import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";
import { Buffer } from "node:buffer";
import { withServer } from "../helpers/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import { type Manifest, sha256File, verifyManifest } from "../../lib/pack/manifest.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function cli(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=pack", "--no-prompt", "main.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

async function tempDir(): Promise<string> {
  await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
  return await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "pack-" });
}

async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    out.push(e.name);
    if (e.isDirectory) {
      out.push(...(await listTree(`${dir}/${e.name}`)).map((n) => `${e.name}/${n}`));
    }
  }
  return out.sort();
}

/** An SMTP server on loopback that keeps every message it receives. */
async function startSmtp() {
  const messages: Uint8Array[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      (async () => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of stream as AsyncIterable<Uint8Array>) {
          chunks.push(new Uint8Array(chunk));
        }
        const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) all.set(c, at), at += c.length;
        messages.push(all);
        callback();
      })();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("pack files", () => {
  const bad: [string, unknown, RegExp][] = [
    [
      "a bad field",
      { name: "p", reports: [{ id: "stale-computers", formats: ["docx"] }] },
      /reports\[0\]\.formats: unknown format "docx"/,
    ],
    [
      "an unknown report",
      { name: "p", reports: [{ id: "no-such-report" }] },
      /reports\[0\]\.id: unknown report "no-such-report"/,
    ],
    ["a bad cron expression", {
      name: "p",
      reports: [{ id: "stale-computers" }],
      schedule: { cron: "61 * * * *" },
    }, /schedule\.cron: bad cron expression "61 \* \* \* \*"/],
    ["a bad parameter", {
      name: "p",
      reports: [{ id: "stale-computers", params: { days: "many" } }],
    }, /reports\[0\]\.params\.days/],
    ["a 100,000-character filter", {
      name: "p",
      reports: [{ id: "stale-computers", filter: `hostName -eq '${"x".repeat(100_000)}'` }],
    }, /reports\[0\]\.filter: is 100,015 characters long; at most 2000 are accepted/],
    ["a secret in the file", {
      name: "p",
      reports: [{ id: "stale-computers" }],
      email: { host: "h", from: "a@b.c", to: ["d@e.f"], password: "x" },
    }, /email: field "password" is not allowed: credentials belong in SAMKIT_SMTP_USER/],
  ];
  for (const [what, doc, message] of bad) {
    it(`a pack file with ${what} exits 2, names it, and writes nothing`, async () => {
      const dir = await tempDir();
      const file = `${dir}/pack.json`;
      await Deno.writeTextFile(file, JSON.stringify({ ...(doc as object), output: `${dir}/runs` }));
      const { code, stderr } = await cli(["pack", file, "--quiet"]);
      assert.equal(code, 2, stderr);
      assert.match(stderr, message);
      assert.deepEqual(await listTree(dir), ["pack.json"]);
    });
  }

  it("the example packs in the repository validate", async () => {
    for (const name of ["weekly_audit.json", "weekly_audit_eur.json", "monthly_finance.json"]) {
      const doc = JSON.parse(await Deno.readTextFile(`${ROOT}packs/${name}`));
      const pack = validatePack(doc, { file: name, reports: REPORTS });
      assert.ok(pack.schedule && pack.email && pack.reports.length >= 2, name);
      for (const id of pack.email.attach ?? []) {
        assert.ok(
          pack.reports.some((r) => r.id === id),
          `${name}: attaches ${id}, which it does not run`,
        );
      }
    }
  });
});

describe("pack runs", () => {
  it("runs through the CLI, mails the summary with intact PDFs, and re-renders byte-identically from its snapshot", async () => {
    const smtp = await startSmtp();
    const dir = await tempDir();
    try {
      const packFile = `${dir}/weekly.json`;
      await Deno.writeTextFile(
        packFile,
        JSON.stringify({
          name: "weekly-test",
          output: `${dir}/runs`,
          reports: [
            { id: "license-cost-summary", formats: ["pdf", "json", "csv"] },
            { id: "stale-computers", params: { days: 60 }, formats: ["json", "csv", "xlsx"] },
          ],
          email: {
            host: "127.0.0.1",
            port: smtp.port,
            tls: "none",
            from: "samkit@example.test",
            to: ["finance@example.test"],
            subject: "Weekly {pack} {date}",
            attach: ["license-cost-summary"],
          },
        }),
      );
      const run = await cli(["pack", packFile, "--snapshot", "--send", "--quiet"]);
      assert.equal(run.code, 0, run.stderr);
      const manifestPath = run.stdout.trim().split("\n").pop()!;
      const runDir = manifestPath.replace(/\/manifest\.json$/, "");
      assert.match(runDir, /\/weekly-test\/\d{4}-\d{2}-\d{2}T\d{4}Z$/);
      const manifest = JSON.parse(await Deno.readTextFile(manifestPath)) as Manifest;
      assert.equal(manifest.status, "complete");
      assert.equal(manifest.pack, "weekly-test");
      assert.ok(manifest.finished && manifest.samkitVersion && manifest.source);
      assert.deepEqual(manifest.reports.map((r) => r.status), ["ok", "ok"]);
      assert.equal(manifest.parameters["stale-computers"].days, 60);
      // Checksums match the files, and every file in the folder is listed.
      assert.deepEqual(await verifyManifest(runDir), []);
      const listed = manifest.files.map((f) => f.path).sort();
      assert.deepEqual(listed, (await listTree(runDir)).filter((p) => p !== "manifest.json"));
      for (
        const f of [
          "license-cost-summary.pdf",
          "license-cost-summary.json",
          "stale-computers.xlsx",
          "snapshot.sqlite",
          "summary.json",
        ]
      ) {
        assert.ok(listed.includes(f), `${f} in manifest`);
      }

      // The message arrived with the figures and the PDF byte for byte.
      assert.equal(smtp.messages.length, 1);
      const mail = await simpleParser(Buffer.from(smtp.messages[0]));
      // The embedded demo estate's run says so in its subject.
      assert.match(mail.subject ?? "", /^\[demo data\] Weekly weekly-test \d{4}-\d{2}-\d{2}$/);
      const summary = JSON.parse(await Deno.readTextFile(`${runDir}/summary.json`));
      assert.ok(summary.figures.length > 0);
      const html = String(mail.html);
      const money = summary.figures.find((f: { type: string }) => f.type === "currency");
      assert.ok(money, "a currency figure");
      const shown = new Intl.NumberFormat("en-US", { style: "currency", currency: money.currency })
        .format(money.value);
      assert.ok(html.includes(shown), `summary shows ${shown}`);
      assert.deepEqual(mail.attachments.map((a: { filename?: string }) => a.filename), [
        "summary.pdf",
        "license-cost-summary.pdf",
      ]);
      const attachment = mail.attachments[1];
      const digest = new Uint8Array(
        await crypto.subtle.digest("SHA-256", new Uint8Array(attachment.content)),
      );
      const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
      // The summary PDF carries the same headline figure as the HTML body.
      await Deno.writeFile(
        `${dir}/summary-received.pdf`,
        new Uint8Array(mail.attachments[0].content),
      );
      const summaryText = await new Deno.Command("pdftotext", {
        args: [`${dir}/summary-received.pdf`, "-"],
        stdout: "piped",
      }).output();
      assert.ok(
        new TextDecoder().decode(summaryText.stdout).includes(shown),
        `summary.pdf shows ${shown}`,
      );
      assert.ok(listed.includes("summary.pdf"), "summary.pdf kept with the evidence");
      assert.equal(hex, manifest.files.find((f) => f.path === "license-cost-summary.pdf")!.sha256);

      // Re-render from the snapshot without the API: JSON and CSV byte-identical.
      const again = `${dir}/again`;
      for (const id of ["license-cost-summary", "stale-computers"]) {
        const r = await cli([
          "report",
          id,
          "--from-snapshot",
          `${runDir}/snapshot.sqlite`,
          "--format",
          "json,csv",
          "--out",
          again,
          "--quiet",
        ]);
        assert.equal(r.code, 0, r.stderr);
      }
      const originals = (await listTree(runDir)).filter((p) =>
        /\.(json|csv)$/.test(p) && p !== "summary.json" && p !== "manifest.json"
      );
      assert.ok(originals.length >= 4);
      for (const p of originals) {
        assert.equal(await sha256File(`${again}/${p}`), await sha256File(`${runDir}/${p}`), p);
      }
    } finally {
      await smtp.close();
    }
  });

  it("reports what moved since the previous run, and a failing report does not stop the others", async () => {
    await withServer({ computers: 120, seed: 3, token: "pack-test-token" }, async (srv) => {
      const dir = await tempDir();
      const pack = validatePack({
        name: "finance",
        reports: [
          { id: "license-cost-summary", formats: ["json"] },
          { id: "stale-computers", formats: ["json"], filter: "status -eq Active" },
        ],
      }, { file: "finance.json", reports: REPORTS });
      const source = { baseUrl: srv.url, token: "pack-test-token" };
      let clock = Date.parse("2026-11-02T06:00:00Z");
      const now = () => new Date(clock);
      const first = await runPack({ pack, reports: REPORTS, outRoot: dir, source, now });
      assert.ok(first.ok);
      assert.ok(
        first.changes.every((c) => c.previous === null),
        "first run has nothing to compare",
      );

      // One license's costs grow between the runs (its costs summary and the list's total, as
      // the service keeps them equal): the total cost must show as moved.
      const [first0] =
        srv.store.query({ resource: "LicenseCostSummary", limit: 1, offset: 0 }).rows;
      const grown = Number(first0.totalCost) + 1000;
      srv.store.update("license_cost_summaries", { licenseId: first0.licenseId }, {
        totalCost: grown,
      });
      srv.store.update("licenses", { id: first0.licenseId }, { totalLicenseCost: grown });
      clock += 7 * 24 * 3600 * 1000;
      srv.faults.add({ match: "/computers", status: 403, times: 1000 });
      const second = await runPack({ pack, reports: REPORTS, outRoot: dir, source, now });
      assert.equal(second.ok, false);
      assert.deepEqual(second.manifest.reports.map((r) => r.status), ["ok", "failed"]);
      assert.match(second.manifest.reports[1].error ?? "", /permission|403/i);
      assert.equal(second.manifest.status, "partial");
      const moved = second.changes.filter((c) => c.previous !== null && c.delta !== 0);
      assert.ok(moved.some((c) => c.report === "license-cost-summary"), "cost figures moved");
    });
  });

  for (const shape of ["relative", "./relative/", "absolute/"]) {
    it(`an output root given as ${shape} lists paths relative to the run folder`, async () => {
      await withServer({ computers: 20, seed: 5, token: "pack-rel-token" }, async (srv) => {
        const dir = await tempDir();
        const rel = dir.slice(Deno.cwd().length + 1);
        const outRoot = shape === "relative"
          ? rel
          : shape === "./relative/"
          ? `./${rel}/`
          : `${dir}/`;
        const pack = validatePack({
          name: "rel",
          reports: [{ id: "stale-computers", formats: ["json", "csv"] }],
        }, { file: "rel.json", reports: REPORTS });
        const result = await runPack({
          pack,
          reports: REPORTS,
          outRoot,
          source: { baseUrl: srv.url, token: "pack-rel-token" },
        });
        assert.ok(result.ok);
        assert.ok(result.dir.startsWith(`${dir}/rel/`), result.dir);
        const paths = result.manifest.files.map((f) => f.path);
        assert.deepEqual(paths, (await listTree(result.dir)).filter((p) => p !== "manifest.json"));
        assert.ok(paths.includes("stale-computers.json"), paths.join(", "));
        assert.deepEqual(await verifyManifest(result.dir), []);
      });
    });
  }

  it("a run that died while running is marked abandoned by the next and not compared with", async () => {
    await withServer({ computers: 20, seed: 6, token: "pack-dead-token" }, async (srv) => {
      const dir = await tempDir();
      const pack = validatePack({
        name: "dead",
        reports: [{ id: "license-cost-summary", formats: ["json"] }],
      }, { file: "dead.json", reports: REPORTS });
      const source = { baseUrl: srv.url, token: "pack-dead-token" };
      let clock = Date.parse("2026-11-02T06:00:00Z");
      const now = () => new Date(clock);
      const first = await runPack({ pack, reports: REPORTS, outRoot: dir, source, now });
      // As if its process had been killed before the end: still running, no staging folder.
      await Deno.writeTextFile(
        `${first.dir}/manifest.json`,
        JSON.stringify({ ...first.manifest, status: "running", finished: null }),
      );
      clock += 3600_000;
      const second = await runPack({ pack, reports: REPORTS, outRoot: dir, source, now });
      const dead = JSON.parse(await Deno.readTextFile(`${first.dir}/manifest.json`)) as Manifest;
      assert.equal(dead.status, "abandoned");
      assert.deepEqual(await verifyManifest(first.dir), []);
      assert.ok(second.changes.every((c) => c.previous === null), "nothing compared with it");
    });
  });

  it("an interrupted run leaves a manifest that says so and no half-written file", async () => {
    await withServer({ computers: 60, seed: 4, token: "pack-int-token" }, async (srv) => {
      const dir = await tempDir();
      const pack = validatePack({
        name: "interrupted",
        reports: [
          { id: "stale-computers", formats: ["json", "csv"] },
          { id: "license-cost-summary", formats: ["json", "xlsx"] },
          { id: "connector-health", formats: ["json"] },
        ],
      }, { file: "interrupted.json", reports: REPORTS });
      const stop = new AbortController();
      const result = await runPack({
        pack,
        reports: REPORTS,
        outRoot: dir,
        source: { baseUrl: srv.url, token: "pack-int-token" },
        signal: stop.signal,
        log: (line) => {
          if (line.includes("stale-computers done")) stop.abort(new Error("interrupted"));
        },
      });
      assert.equal(result.ok, false);
      assert.equal(result.manifest.status, "interrupted");
      assert.deepEqual(result.manifest.reports.map((r) => r.status), ["ok", "skipped", "skipped"]);
      const onDisk = JSON.parse(await Deno.readTextFile(`${result.dir}/manifest.json`)) as Manifest;
      assert.equal(onDisk.status, "interrupted");
      assert.ok(onDisk.finished, "the interrupted manifest records when it stopped");
      const files = await listTree(result.dir);
      assert.ok(files.every((f) => !f.includes(".tmp-")), files.join(", "));
      assert.ok(
        !files.some((f) => f.startsWith("license-cost-summary")),
        "nothing of the skipped report",
      );
      assert.deepEqual(await verifyManifest(result.dir), []);
    });
  });
});
