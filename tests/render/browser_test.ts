import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  BROWSER_FLAGS,
  BrowserNotFoundError,
  findBrowser,
  launchBrowser,
} from "../../lib/render/browser.ts";

describe("findBrowser", () => {
  const none = () => false;

  it("prefers PUPPETEER_EXECUTABLE_PATH when that file exists", async () => {
    const path = await findBrowser({
      env: (name) => (name === "PUPPETEER_EXECUTABLE_PATH" ? "/opt/chrome/chrome" : undefined),
      exists: (p) => p === "/opt/chrome/chrome" || p === "/usr/bin/chromium",
      candidates: ["/usr/bin/chromium"],
    });
    assert.equal(path, "/opt/chrome/chrome");
  });

  it("falls back to a system browser, then to Puppeteer's cache", async () => {
    assert.equal(
      await findBrowser({
        env: () => undefined,
        exists: (p) => p === "/usr/bin/google-chrome",
        candidates: ["/usr/bin/chromium", "/usr/bin/google-chrome"],
      }),
      "/usr/bin/google-chrome",
    );
  });

  it("takes a headless shell before a full browser when both are installed", async () => {
    const installed = new Set(["/usr/bin/chromium", "/usr/lib/chromium/chromium-headless-shell"]);
    const path = await findBrowser({ env: () => undefined, exists: (p) => installed.has(p) });
    assert.equal(path, "/usr/lib/chromium/chromium-headless-shell");
    installed.delete("/usr/lib/chromium/chromium-headless-shell");
    assert.equal(
      await findBrowser({ env: () => undefined, exists: (p) => installed.has(p) }),
      "/usr/bin/chromium",
    );
  });

  it("throws BrowserNotFoundError saying how to install one", async () => {
    const error = await findBrowser({
      env: (name) => (name === "PUPPETEER_EXECUTABLE_PATH" ? "/nope/chrome" : undefined),
      exists: none,
      candidates: ["/usr/bin/chromium"],
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof BrowserNotFoundError);
    assert.match(error.message, /apt-get install -y chromium-headless-shell/);
    assert.match(error.message, /PUPPETEER_EXECUTABLE_PATH/);
    assert.match(error.message, /\/nope\/chrome \(missing\)/);
    assert.match(error.message, /\/usr\/bin\/chromium/);
  });
});

describe("launchBrowser", () => {
  it("uses the hardening flags", () => {
    for (const flag of ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic"]) {
      assert.ok(BROWSER_FLAGS.includes(flag), flag);
    }
  });

  it("launches lazily, once, and removes its profile folder on close", async () => {
    const tempDir = await Deno.makeTempDir({ prefix: "samkit-browser-test-" });
    const browser = launchBrowser({ tempDir });
    try {
      assert.equal(browser.launched, false);
      assert.equal(browser.launches, 0);
      assert.deepEqual([...Deno.readDirSync(tempDir)], []);
      const [a, b] = await Promise.all([browser.newPage(), browser.newPage()]);
      assert.equal(browser.launches, 1);
      assert.equal(browser.launched, true);
      const profiles = [...Deno.readDirSync(tempDir)].map((e) => e.name);
      assert.equal(profiles.length, 1);
      assert.match(profiles[0], /^samkit-chrome-/);
      await a.close();
      await b.close();
      assert.match(await browser.version(), /Chrom/);
      assert.equal(browser.launches, 1);
    } finally {
      await browser.close();
    }
    assert.equal(browser.launched, false);
    assert.deepEqual([...Deno.readDirSync(tempDir)], []);
    await browser.close(); // twice is fine
    await assert.rejects(browser.newPage(), /closed/);
    await Deno.remove(tempDir, { recursive: true });
  });

  it("closing before any launch starts nothing", async () => {
    const browser = launchBrowser({ executablePath: "/nonexistent/chrome" });
    await browser.close();
    assert.equal(browser.launches, 0);
  });
});
