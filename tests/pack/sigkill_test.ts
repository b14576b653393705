import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { type Manifest, sha256File } from "../../lib/pack/manifest.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

function packProcess(packFile: string, tmp: string) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=pack", "--no-prompt", "main.ts", "pack", packFile, "--quiet"],
    cwd: ROOT,
    env: { NO_COLOR: "1", TMPDIR: tmp },
    stdout: "null",
    stderr: "piped",
  });
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) out.push(e.name);
  return out.sort();
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    return JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`)) as Manifest;
  } catch {
    return null; // not written yet
  }
}

/** The manifest's files are exactly the files in the folder, with matching checksums. */
async function assertManifestTrue(dir: string, manifest: Manifest): Promise<void> {
  const onDisk = (await names(dir)).filter((n) => n !== "manifest.json");
  assert.deepEqual(manifest.files.map((f) => f.path), onDisk, "listed = on disk");
  for (const f of manifest.files) {
    assert.equal(await sha256File(`${dir}/${f.path}`), f.sha256, f.path);
  }
}

describe("a pack killed with SIGKILL", () => {
  it("leaves a manifest that lists exactly the finished files; the next run cleans up after it", async () => {
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    const dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "sigkill-" });
    // A private temp folder under /tmp, so no other test's temp folders are in play.
    const tmp = await Deno.makeTempDir({ prefix: "sigkill-tmp-" });
    const packFile = `${dir}/pack.json`;
    const pack = {
      name: "killed",
      output: `${dir}/runs`,
      reports: [
        { id: "license-cost-summary", formats: ["pdf", "json", "csv"] },
        { id: "entitlement-state-by-computer", formats: ["pdf", "xlsx", "json"] },
        { id: "hardware-socket-map", formats: ["pdf", "xlsx", "json"] },
        { id: "license-position", formats: ["pdf", "json"] },
      ],
    };
    await Deno.writeTextFile(packFile, JSON.stringify(pack));
    const child = packProcess(packFile, tmp).spawn();
    let runDir = "";
    let seen: Manifest | null = null;
    const deadline = Date.now() + 45_000;
    while (!seen?.reports.some((r) => r.status === "ok")) {
      assert.ok(Date.now() < deadline, "the pack finished a report within 45 s");
      await new Promise((r) => setTimeout(r, 20));
      const runs = await names(`${dir}/runs/killed`).catch(() => [] as string[]);
      runDir = runs.filter((n) => !n.startsWith("."))[0] ?? "";
      if (runDir) seen = await readManifest(`${dir}/runs/killed/${runDir}`);
    }
    child.kill("SIGKILL");
    const status = await child.status;
    await child.stderr.cancel();
    assert.equal(status.signal, "SIGKILL");
    const run = `${dir}/runs/killed/${runDir}`;

    const dead = (await readManifest(run))!;
    assert.equal(dead.status, "running");
    assert.ok(dead.files.length >= 3, `finished files listed: ${dead.files.length}`);
    assert.ok((await names(run)).every((n) => !n.includes(".tmp-")), "no temp file in the run");
    await assertManifestTrue(run, dead);
    const left = (await names(tmp)).filter((n) => n.startsWith("samkit-"));
    assert.ok(left.some((n) => n.startsWith("samkit-chrome-")), `left behind: ${left}`);

    // The next run of the pack removes the dead run's temp folders, marks it abandoned. That is
    // its start's work, whatever it renders: one report and one PDF (its own browser's profile
    // must go too) are enough, and spare it the killed run's heavy reports.
    await Deno.writeTextFile(
      packFile,
      JSON.stringify({ ...pack, reports: pack.reports.slice(0, 1) }),
    );
    const next = await packProcess(packFile, tmp).output();
    assert.equal(next.code, 0, new TextDecoder().decode(next.stderr));
    assert.deepEqual((await names(tmp)).filter((n) => n.startsWith("samkit-")), []);
    const abandoned = (await readManifest(run))!;
    assert.equal(abandoned.status, "abandoned");
    assert.equal(abandoned.finished, null);
    await assertManifestTrue(run, abandoned);
    assert.deepEqual(
      (await names(`${dir}/runs/killed`)).filter((n) => n.startsWith(".")),
      [],
      "no staging folder left",
    );
    await Deno.remove(tmp, { recursive: true });
  });
});
