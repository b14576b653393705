/**
 * A pack with `"diff"` compares each run with its previous run row by row: the estate changes
 * between two signed runs of one source (a computer removed, installs added, a license added),
 * and the second run's folder holds run-diff (listed in the manifest, signed, `deno task verify`
 * passes, with `--rerender` too) naming each of those ids, while its mail — HTML and text parts
 * as an SMTP server receives them, and summary.pdf — lists the position they moved row by row.
 * The previous run's folder is never written. A first run, a previous run of another source, a
 * previous run without a snapshot and one whose snapshot was changed each say so in the mail, the
 * last naming the file, and the run still succeeds. Bad `diff` sections are refused by field.
 *
 * What changed between two audits, asked afterwards of the same runs: `deno task diff` (offline,
 * its own permission set without network) finds each of those ids, explains the position they
 * moved, states money per currency, writes nothing into the runs, and refuses two runs of
 * different sources, a run without a snapshot and a snapshot changed since its run (exit 2).
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { REPORTS } from "../../reports/mod.ts";
import { type PackFile, PackFileError, validatePack } from "../../lib/pack/pack_file.ts";
import { type PackRunResult, runPack } from "../../lib/pack/run_pack.ts";
import { type BrowserHandle, launchBrowser } from "../../lib/render/browser.ts";
import { type Manifest, sha256File } from "../../lib/pack/manifest.ts";
import { generateKeyPair, signerFromPem } from "../../lib/pack/sign.ts";
import { rowDiffSection } from "../../lib/pack/summary_diff.ts";
import { NO_COUNTS, type RowDiffCounts } from "../../lib/pack/run_row_diff.ts";
import { summaryText } from "../../lib/pack/summary_view.ts";
import { outTestDir } from "../helpers/files.ts";
import { BROWSER_ENV, runCli } from "../helpers/cli.ts";
import { TEST_NOW } from "../helpers/server.ts";
import { htmlVisibleText, mailParts, pdfText } from "../helpers/pack_summary.ts";
import { startTestSmtp, type TestSmtp } from "../queue/smtp_server.ts";
import {
  ADDED_LICENSE,
  changeEstate,
  GONE_COMPUTER,
  GONE_HOST,
  switchingProxy,
} from "./estate_change.ts";

const TOKEN = "pack-diff-token";
const ESTATE = { port: 0, computers: 120, seed: 7, now: TEST_NOW, quiet: true, token: TOKEN };
const at = (minutes: number) => () => new Date(TEST_NOW.getTime() + minutes * 60_000);

type Row = Record<string, unknown>;
const section = (json: { sections: { id: string; rows: Row[] }[] }, id: string) =>
  json.sections.find((s) => s.id === id)!.rows;

function diffPack(
  name: string,
  diff: unknown,
  email?: Record<string, unknown>,
): PackFile {
  return validatePack({
    name,
    reports: [{ id: "license-position", formats: ["json"] }],
    ...(diff === undefined ? {} : { diff }),
    ...(email ? { email } : {}),
  }, { file: `${name}.json`, reports: REPORTS });
}

const emlEmail = {
  host: "127.0.0.1",
  port: 2525,
  tls: "none",
  from: "samkit@example.test",
  to: ["sam@example.test"],
};

/** Every file below `dir` with its SHA-256 (to show a folder was not written). */
async function listing(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(`${rel}/`, ...await listing(dir, rel));
    else out.push(`${rel} ${await sha256File(join(dir, rel))}`);
  }
  return out.sort();
}

/** The "What moved, row by row" part of a text body: from its heading to the next heading. */
function rowsPart(text: string): string {
  const start = text.indexOf("What moved, row by row");
  assert.ok(start >= 0, `no row-by-row section in:\n${text}`);
  const rest = text.slice(start);
  const end = rest.search(/\n\S/);
  return end < 0 ? rest : rest.slice(0, end);
}

describe("a pack with a diff compares each run with its previous run row by row", () => {
  let dir: string, a: RunningServer, b: RunningServer, other: RunningServer;
  let proxy: ReturnType<typeof switchingProxy>, smtp: TestSmtp;
  let first: PackRunResult, second: PackRunResult, third: PackRunResult;
  let added: { id: string; host: string }[];
  let firstBefore: string[], firstAfter: string[];
  let publicKey: string;
  /** One browser prints every run's PDFs (each run would launch its own). */
  let browser: BrowserHandle;

  before(async () => {
    dir = await outTestDir("pack-diff-");
    browser = launchBrowser();
    [a, b, other] = await Promise.all([
      startServer(ESTATE),
      startServer(ESTATE),
      startServer(ESTATE),
    ]);
    added = changeEstate(a, b, 5);
    proxy = switchingProxy(a.url);
    smtp = await startTestSmtp();
    const keys = await generateKeyPair();
    publicKey = join(dir, "signing-key.pub.pem");
    await Deno.writeTextFile(publicKey, keys.publicPem);
    const signer = await signerFromPem(keys.privatePem, "test key");
    const pack = diffPack("diffed", { formats: ["pdf", "json"], mailRows: 10 }, {
      ...emlEmail,
      port: smtp.port,
      attach: ["run-diff"],
    });
    const run = (source: { baseUrl: string; token: string }, minutes: number) =>
      runPack({
        pack,
        reports: REPORTS,
        outRoot: dir,
        source,
        send: true,
        signer,
        now: at(minutes),
        browser,
      });
    // No --snapshot: the diff keeps one on every run.
    first = await run({ baseUrl: proxy.url, token: TOKEN }, 0);
    firstBefore = await listing(first.dir);
    proxy.to(b.url);
    second = await run({ baseUrl: proxy.url, token: TOKEN }, 60);
    firstAfter = await listing(first.dir);
    // Another source in the same pack folder: nothing of it to compare with.
    third = await run({ baseUrl: other.url, token: TOKEN }, 120);
  });

  after(async () => {
    await browser?.close();
    await proxy?.close();
    await smtp?.close();
    await Promise.all([a, b, other].map((s) => s?.close()));
    if (dir) await Deno.remove(dir, { recursive: true });
  });

  const mail = async (i: number) => {
    const parsed = await simpleParser(Buffer.from(smtp.messages[i]));
    return {
      text: parsed.text ?? "",
      html: htmlVisibleText(String(parsed.html)),
      attached: parsed.attachments.map((a: { filename?: string }) => a.filename),
    };
  };

  it("the first run keeps a snapshot, makes no diff and says why in the mail; the run succeeds", async () => {
    assert.ok(first.ok, first.emailError);
    const files = first.manifest.files.map((f) => f.path);
    assert.ok(files.includes("snapshot.sqlite"), files.join(", "));
    assert.ok(!files.some((f) => f.startsWith("run-diff")), files.join(", "));
    const { text, html, attached } = await mail(0);
    assert.deepEqual(attached, ["summary.pdf"], "no diff to attach");
    assert.match(rowsPart(text), /Not compared row by row: this is the pack's first finished run/);
    assert.match(html, /Not compared row by row: this is the pack's first finished run/);
  });

  it("the second run's folder holds run-diff, listed and checksummed, naming every changed id", async () => {
    assert.ok(second.ok, second.emailError);
    const listed = new Map(second.manifest.files.map((f) => [f.path, f.sha256]));
    for (const file of ["run-diff.pdf", "run-diff.json"]) {
      assert.equal(listed.get(file), await sha256File(join(second.dir, file)), file);
    }
    const json = JSON.parse(await Deno.readTextFile(join(second.dir, "run-diff.json")));
    const computers = section(json, "computers");
    assert.deepEqual(
      computers.filter((c) => c.change === "removed").map((c) => c.computerId),
      [GONE_COMPUTER],
    );
    const installs = section(json, "installs");
    assert.deepEqual(
      installs.filter((i) => i.change === "appeared").map((i) => i.computerId).sort(),
      added.map((c) => c.id).sort(),
    );
    assert.deepEqual(
      section(json, "licenses").map((l) => [l.license, l.change]),
      [[ADDED_LICENSE, "added"]],
    );
    const positions = section(json, "positions");
    assert.equal(positions.length, 1, JSON.stringify(positions));
    const runs = section(json, "runs").map((r) => r.run);
    assert.deepEqual(runs, [first.dir, second.dir].map((d) => d.split("/").pop()));
    const pdf = await pdfText(join(second.dir, "run-diff.pdf"));
    for (const id of [GONE_HOST, ADDED_LICENSE]) {
      assert.ok(pdf.includes(id), `${id} in run-diff.pdf`);
    }
    const summary = JSON.parse(await Deno.readTextFile(join(second.dir, "summary.json")));
    assert.equal(summary.diff.status, "made");
    assert.equal(summary.diff.previous.run, first.dir.split("/").pop());
    assert.equal(summary.diff.counts.computersRemoved, 1);
    assert.equal(summary.diff.counts.installsAppeared, 5);
    assert.equal(summary.diff.counts.licensesAdded, 1);
  });

  it("prints every run's PDFs with the browser the caller gives, and leaves it open", () => {
    assert.equal(browser.launches, 1, "one launch for the three runs");
    assert.ok(browser.launched, "still running after the runs");
  });

  it("never writes into the previous run's folder", () => {
    assert.deepEqual(firstAfter, firstBefore);
  });

  it("the mail (text, HTML) and summary.pdf list the moved position row by row with its ids", async () => {
    const { text, html, attached } = await mail(1);
    assert.deepEqual(attached, ["summary.pdf", "run-diff.pdf"], "email.attach names run-diff");
    const rows = rowsPart(text);
    const line = rows.split("\n").find((l) => l.includes("requirement +4"));
    assert.ok(line, `a row line for the moved position in:\n${rows}`);
    assert.match(line, /: (short|surplus) \d+ → (short|surplus) \d+|balanced/);
    assert.match(line, /5 installs added \(\+5\) on /);
    assert.match(line, new RegExp(`1 install removed \\(−1\\) on ${GONE_HOST}`));
    assert.match(line, new RegExp(`1 license added: ${ADDED_LICENSE} \\+2`));
    for (const { host } of added) assert.ok(line.includes(host), `${host} in: ${line}`);
    assert.ok(
      rows.includes(
        "1 computer removed, 5 installs appeared, 1 install disappeared, 1 license added; " +
          "1 position moved.",
      ),
      rows,
    );
    assert.ok(!/and \d+ more/.test(rows), "one position: nothing left out");
    assert.match(rows, /changed: run-diff\.pdf, run-diff\.json in the evidence folder/);
    for (const what of [GONE_HOST, ADDED_LICENSE, ...added.map((c) => c.host)]) {
      assert.ok(html.includes(what), `${what} in the HTML part`);
    }
    assert.ok(html.includes("1 install removed (−1) on GONE-PC-01"), "the row line in HTML");
    const pdf = await pdfText(join(second.dir, "summary.pdf"));
    for (const what of ["What moved, row by row", GONE_HOST, ADDED_LICENSE]) {
      assert.ok(pdf.includes(what), `${what} in summary.pdf`);
    }
    const json = JSON.parse(await Deno.readTextFile(join(second.dir, "run-diff.json")));
    const [moved] = section(json, "positions");
    assert.ok(line.includes(moved.movedBy as string), `the report's line, whole, in: ${line}`);
  });

  it("verify passes on the second run folder, signature and re-render included", async () => {
    const r = await runCli(
      ["verify", second.dir, "--public-key", publicKey, "--rerender"],
      { set: "verify", env: BROWSER_ENV },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const manifest = JSON.parse(
      await Deno.readTextFile(join(second.dir, "manifest.json")),
    ) as Manifest;
    assert.ok(manifest.files.some((f) => f.path === "run-diff.pdf"));
  });

  it("a run of another source says there is nothing of it to compare with, and succeeds", async () => {
    assert.ok(third.ok, third.emailError);
    assert.ok(!third.manifest.files.some((f) => f.path.startsWith("run-diff")));
    const { text } = await mail(2);
    assert.match(
      rowsPart(text),
      new RegExp(`Not compared row by row: the previous run read ${proxy.url}`),
    );
  });

  // `deno task diff` reads the same runs: two of one source between which the estate changed,
  // and one of another source.
  describe("deno task diff between two of these runs", () => {
    let runA: string, runB: string, runOther: string;
    before(() => {
      [runA, runB, runOther] = [first.dir, second.dir, third.dir];
    });
    const diff = (args: string[]) => runCli(["diff", ...args], { set: "diff" });

    it("finds the computer removed, the installs added and the license added, and the position they moved", async () => {
      const untouched = [await listing(runA), await listing(runB)];
      const out = join(dir, "diff-out");
      const r = await diff([runA, runB, "--format", "json,csv,xlsx,html", "--out", out, "--quiet"]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([await listing(runA), await listing(runB)], untouched, "runs unchanged");
      const json = JSON.parse(await Deno.readTextFile(join(out, "run-diff.json")));

      const computers = section(json, "computers");
      assert.deepEqual(
        computers.filter((c) => c.change === "removed").map((c) => c.computerId),
        [GONE_COMPUTER],
      );
      assert.equal(computers.filter((c) => c.change === "added").length, 0);

      const installs = section(json, "installs");
      assert.deepEqual(
        installs.filter((i) => i.change === "appeared").map((i) => i.computerId).sort(),
        added.map((c) => c.id).sort(),
      );
      assert.deepEqual(
        installs.filter((i) => i.change === "disappeared").map((i) => i.computerId),
        [GONE_COMPUTER],
      );
      assert.ok(installs.every((i) => i.change === "appeared" || i.change === "disappeared"));

      const licenses = section(json, "licenses");
      assert.deepEqual(licenses.map((l) => [l.license, l.change, l.units]), [[
        ADDED_LICENSE,
        "added",
        2,
      ]]);

      // The position of CHANGED_APP: requirement +5 −1 = +4, purchased +2: 2 units worse.
      const positions = section(json, "positions");
      assert.equal(positions.length, 1, JSON.stringify(positions));
      const [p] = positions;
      assert.equal(
        p.shortfallAfter as number - (p.shortfallBefore as number) -
          ((p.surplusAfter as number) - (p.surplusBefore as number)),
        2,
      );
      assert.equal((p.requirementAfter as number) - (p.requirementBefore as number), 4);
      assert.equal((p.entitlementsAfter as number) - (p.entitlementsBefore as number), 2);
      const why = p.movedBy as string;
      assert.match(
        why,
        /requirement \+4 \(5 installs added \(\+5\) on [^;]*; 1 install removed \(−1\) on GONE-PC-01\)/,
      );
      assert.match(why, new RegExp(`purchased \\+2 \\(1 license added: ${ADDED_LICENSE} \\+2\\)`));
      const names = added.map(({ id }) => b.store.first("Computer", { id })!.hostName as string);
      for (const name of names) assert.ok(why.includes(name), `${name} named in: ${why}`);

      const money = section(json, "money");
      assert.ok(money.length > 0, "money per currency");
      for (const m of money) {
        assert.equal(
          Math.round((m.shortfallCostAfter as number) * 100) -
            Math.round((m.shortfallCostBefore as number) * 100),
          Math.round((m.shortfallCostChange as number) * 100),
          `${m.currency}: change = after − before`,
        );
      }
      const usd = money.find((m) =>
        m.currency === b.store.first("License", { id: ADDED_LICENSE })!.purchaseCurrency
      );
      assert.ok(usd && (usd.licensesAdded as number) > 0, "the added license's purchase value");
    });

    it("refuses two runs of different sources, exit 2, nothing written", async () => {
      const out = join(dir, "refused-out");
      const r = await diff([runA, runOther, "--format", "json", "--out", out, "--quiet"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /runs of different sources are not compared/);
      assert.equal(await Deno.stat(out).then(() => true, () => false), false, "no output folder");
    });

    it("refuses a run without a snapshot, or with a snapshot changed since the run, exit 2", async () => {
      const copy = join(dir, "copied", "run");
      await Deno.mkdir(join(dir, "copied"), { recursive: true });
      assert.ok((await new Deno.Command("cp", { args: ["-a", runB, copy] }).output()).success);
      const bytes = await Deno.readFile(join(copy, "snapshot.sqlite"));
      bytes[bytes.length - 1] ^= 1;
      await Deno.writeFile(join(copy, "snapshot.sqlite"), bytes);
      const changed = await diff([
        runA,
        copy,
        "--format",
        "json",
        "--out",
        join(dir, "o1"),
        "--quiet",
      ]);
      assert.equal(changed.code, 2, changed.stderr);
      assert.match(changed.stderr, /snapshot\.sqlite whose SHA-256 is not the manifest's/);
      await Deno.remove(join(copy, "snapshot.sqlite"));
      const missing = await diff([
        runA,
        copy,
        "--format",
        "json",
        "--out",
        join(dir, "o2"),
        "--quiet",
      ]);
      assert.equal(missing.code, 2, missing.stderr);
      assert.match(missing.stderr, /has no snapshot\.sqlite/);
    });

    it("never writes into a run folder it reads", async () => {
      const r = await diff([runA, runB, "--out", join(runB, "diff")]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /inside the run folder/);
    });
  });
});

describe("a pack's diff when the previous run cannot be compared", () => {
  // One pack folder, each run the previous of the next: a run without a snapshot, then diff runs
  // whose own snapshot is spoilt before the next run reads it (changed, then no snapshot at all).
  // Only the runs that compare send a mail; the first has nothing to say.
  let dir: string, srv: RunningServer;
  let plain: PackRunResult, noSnapshot: PackRunResult;
  let changed: PackRunResult, changedUntouched: string[], changedAfter: string[];
  let unreadable: PackRunResult;
  let browser: BrowserHandle;
  before(async () => {
    dir = await outTestDir("pack-diff-bad-");
    browser = launchBrowser();
    srv = await startServer(ESTATE);
    const diffed = diffPack("diffed", { formats: ["json"] }, emlEmail);
    const run = (pack: PackFile, minutes: number) =>
      runPack({
        pack,
        reports: REPORTS,
        outRoot: dir,
        source: { baseUrl: srv.url, token: TOKEN },
        now: at(minutes),
        browser,
      });
    plain = await run(diffPack("diffed", undefined), 0);
    noSnapshot = await run(diffed, 60);
    // Its snapshot changed since its run: one byte flipped, the manifest left as it was.
    const path = join(noSnapshot.dir, "snapshot.sqlite");
    const bytes = await Deno.readFile(path);
    bytes[bytes.length - 1] ^= 1;
    await Deno.writeFile(path, bytes);
    changedUntouched = await listing(noSnapshot.dir);
    changed = await run(diffed, 120);
    changedAfter = await listing(noSnapshot.dir);
    // No snapshot at all in its place, the manifest changed to match.
    const spoilt = join(changed.dir, "snapshot.sqlite");
    await Deno.writeTextFile(spoilt, "not a database\n");
    const manifestPath = join(changed.dir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath)) as Manifest;
    const sha256 = await sha256File(spoilt);
    const files = manifest.files.map((f) =>
      f.path === "snapshot.sqlite" ? { ...f, bytes: 15, sha256 } : f
    );
    await Deno.writeTextFile(manifestPath, JSON.stringify({ ...manifest, files }));
    unreadable = await run(diffed, 180);
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
    if (dir) await Deno.remove(dir, { recursive: true });
  });

  it("a previous run without a snapshot: said in the mail, the run succeeds", async () => {
    assert.ok(plain.ok && !plain.manifest.files.some((f) => f.path === "snapshot.sqlite"));
    assert.ok(noSnapshot.ok);
    assert.ok(!noSnapshot.manifest.files.some((f) => f.path.startsWith("run-diff")));
    const { text } = await mailParts(noSnapshot.eml!);
    assert.match(
      rowsPart(text),
      new RegExp(
        `Not compared row by row: run folder \\S*${
          plain.dir.split("/").pop()
        } has no snapshot\\.sqlite`,
      ),
    );
  });

  it("a previous snapshot changed since its run is named in the mail; the run succeeds and writes nothing there", async () => {
    assert.ok(noSnapshot.manifest.files.some((f) => f.path === "snapshot.sqlite"));
    assert.ok(changed.ok);
    assert.deepEqual(changedAfter, changedUntouched);
    assert.ok(!changed.manifest.files.some((f) => f.path.startsWith("run-diff")));
    const { text } = await mailParts(changed.eml!);
    assert.match(
      rowsPart(text),
      /Not compared row by row: run folder \S+ has a snapshot\.sqlite whose SHA-256 is not the manifest's/,
    );
    const summary = JSON.parse(await Deno.readTextFile(join(changed.dir, "summary.json")));
    assert.equal(summary.diff.status, "not made");
  });

  it("a previous snapshot that is no snapshot, its manifest changed to match, is named; the run succeeds", async () => {
    assert.ok(changed.manifest.files.some((f) => f.path === "snapshot.sqlite"));
    assert.ok(unreadable.ok);
    assert.ok(!unreadable.manifest.files.some((f) => f.path.startsWith("run-diff")));
    const { text } = await mailParts(unreadable.eml!);
    assert.match(
      rowsPart(text),
      /Not compared row by row: snapshot "\S+\/snapshot\.sqlite": not a samkit snapshot/,
    );
  });
});

/** Counts of a row-by-row diff in which nothing changed: the fixed input the sections start from. */
const NO_CHANGE: RowDiffCounts = NO_COUNTS;

describe("the row-by-row section caps its lines", () => {
  it("lists mailRows lines, then 'and N more — see run-diff.pdf'", () => {
    const lines = Array.from(
      { length: 14 },
      (_, i) => `App ${i} (Installations): short ${i} → short ${i + 1}: requirement +1`,
    );
    const s = rowDiffSection({
      status: "made",
      previous: { run: "2026-11-16T0600Z", started: "2026-11-16T06:00:00.000Z" },
      note: null,
      files: ["run-diff.json", "run-diff.pdf"],
      counts: { ...NO_CHANGE, positions: 14, installsAppeared: 14 },
      lines,
      mailRows: 10,
    }, "2026-11-16 06:00 UTC")!;
    const text = summaryText({
      title: "t",
      runLine: "r",
      sourceLine: "s",
      ratesLine: null,
      sections: [s],
      comparedWith: "2026-11-16 06:00 UTC",
    }).join("\n");
    assert.equal(s.tables[0].rows.length, 10);
    assert.ok(text.includes(lines[9]) && !text.includes(lines[10]), text);
    assert.match(text, /and 4 more — see run-diff\.pdf/);
    assert.match(text, /What moved, row by row since 2026-11-16 06:00 UTC/);
  });
});

describe("the row-by-row section when nothing changed", () => {
  it("says so, and names the files that compare the runs", () => {
    const s = rowDiffSection({
      status: "made",
      previous: { run: "2026-11-16T0600Z", started: "2026-11-16T06:00:00.000Z" },
      note: null,
      files: ["run-diff.pdf", "run-diff.json"],
      counts: NO_CHANGE,
      lines: [],
      mailRows: 10,
    }, "2026-11-16 06:00 UTC")!;
    assert.deepEqual(s.intro, [
      "No computer, install or license changed; no position's shortfall or surplus changed.",
    ]);
    assert.equal(s.tables.length, 0);
    assert.deepEqual(s.notes, [
      "The two runs compared: run-diff.pdf, run-diff.json in the evidence folder.",
    ]);
  });
});

describe("the pack file's diff section", () => {
  const check = (doc: Record<string, unknown>) =>
    validatePack({ name: "p", reports: [{ id: "license-position" }], ...doc }, {
      file: "p.json",
      reports: REPORTS,
    });
  it("takes true, false and an object; fills the defaults, PDF first; the mail may attach it", () => {
    const email = { ...emlEmail, attach: ["run-diff", "run-diff.json"] };
    assert.deepEqual(check({ diff: true, email }).email?.attach, ["run-diff", "run-diff.json"]);
    assert.deepEqual(check({ diff: true }).diff, {
      formats: ["pdf", "xlsx", "json"],
      mailRows: 10,
    });
    assert.equal(check({ diff: false }).diff, undefined);
    assert.deepEqual(check({ diff: { formats: ["json", "pdf"], mailRows: 3 } }).diff, {
      formats: ["pdf", "json"],
      mailRows: 3,
    });
  });
  it("refuses a bad section naming the field", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ diff: "yes" }, "diff", /expected true, false or/],
      [{ diff: { rows: 3 } }, "diff.rows", /unknown field/],
      [{ diff: { mailRows: -1 } }, "diff.mailRows", /whole number from 0 to 100/],
      [{ diff: { formats: ["docx"] } }, "diff.formats", /unknown format "docx"/],
      [
        { email: { ...emlEmail, attach: ["run-diff"] } },
        "email.attach",
        /"run-diff" is not a report of this pack/,
      ],
      [
        { diff: { formats: ["json"] }, email: { ...emlEmail, attach: ["run-diff"] } },
        "email.attach",
        /report run-diff does not write a PDF/,
      ],
    ];
    for (const [doc, field, problem] of cases) {
      assert.throws(() => check(doc), (e) => {
        assert.ok(e instanceof PackFileError, String(e));
        assert.equal(e.field, field);
        assert.match(e.message, problem);
        return true;
      });
    }
    assert.throws(
      () =>
        validatePack({ name: "p", reports: [{ id: "stale-computers" }], diff: true }, {
          file: "p.json",
          reports: REPORTS,
        }),
      /p\.json: diff: a diff compares license-position's positions: add it to the pack's reports/,
    );
  });
});
