import { describe, it } from "node:test";
import assert from "node:assert/strict";

import { runCli } from "../helpers/cli.ts";

/** Runs `samkit connectors …` with no connector keys but those given in `env`. */
const connectors = (args: string[], env: Record<string, string> = {}) =>
  runCli(["connectors", ...args], {
    set: "connectors",
    env: { SAMKIT_CONNECTOR_ACCESS_KEY: "", SAMKIT_CONNECTOR_SECRET_KEY: "", ...env },
  });

const KEYS = {
  SAMKIT_CONNECTOR_ACCESS_KEY: "AKTESTACCESSKEY00042",
  SAMKIT_CONNECTOR_SECRET_KEY: "s3cr3t-value-never-shown",
};
const DETAILS = [
  "--type",
  "ProviderAStore",
  "--bucket",
  "billing",
  "--report-prefix",
  "cur/",
  "--region",
  "eu-west-1",
];

describe("samkit connectors", () => {
  it("lists connectors with their status and error code", async () => {
    const r = await connectors(["list", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout);
    assert.ok(list.length >= 2);
    assert.ok(
      list.some((c: { errorCode: string | null }) => c.errorCode === "Account-Connection-Error"),
    );
    assert.ok(!r.stdout.includes("secretKey") && !r.stdout.includes("accessKey"));
  });

  it("validates a report name, tests and adds a configuration without echoing its keys", async () => {
    const free = await connectors([
      "validate",
      "--type",
      "ProviderAStore",
      "--report-name",
      "brand-new-report",
    ]);
    assert.equal(free.code, 0, free.stderr);
    assert.equal(JSON.parse(free.stdout).unique, true);
    const tested = await connectors(
      ["test", ...DETAILS, "--report-name", "brand-new-report"],
      KEYS,
    );
    assert.equal(tested.code, 0, tested.stderr);
    assert.equal(typeof JSON.parse(tested.stdout).status.code, "string");
    const added = await connectors([
      "add",
      ...DETAILS,
      "--report-name",
      "brand-new-report",
      "--name",
      "New",
    ], KEYS);
    assert.equal(added.code, 0, added.stderr);
    const created = JSON.parse(added.stdout);
    assert.equal(created.name, "New");
    for (const out of [tested, added]) {
      assert.ok(
        !(out.stdout + out.stderr).includes(KEYS.SAMKIT_CONNECTOR_SECRET_KEY),
        "secret never printed",
      );
      assert.ok(
        !(out.stdout + out.stderr).includes(KEYS.SAMKIT_CONNECTOR_ACCESS_KEY),
        "access key never printed",
      );
    }
  });

  it("exits 2 when keys are missing, the type is unknown or the action is unknown", async () => {
    const noKeys = await connectors(["test", ...DETAILS, "--report-name", "x"]);
    assert.equal(noKeys.code, 2);
    assert.match(noKeys.stderr, /SAMKIT_CONNECTOR_ACCESS_KEY and SAMKIT_CONNECTOR_SECRET_KEY/);
    const badType = await connectors(["validate", "--type", "ProviderC", "--report-name", "x"]);
    assert.equal(badType.code, 2);
    assert.match(badType.stderr, /unknown connector type "ProviderC"/);
    const badAction = await connectors(["delete"]);
    assert.equal(badAction.code, 2);
    assert.match(badAction.stderr, /unknown action "delete"/);
  });

  it("shows a connector's retrievals, and a clear error for an unknown connector", async () => {
    const ok = await connectors(["retrievals", "CCN01"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /calendarMonth/);
    const missing = await connectors(["retrievals", "NOPE"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /404|not found/i);
  });
});
