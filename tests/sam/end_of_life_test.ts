import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  endOfLifeRegistryFilter,
  installedFilter,
  isEndOfLifeInstall,
  MAX_IN_LIST,
} from "../../lib/sam/end_of_life.ts";

describe("end-of-life rules", () => {
  it("asks the registry for end-of-life applications, with the user's filter", () => {
    assert.equal(endOfLifeRegistryFilter(), "isEndOfLife -eq true");
    const both = endOfLifeRegistryFilter("manufacturer -contains Microsoft");
    assert.match(both, /isEndOfLife -eq true/);
    assert.match(both, /manufacturer -contains Microsoft/);
  });

  it("narrows installations to the applications while the list is short", () => {
    const few = installedFilter(["APP2", "APP1"]);
    assert.match(few, /isInstalled -eq true/);
    assert.ok(few.indexOf("APP1") < few.indexOf("APP2"), "ids sorted");
    const many = Array.from({ length: MAX_IN_LIST + 1 }, (_, i) => `APP${i}`);
    assert.equal(installedFilter(many), "isInstalled -eq true");
  });

  it("counts installed copies on a computer of an end-of-life application only", () => {
    const apps = new Set(["APP1"]);
    const base = { isInstalled: true, applicationId: "APP1", computerId: "C1" };
    assert.equal(isEndOfLifeInstall(base, apps), true);
    assert.equal(isEndOfLifeInstall({ ...base, isInstalled: false }, apps), false);
    assert.equal(isEndOfLifeInstall({ ...base, isInstalled: null }, apps), false);
    assert.equal(isEndOfLifeInstall({ ...base, computerId: null }, apps), false);
    assert.equal(isEndOfLifeInstall({ ...base, applicationId: "APP2" }, apps), false);
  });
});
