import { describe, it } from "node:test";
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

describe("samkit demo", () => {
  it("writes the flagship reports in HTML, PDF and XLSX from the embedded server", async () => {
    await Deno.mkdir(`${ROOT}out/test`, { recursive: true });
    const dir = await Deno.makeTempDir({ dir: `${ROOT}out/test`, prefix: "demo-" });
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-P=report",
        "--no-prompt",
        "main.ts",
        "demo",
        "--out",
        dir,
        "--computers",
        "40",
        "--quiet",
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const names: string[] = [];
    for await (const e of Deno.readDir(dir)) names.push(e.name);
    const expected = [
      "license-cost-summary",
      "entitlement-state-by-computer",
      "hardware-socket-map",
      "applications-per-organization",
    ]
      .flatMap((id) => ["html", "pdf", "xlsx"].map((ext) => `${id}.${ext}`));
    assert.deepEqual(names.sort(), expected.sort());
    for (const name of names) {
      assert.ok((await Deno.stat(`${dir}/${name}`)).size > 1000, `${name} has content`);
    }
  });
});
