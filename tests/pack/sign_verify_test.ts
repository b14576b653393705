/**
 * Signed evidence: `keys` writes an Ed25519 pair, `pack --sign` writes manifest.sig (checked here
 * by `deno task verify` and by openssl alone), and `verify` fails, naming the file, on every kind
 * of tampering — a changed byte in any file, a deleted or added file, a FIFO, an edited
 * manifest, a wrong key, a stripped signature — and with `--rerender` catches a report file
 * changed together with its checksum in an unsigned manifest.
 *
 * @module
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type PackFixture, startPackFixture } from "../helpers/pack_fixture.ts";
import { BROWSER_ENV, type CliRun, ROOT, runCli } from "../helpers/cli.ts";
import { mkfifo, runCliBounded } from "../helpers/bounded.ts";
import { exists } from "../helpers/files.ts";
import { REPORTS } from "../../reports/mod.ts";
import { PackFileError, validatePack } from "../../lib/pack/pack_file.ts";
import { runPack } from "../../lib/pack/run_pack.ts";
import { type Manifest, manifestText } from "../../lib/pack/manifest.ts";
import { generateKeyPair, readSigningKey } from "../../lib/pack/sign.ts";
import { verifyRunFolder } from "../../lib/pack/verify_run.ts";
import { scrubSecrets } from "../../lib/api/secrets.ts";
import { TenantsFileError, validateTenants } from "../../lib/tenants/tenants_file.ts";

const HAS_OPENSSL = await new Deno.Command("openssl", { args: ["version"], stdout: "null" })
  .output().then((o) => o.success, () => false);

const verify = (args: string[], env: Record<string, string> = {}) =>
  runCli(["verify", ...args], { set: "verify", env: { ...BROWSER_ENV, ...env } });

async function openssl(args: string[]): Promise<{ ok: boolean; out: string }> {
  const o = await new Deno.Command("openssl", { args, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  return { ok: o.success, out: dec.decode(o.stdout) + dec.decode(o.stderr) };
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

let fx: PackFixture;
let keys: string;
let run: string;
let copies = 0;

/** A fresh copy of the signed run as `<work>/<pack>/<run>`, to tamper with. */
async function copyRun(): Promise<string> {
  const to = join(fx.dir, `copy-${++copies}`, "signed", "run");
  await Deno.mkdir(dirname(to), { recursive: true });
  const cp = await new Deno.Command("cp", { args: ["-a", run, to] }).output();
  assert.ok(cp.success, "cp -a");
  return to;
}

/** Each file of `dir` with its size and modification time. */
async function statListing(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const s = await Deno.stat(join(dir, e.name));
    out.push(`${e.name} ${s.size} ${s.mtime?.getTime()}`);
  }
  return out.sort();
}

/** What `verify --rerender` with the key gave on an intact copy, and the copy's files around it. */
interface IntactRerender {
  readonly result: CliRun;
  readonly before: string[];
  readonly after: string[];
}

let intact: Promise<IntactRerender> | undefined;

/**
 * `verify --public-key … --rerender` on a fresh copy of the signed run, once for the tests that
 * read it (a re-render prints every PDF again: one is enough to show it passes and writes nothing).
 */
function intactRerender(): Promise<IntactRerender> {
  intact ??= (async () => {
    const copy = await copyRun();
    const before = await statListing(copy);
    const result = await verify([
      copy,
      "--public-key",
      join(keys, "signing-key.pub.pem"),
      "--rerender",
    ]);
    return { result, before, after: await statListing(copy) };
  })();
  return intact;
}

async function readManifestAt(dir: string): Promise<Manifest> {
  return JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
}

/** Makes a copy unsigned: no manifest.sig, and a manifest naming no key. */
async function unsign(dir: string): Promise<Manifest> {
  const { signedBy: _, ...manifest } = await readManifestAt(dir);
  await Deno.remove(join(dir, "manifest.sig"));
  await Deno.writeTextFile(join(dir, "manifest.json"), manifestText(manifest));
  return manifest;
}

before(async () => {
  fx = await startPackFixture({ prefix: "sign-", token: "sign-token", computers: 60 });
  keys = join(fx.dir, "keys");
  const made = await runCli(["keys", keys], { set: "keys" });
  assert.equal(made.code, 0, made.stderr);
  const pack = validatePack({
    name: "signed",
    reports: [
      { id: "stale-computers", formats: ["pdf", "xlsx", "csv", "json"] },
      { id: "license-cost-summary", formats: ["json", "csv", "html"] },
    ],
  }, { file: "signed.json", reports: REPORTS });
  const result = await runPack({
    pack,
    reports: REPORTS,
    outRoot: join(fx.dir, "runs"),
    source: fx.source,
    snapshot: true,
    signer: await readSigningKey({ file: join(keys, "signing-key.pem") }),
  });
  assert.ok(result.ok, JSON.stringify(result.manifest.reports));
  run = result.dir;
});

after(() => fx?.close());

describe("keys", () => {
  it("writes a PKCS#8 private key readable by its owner only and an SPKI public key", async () => {
    const info = await Deno.stat(join(keys, "signing-key.pem"));
    assert.equal(info.mode! & 0o777, 0o600);
    assert.match(await Deno.readTextFile(join(keys, "signing-key.pem")), /^-----BEGIN PRIVATE KEY/);
    assert.match(await Deno.readTextFile(join(keys, "signing-key.pub.pem")), /^-----BEGIN PUBLIC/);
    if (HAS_OPENSSL) {
      const parsed = await openssl([
        "pkey",
        "-in",
        join(keys, "signing-key.pem"),
        "-noout",
        "-text",
      ]);
      assert.match(parsed.out, /ED25519 Private-Key/);
    }
  });

  it("never overwrites a key: exit 2 naming it, both files unchanged", async () => {
    const before = await Deno.readTextFile(join(keys, "signing-key.pem"));
    const again = await runCli(["keys", keys], { set: "keys" });
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /signing-key\.pem already exists; a key is never overwritten/);
    assert.equal(await Deno.readTextFile(join(keys, "signing-key.pem")), before);
    // Only the public key there: still refused, and no private key written beside it.
    const half = join(fx.dir, "half");
    await Deno.mkdir(half);
    await Deno.writeTextFile(join(half, "signing-key.pub.pem"), "x");
    const r = await runCli(["keys", half], { set: "keys" });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /signing-key\.pub\.pem already exists/);
    assert.equal(await exists(join(half, "signing-key.pem")), false);
  });
});

describe("a signed pack", () => {
  it("verifies with deno task verify and with openssl alone; the manifest names the key", async () => {
    const manifest = await readManifestAt(run);
    assert.equal((await Deno.readFile(join(run, "manifest.sig"))).length, 64);
    assert.ok(!manifest.files.some((f) => f.path === "manifest.sig"), "the sig is not listed");
    assert.ok(manifest.source && manifest.samkitVersion && manifest.started && manifest.finished);
    const r = await verify([run, "--public-key", join(keys, "signing-key.pub.pem")]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /signature {2}ok: Ed25519, key [0-9a-f]{64}/);
    assert.match(r.stdout, /^verified$/m);
    if (!HAS_OPENSSL) {
      console.log("skipped the openssl checks: no openssl on this machine");
      return;
    }
    const checked = await openssl([
      "pkeyutl",
      "-verify",
      "-pubin",
      "-inkey",
      join(keys, "signing-key.pub.pem"),
      "-rawin",
      "-in",
      join(run, "manifest.json"),
      "-sigfile",
      join(run, "manifest.sig"),
    ]);
    assert.ok(checked.ok, checked.out);
    assert.match(checked.out, /Signature Verified Successfully/);
    // The fingerprint the manifest names is the SHA-256 of the public key's DER, as openssl has it.
    const der = await new Deno.Command("openssl", {
      args: ["pkey", "-pubin", "-in", join(keys, "signing-key.pub.pem"), "-outform", "DER"],
      stdout: "piped",
    }).output();
    assert.equal(manifest.signedBy?.publicKeySha256, await sha256Hex(new Uint8Array(der.stdout)));
  });

  it("finds the public key beside the pack's runs when none is given", async () => {
    const copy = await copyRun();
    await Deno.copyFile(
      join(keys, "signing-key.pub.pem"),
      join(dirname(copy), "signing-key.pub.pem"),
    );
    const r = await verify([copy]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /compare it with the fingerprint the signer published/);
    // With no key anywhere a signed run cannot be checked: it fails, saying where to put one.
    await Deno.remove(join(dirname(copy), "signing-key.pub.pem"));
    const none = await verify([copy]);
    assert.equal(none.code, 1, none.stdout);
    assert.match(none.stdout, /manifest\.sig: signature: cannot be checked: no public key/);
  });

  it("fails naming the file when one byte of any file changes", async () => {
    const copy = await copyRun();
    const publicKey = join(keys, "signing-key.pub.pem");
    const manifest = await readManifestAt(copy);
    const names = [...manifest.files.map((f) => f.path), "manifest.json", "manifest.sig"];
    assert.ok(names.length >= 10, names.join(" "));
    for (const name of names) {
      const path = join(copy, name);
      const original = await Deno.readFile(path);
      const changed = original.slice();
      changed[Math.floor(changed.length / 2)] ^= 0x01;
      await Deno.writeFile(path, changed);
      const result = await verifyRunFolder({ dir: copy, publicKey, reports: REPORTS });
      await Deno.writeFile(path, original);
      assert.equal(result.ok, false, name);
      const named = name === "manifest.sig" ? "manifest.json" : name;
      assert.ok(
        result.findings.some((f) => f.file === named),
        `${name}: ${JSON.stringify(result.findings)}`,
      );
    }
    assert.ok((await verifyRunFolder({ dir: copy, publicKey, reports: REPORTS })).ok);
  });

  it("fails naming the file when one is deleted, added, a FIFO, or the manifest is edited", async () => {
    const publicKey = join(keys, "signing-key.pub.pem");
    const deleted = await copyRun();
    await Deno.remove(join(deleted, "stale-computers.xlsx"));
    let r = await verify([deleted, "--public-key", publicKey]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /FAIL {7}stale-computers\.xlsx: missing/);

    const added = await copyRun();
    await Deno.writeTextFile(join(added, "extra.csv"), "a\n1\n");
    r = await verify([added, "--public-key", publicKey]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /FAIL {7}extra\.csv: unlisted/);

    // A FIFO, planted beside the files or in place of one, is named; verify never waits on it.
    const fifo = await copyRun();
    await mkfifo(join(fifo, "planted"));
    await Deno.remove(join(fifo, "summary.json"));
    await mkfifo(join(fifo, "summary.json"));
    const bounded = await runCliBounded(["verify", fifo, "--public-key", publicKey], {
      set: "verify",
      limitSeconds: 60,
    });
    assert.equal(bounded.timedOut, false);
    assert.equal(bounded.code, 1, bounded.stdout + bounded.stderr);
    assert.match(bounded.stdout, /FAIL {7}planted: unlisted: a FIFO there/);
    assert.match(bounded.stdout, /FAIL {7}summary\.json: not a regular file: is a FIFO/);

    const edited = await copyRun();
    const manifest = await readManifestAt(edited);
    await Deno.writeTextFile(
      join(edited, "manifest.json"),
      manifestText({ ...manifest, source: "https://sam.example.com" }),
    );
    r = await verify([edited, "--public-key", publicKey]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /FAIL {7}manifest\.json: signature: bad signature/);
  });

  it("fails with a wrong key, a stripped signature, or an unsigned run when a key is given", async () => {
    const copy = await copyRun();
    const other = await generateKeyPair();
    const otherKey = join(fx.dir, "other.pub.pem");
    await Deno.writeTextFile(otherKey, other.publicPem);
    let r = await verify([copy, "--public-key", otherKey]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /manifest\.sig: signature: wrong key: the manifest names signing key/);
    assert.ok(r.stdout.includes(other.fingerprint));

    await Deno.remove(join(copy, "manifest.sig"));
    r = await verify([copy, "--public-key", join(keys, "signing-key.pub.pem")]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /manifest\.sig: signature: missing: the manifest names signing key/);

    const unsigned = await copyRun();
    await unsign(unsigned);
    r = await verify([unsigned]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /signature {2}not signed/);
    r = await verify([unsigned, "--public-key", join(keys, "signing-key.pub.pem")]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /manifest\.sig: signature: not signed/);
    r = await verify([unsigned], { SAMKIT_PUBLIC_KEY: join(keys, "signing-key.pub.pem") });
    assert.equal(r.code, 1, r.stdout);
  });

  it("--rerender passes on an intact run and catches a report file changed with its checksum", async () => {
    const { result: r } = await intactRerender();
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const counts = /re-render {2}ok: (\d+) files byte-identical, (\d+) XLSX identical part by part/
      .exec(r.stdout);
    assert.ok(counts, r.stdout);
    const manifest = await readManifestAt(run);
    const reportFiles = manifest.reports.flatMap((x) => x.files);
    assert.equal(Number(counts[1]) + Number(counts[2]), reportFiles.length);
    assert.ok(reportFiles.includes("stale-computers.pdf"), "a PDF is among them");

    // Unsigned, a report file edited with the manifest re-hashed passes the checksums…
    const copy = await copyRun();
    const unsigned = await unsign(copy);
    const target = "stale-computers-computers.csv";
    const bytes = new TextEncoder().encode(
      (await Deno.readTextFile(join(copy, target))).replace(/\d/, (d) => String((+d + 1) % 10)),
    );
    await Deno.writeFile(join(copy, target), bytes);
    const files = unsigned.files.map((f) =>
      f.path === target ? { ...f, bytes: bytes.length, sha256: "" } : f
    );
    const rehashed = await Promise.all(
      files.map(async (f) => f.sha256 ? f : { ...f, sha256: await sha256Hex(bytes) }),
    );
    await Deno.writeTextFile(
      join(copy, "manifest.json"),
      manifestText({ ...unsigned, files: rehashed }),
    );
    const plain = await verify([copy]);
    assert.equal(plain.code, 0, plain.stdout);
    // …and the re-render from the snapshot names it.
    const again = await verify([copy, "--rerender"]);
    assert.equal(again.code, 1, again.stdout);
    assert.match(
      again.stdout,
      new RegExp(`FAIL {7}${target.replace(/\./g, "\\.")}: re-render differs`),
    );
    assert.equal(again.stdout.match(/^FAIL {7}/gm)?.length, 1, again.stdout);
  });

  it("--rerender converts with the rates a reporting-currency run used (from its summary)", async () => {
    const pack = validatePack({
      name: "eur",
      reportingCurrency: "EUR",
      fxRates: join(ROOT, "packs/fx_rates.example.csv"),
      reports: [{ id: "license-cost-summary", formats: ["json", "csv"] }],
    }, { file: "eur.json", reports: REPORTS });
    const result = await runPack({
      pack,
      reports: REPORTS,
      outRoot: join(fx.dir, "eur-runs"),
      source: fx.source,
      snapshot: true,
    });
    assert.ok(result.ok);
    const json = await Deno.readTextFile(join(result.dir, "license-cost-summary.json"));
    assert.match(json, /"reportingCurrency"/);
    const checked = await verifyRunFolder({ dir: result.dir, rerender: true, reports: REPORTS });
    assert.deepEqual(checked.findings, []);
    assert.ok((checked.rerender?.identical ?? 0) > 2);
  });

  it("verify never writes into the run folder", async () => {
    const { result, before, after } = await intactRerender();
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(after, before);
  });
});

describe("bad input", () => {
  it("verify: no folder, a missing folder, a file, or --rerender of a run without a snapshot exit 2", async () => {
    assert.equal((await verify([])).code, 2);
    const missing = await verify([join(fx.dir, "no-such-run")]);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /run folder .*no-such-run does not exist/);
    const file = await verify([join(keys, "signing-key.pub.pem")]);
    assert.equal(file.code, 2, file.stderr);
    const copy = await copyRun();
    const manifest = await unsign(copy);
    await Deno.remove(join(copy, "snapshot.sqlite"));
    await Deno.writeTextFile(
      join(copy, "manifest.json"),
      manifestText({
        ...manifest,
        files: manifest.files.filter((f) => f.path !== "snapshot.sqlite"),
      }),
    );
    assert.equal((await verify([copy])).code, 0);
    const r = await verify([copy, "--rerender"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /has no snapshot\.sqlite: --rerender needs a run made with/);
  });

  it("pack --sign with a missing key or a public key exits 2 before any run folder", async () => {
    const dir = join(fx.dir, "bad-sign");
    await Deno.mkdir(dir);
    const packFile = join(dir, "p.json");
    await Deno.writeTextFile(
      packFile,
      JSON.stringify({
        name: "p",
        output: join(dir, "runs"),
        reports: [{ id: "stale-computers" }],
      }),
    );
    for (
      const [key, message] of [
        [join(dir, "nope.pem"), /signing key: secret file .*nope\.pem does not exist/],
        [join(keys, "signing-key.pub.pem"), /signing key .*pub\.pem: is not a PEM private key/],
      ] as const
    ) {
      const r = await runCli(["pack", packFile, "--sign", key, "--quiet"], { set: "pack" });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(await exists(join(dir, "runs")), false, "nothing written");
    }
  });

  it("a pack file's sign.key is a secret reference, never the key; its runs are signed", async () => {
    const pair = await generateKeyPair();
    assert.throws(
      () =>
        validatePack({
          name: "p",
          reports: [{ id: "stale-computers" }],
          sign: { key: pair.privatePem },
        }, {
          file: "p.json",
          reports: REPORTS,
        }),
      (e: unknown) =>
        e instanceof PackFileError && /sign\.key: .*never the secret itself/.test(e.message),
    );
    Deno.env.set("SAMKIT_TEST_SIGNING_KEY", pair.privatePem);
    try {
      const pack = validatePack({
        name: "env-signed",
        reports: [{ id: "stale-computers", formats: ["json"] }],
        sign: { key: { env: "SAMKIT_TEST_SIGNING_KEY" } },
      }, { file: "p.json", reports: REPORTS });
      const result = await runPack({
        pack,
        reports: REPORTS,
        outRoot: join(fx.dir, "env-runs"),
        source: fx.source,
      });
      assert.equal(result.manifest.signedBy?.publicKeySha256, pair.fingerprint);
      const key = join(fx.dir, "env.pub.pem");
      await Deno.writeTextFile(key, pair.publicPem);
      const checked = await verifyRunFolder({ dir: result.dir, publicKey: key, reports: REPORTS });
      assert.ok(checked.ok, JSON.stringify(checked.findings));
      // The key's text, and its base64 line alone, are secrets from then on.
      const body = pair.privatePem.split("\n")[1];
      assert.equal(scrubSecrets(`key ${body} here`), "key <redacted> here");
    } finally {
      Deno.env.delete("SAMKIT_TEST_SIGNING_KEY");
    }
  });

  it("a tenant's sign.key is a secret reference too, never the key", () => {
    const tenant = (sign: unknown) => ({
      tenants: [{
        id: "acme",
        name: "Acme",
        baseUrl: "https://sam.example.com",
        credentials: { token: { env: "ACME_TOKEN" } },
        sign,
      }],
    });
    const [acme] = validateTenants(tenant({ key: { file: "acme_signing_key" } }), "t.json");
    assert.deepEqual(acme.sign, { key: { file: "acme_signing_key" } });
    assert.throws(
      () => validateTenants(tenant({ key: "-----BEGIN PRIVATE KEY-----" }), "t.json"),
      (e: unknown) =>
        e instanceof TenantsFileError &&
        /tenants\[0\]\.sign\.key: .*never the secret itself/.test(e.message),
    );
  });
});
