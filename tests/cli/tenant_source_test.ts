/**
 * A tenant run reaches the tenant or fails: a `:tenant` task, `--token`, or tenant credentials in
 * the environment with no API address exit 2 before any request, naming SAM_BASE_URL/SAM_REGION
 * and the address SAM_API_HOST implies, and write nothing. The embedded server serves only plain
 * demo runs, and everything such a run writes says "demo data": cover, file metadata, JSON
 * `source`, the pack's mail subject.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { simpleParser } from "mailparser";
import { PDFDocument } from "pdf-lib";
import { BROWSER_ENV, CLEAN_ENV, ROOT, runCli, TEST_BROWSER } from "../helpers/cli.ts";
import { exists, outTestDir } from "../helpers/files.ts";
import { testEmail } from "../helpers/pack_summary.ts";
import { withServer } from "../helpers/server.ts";
import { readZipText } from "../render/xlsx_zip.ts";
import { openSource, tenantRunProblem } from "../../lib/cli/source.ts";
import { UsageError } from "../../lib/cli/usage_error.ts";

const dec = new TextDecoder();
const HAS_CHROMIUM = TEST_BROWSER !== undefined;
const CREDENTIALS = { SAM_CLIENT_ID: "demo", SAM_CLIENT_SECRET: "demo-secret" };

/**
 * Runs `fn` with a loopback server that counts every request it gets (and answers none usefully),
 * named as `host:port`.
 */
async function withCountingServer<T>(
  fn: (host: string, requests: () => number) => Promise<T>,
): Promise<T> {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    requests++;
    return new Response("{}", { status: 500 });
  });
  try {
    return await fn(`127.0.0.1:${server.addr.port}`, () => requests);
  } finally {
    await server.shutdown();
  }
}

/**
 * Runs `deno task <name> <args>` from the project folder, connection settings cleared. A
 * schedule that starts waiting for its next run (it says "next run at") is stopped there, and
 * the result says so: it was running, where it should have refused.
 */
async function task(name: string, args: string[], env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", name, ...args],
    cwd: ROOT,
    env: { ...CLEAN_ENV, SAM_HOST: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  let waiting = false;
  const readErr = (async () => {
    for await (const chunk of child.stderr) {
      stderr += dec.decode(chunk, { stream: true });
      if (!waiting && /next run at /.test(stderr)) {
        waiting = true;
        child.kill("SIGTERM");
      }
    }
  })();
  const stdout = new Response(child.stdout).text();
  const [status, out] = await Promise.all([child.status, stdout, readErr]);
  return { code: waiting ? -1 : status.code, stdout: out, stderr };
}

/** A fresh, not yet existing, output folder under out/test; removed after `fn`. */
async function withOut<T>(fn: (out: string) => Promise<T>): Promise<T> {
  const parent = await outTestDir("tenant-source-");
  try {
    return await fn(`${parent}/out`);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
}

/** The stderr lines samkit itself printed (not `deno task`'s echo of the command). */
const samkitLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.startsWith("samkit:")).join("\n");

describe("a tenant task with SAM_API_HOST set and no API address", () => {
  const cases: [string, (out: string) => string[]][] = [
    ["report:tenant", (out) => ["license-cost-summary", "--format", "json", "--out", out]],
    ["pack:tenant", (out) => ["packs/weekly_audit.json", "--out", out]],
    ["schedule:tenant", (out) => ["packs/monthly_finance.json", "--out", out]],
    ["doctor:tenant", () => []],
    ["connectors:tenant", () => ["list"]],
  ];
  for (const [name, args] of cases) {
    it(`${name} exits 2 before any request, naming SAM_BASE_URL and the value from SAM_API_HOST`, async () => {
      await withCountingServer(async (host, requests) => {
        await withOut(async (out) => {
          const r = await task(name, args(out), {
            SAM_API_HOST: host,
            SAMKIT_SMTP_HOST: "localhost",
            ...CREDENTIALS,
          });
          const said = samkitLines(r.stderr);
          assert.equal(r.code, 2, r.stderr + r.stdout);
          assert.match(said, /SAM_BASE_URL/);
          assert.match(said, /SAM_REGION/);
          assert.ok(said.includes(`export SAM_BASE_URL=http://${host}`), said);
          assert.doesNotMatch(r.stdout, /Ready/);
          assert.equal(requests(), 0, "no request reached the tenant's host");
          assert.equal(await exists(out), false, "nothing written");
        });
      });
    });
  }

  it("report:tenant exits 2 even without credentials: the task alone says it is a tenant run", async () => {
    await withOut(async (out) => {
      const r = await task("report:tenant", ["license-cost-summary", "--out", out], {
        SAM_API_HOST: "westeurope.example-sam-host.com",
      });
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        samkitLines(r.stderr),
        /export SAM_BASE_URL=https:\/\/westeurope\.example-sam-host\.com/,
      );
      assert.equal(await exists(out), false);
    });
  });

  it("report:tenant with the address given runs against the tenant, not the demo estate", async () => {
    await withServer({ computers: 12 }, async (srv) => {
      await withOut(async (out) => {
        const host = new URL(srv.url).host;
        const r = await task(
          "report:tenant",
          ["license-cost-summary", "--format", "json", "--out", out, "--quiet"],
          { SAM_API_HOST: host, SAM_BASE_URL: srv.url, ...CREDENTIALS },
        );
        assert.equal(r.code, 0, r.stderr);
        const json = JSON.parse(await Deno.readTextFile(`${out}/license-cost-summary.json`));
        assert.equal(json.source, srv.url);
      });
    });
  });
});

describe("tenant credentials with no API address (main.ts called directly)", () => {
  const cases: [string, string, Record<string, string>, (out: string) => string[]][] = [
    ["SAM_TOKEN, report", "report", { SAM_TOKEN: "a-token" }, (out) => [
      "report",
      "license-cost-summary",
      "--format",
      "json",
      "--out",
      out,
    ]],
    ["--token, report", "report", {}, (out) => [
      "report",
      "license-cost-summary",
      "--out",
      out,
      "--token",
      "S3CR3T-TOKEN-VALUE",
    ]],
    ["SAM_CLIENT_ID and SAM_CLIENT_SECRET, pack", "pack", CREDENTIALS, (out) => [
      "pack",
      "packs/weekly_audit.json",
      "--out",
      out,
    ]],
    ["SAM_TOKEN, doctor", "doctor", { SAM_TOKEN: "a-token" }, () => ["doctor"]],
    ["SAM_CLIENT_SECRET alone, connectors", "connectors", { SAM_CLIENT_SECRET: "s" }, () => [
      "connectors",
      "list",
    ]],
  ];
  for (const [what, set, env, args] of cases) {
    it(`${what}: exit 2 naming SAM_BASE_URL, nothing written`, async () => {
      await withOut(async (out) => {
        const r = await runCli(args(out), { set, env });
        assert.equal(r.code, 2, r.stderr + r.stdout);
        assert.match(r.stderr, /the API's address is not: set SAM_BASE_URL, or SAM_REGION/);
        assert.doesNotMatch(r.stdout, /Ready/);
        assert.doesNotMatch(r.stderr + r.stdout, /S3CR3T-TOKEN-VALUE|a-token|demo-secret/);
        assert.equal(await exists(out), false);
      });
    });
  }

  it("an empty --base-url is refused, not taken as none", async () => {
    await withOut(async (out) => {
      const r = await runCli(["report", "license-cost-summary", "--out", out, "--base-url", ""]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /address is not set/);
      assert.equal(await exists(out), false);
    });
  });
});

describe("tenantRunProblem", () => {
  const none = () => undefined;
  const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

  it("finds a tenant run by its task flag, its credentials or its environment", () => {
    assert.match(tenantRunProblem({ tenant: true }, none)!, /^this is a tenant task/);
    assert.match(tenantRunProblem({ token: "t" }, none)!, /^a token was given/);
    // The worker's path: a tenant's credentials from its tenants file, as options.
    assert.match(
      tenantRunProblem({ clientId: "a", clientSecret: "b" }, none)!,
      /^client credentials were given/,
    );
    for (const name of ["SAM_TOKEN", "SAM_CLIENT_ID", "SAM_CLIENT_SECRET"]) {
      const problem = tenantRunProblem({}, envOf({ [name]: "x" }))!;
      assert.match(problem, new RegExp(`^${name} is set .*for the demo, unset ${name}`));
    }
  });

  it("lets a plain demo run, and any run with an address, start", () => {
    assert.equal(tenantRunProblem({}, none), undefined);
    assert.equal(
      tenantRunProblem({ tenant: true, baseUrl: "https://eu.example.com" }, none),
      undefined,
    );
    assert.equal(tenantRunProblem({ token: "t" }, envOf({ SAM_BASE_URL: "https://x" })), undefined);
    assert.equal(tenantRunProblem({ tenant: true }, envOf({ SAM_REGION: "eu" })), undefined);
  });

  it("suggests SAM_BASE_URL from SAM_API_HOST, and never echoes a value that is not a host", () => {
    const from = (host: string) =>
      tenantRunProblem({ tenant: true }, envOf({ SAM_API_HOST: host }))!;
    assert.match(
      from("eu.example.com"),
      /from SAM_API_HOST: export SAM_BASE_URL=https:\/\/eu\.example\.com$/,
    );
    assert.match(from("localhost:8787"), /export SAM_BASE_URL=http:\/\/localhost:8787$/);
    const hostile = from("evil.example.com/\u001b[2J?token=abc");
    assert.ok(!hostile.includes("\u001b"), "no escape sequence echoed");
    assert.doesNotMatch(hostile, /evil|token=abc/);
    assert.match(hostile, /e\.g\. export SAM_BASE_URL=https:\/\/westeurope/);
  });

  const noAddress = !Deno.env.get("SAM_BASE_URL") && !Deno.env.get("SAM_REGION");
  it("openSource refuses a tenant's credentials without an address (the worker's path)", {
    skip: !noAddress && "SAM_BASE_URL or SAM_REGION is set in this shell",
  }, async () => {
    await assert.rejects(openSource({ clientId: "a", clientSecret: "b" }), UsageError);
    await assert.rejects(openSource({ token: "t" }), UsageError);
    await assert.rejects(openSource({ tenant: true }), UsageError);
  });
});

/** The metadata and cover of `dir/<id>.<ext>` for every format, as a reader sees them. */
async function labels(dir: string, id: string, pdf: boolean) {
  const json = JSON.parse(await Deno.readTextFile(`${dir}/${id}.json`));
  const html = await Deno.readTextFile(`${dir}/${id}.html`);
  const zip = await readZipText(`${dir}/${id}.xlsx`);
  const core = zip.get("docProps/core.xml") ?? "";
  const tag = (xml: string, name: string) =>
    xml.match(new RegExp(`<${name}[^>]*>([^<]*)</${name}>`))?.[1] ?? "";
  const summarySheet = zip.get("xl/worksheets/sheet1.xml") ?? "";
  const result = {
    jsonSource: json.source as string,
    htmlTitle: tag(html, "title"),
    htmlCover: html.match(/<header class="cover">[\s\S]*?<\/header>/)?.[0] ?? "",
    xlsxTitle: tag(core, "dc:title"),
    xlsxSubject: tag(core, "dc:subject"),
    xlsxKeywords: tag(core, "cp:keywords"),
    xlsxSummary: summarySheet,
    pdfTitle: "",
    pdfSubject: "",
    pdfKeywords: "",
    pdfCover: "",
  };
  if (pdf) {
    const doc = await PDFDocument.load(await Deno.readFile(`${dir}/${id}.pdf`));
    result.pdfTitle = doc.getTitle() ?? "";
    result.pdfSubject = doc.getSubject() ?? "";
    result.pdfKeywords = doc.getKeywords() ?? "";
    const text = await new Deno.Command("pdftotext", {
      args: ["-f", "1", "-l", "1", `${dir}/${id}.pdf`, "-"],
      stdout: "piped",
    }).output();
    result.pdfCover = dec.decode(text.stdout).replace(/\s+/g, " ");
  }
  return result;
}

describe("an embedded run says demo data", () => {
  const formats = HAS_CHROMIUM ? "json,html,xlsx,pdf" : "json,html,xlsx";

  it("in every format's metadata and on its cover", async () => {
    await withOut(async (out) => {
      const r = await runCli(
        ["report", "license-cost-summary", "--format", formats, "--computers", "40", "--out", out],
        { env: BROWSER_ENV },
      );
      assert.equal(r.code, 0, r.stderr);
      const l = await labels(out, "license-cost-summary", HAS_CHROMIUM);
      assert.match(l.jsonSource, /^embedded reference server .*: demo data, not a tenant's$/);
      assert.equal(l.htmlTitle, "License cost summary (demo data)");
      assert.match(l.htmlCover, /class="demo-label">Demo data: generated by samkit's embedded/);
      assert.equal(l.xlsxTitle, "License cost summary (demo data)");
      assert.match(l.xlsxSubject, /^demo data: /);
      assert.match(l.xlsxKeywords, /demo data/);
      assert.match(l.xlsxSummary, /License cost summary \(demo data\)/);
      if (HAS_CHROMIUM) {
        assert.equal(l.pdfTitle, "License cost summary (demo data)");
        assert.match(l.pdfSubject, /^demo data: /);
        assert.match(l.pdfKeywords, /demo data/);
        assert.match(l.pdfCover, /Demo data: generated by samkit's embedded reference server/);
      }
    });
  });

  it("and a tenant run says none of it", async () => {
    await withServer({ computers: 40 }, async (srv) => {
      await withOut(async (out) => {
        const r = await runCli([
          "report",
          "license-cost-summary",
          "--format",
          formats,
          "--out",
          out,
          "--base-url",
          srv.url,
        ], { env: { ...CREDENTIALS, ...BROWSER_ENV } });
        assert.equal(r.code, 0, r.stderr);
        const l = await labels(out, "license-cost-summary", HAS_CHROMIUM);
        assert.equal(l.jsonSource, srv.url);
        for (const [key, value] of Object.entries(l)) {
          assert.doesNotMatch(value, /demo data/i, key);
        }
      });
    });
  });

  it("deno task demo runs on the demo estate whatever the environment names, labelled", async () => {
    await withOut(async (out) => {
      const r = await runCli(["demo", "--format", "html", "--computers", "40", "--out", out], {
        env: { ...CREDENTIALS, SAM_BASE_URL: "http://127.0.0.1:9" },
      });
      assert.equal(r.code, 0, r.stderr);
      const html = await Deno.readTextFile(`${out}/license-cost-summary.html`);
      assert.match(html, /<title>License cost summary \(demo data\)<\/title>/);
    });
  });

  it("in the subject of the pack's summary mail", async () => {
    await withOut(async (out) => {
      await Deno.mkdir(out, { recursive: true });
      const file = `${out}/demo-label.json`;
      await Deno.writeTextFile(
        file,
        JSON.stringify({
          name: "demo-label",
          reports: [{ id: "license-cost-summary", formats: ["json"] }],
          email: { ...testEmail("cfo@example.test"), subject: "Licence costs {date}" },
        }),
      );
      const r = await runCli(["pack", file, "--out", out, "--quiet"], {
        set: "pack",
        env: BROWSER_ENV,
      });
      assert.equal(r.code, 0, r.stderr);
      const manifest = r.stdout.trim().split("\n").pop()!;
      const eml = manifest.replace(/manifest\.json$/, "summary.eml");
      const mail = await simpleParser(Buffer.from(await Deno.readFile(eml)));
      assert.match(mail.subject ?? "", /^\[demo data\] Licence costs \d{4}-\d\d-\d\d$/);
      assert.match(mail.text ?? "", /demo data, not a tenant's/);
    });
  });
});
