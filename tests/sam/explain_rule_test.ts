/**
 * The rule explain shows beside each metric-tracking row says what the row's own flags and
 * figures say: per install, per user, per core with its core factor and minimum, a virtual
 * machine licensed on its host, extended coverage through a host or a cluster, exclusions,
 * secondary use. And a name that matches nothing, or several applications, is bad input that
 * names the nearest names or the matches.
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { requirementRule } from "../../lib/sam/explain_rule.ts";
import { resolveName, UnknownNameError } from "../../lib/sam/explain_application.ts";
import { ParamError } from "../../lib/report/errors.ts";

const row = (fields: Record<string, number>) =>
  ({ computerId: "C1", applicationId: "A", metricId: "M", ...fields }) as never;

describe("requirementRule", () => {
  const cases: [string, Record<string, number>, string, string][] = [
    [
      "per install",
      { initialRequirement: 1, coreFactor: 1, requirement: 1 },
      "Installations",
      "Per install: 1",
    ],
    ["per user", { initialRequirement: 1, coreFactor: 1, requirement: 1 }, "Users", "Per user: 1"],
    [
      "per core, factor and minimum that applies",
      { initialRequirement: 8, coreFactor: 1, minimumRequirement: 16, requirement: 16 },
      "Processor cores",
      "Per core: 8 cores; minimum 16 applies → 16",
    ],
    [
      "per core with a core factor",
      { initialRequirement: 48, coreFactor: 0.5, requirement: 24 },
      "Processor cores",
      "Per core: 48 cores × core factor 0.5 = 24 → 24",
    ],
    [
      "physical host of a host-based product",
      { initialRequirement: 64, coreFactor: 0.5, requirement: 32, physicalHost: 1 },
      "Processor cores",
      "Physical host: all its cores, for the virtual machines it runs: 64 cores × core factor 0.5 = 32 → 32",
    ],
    [
      "VM licensed on its host",
      { virtualMachine: 1, requirementMoved: 1, requirement: 0, initialRequirement: 4 },
      "Processor cores",
      "Virtual machine: licensed on its host ESX-9, which counts its physical cores → 0 here",
    ],
    [
      "cluster coverage",
      { virtualMachine: 1, requirementMoved: 1, extendedCoverageForDcc: 1, requirement: 0 },
      "Processor cores",
      "Extended coverage through its data-center cluster: counted on the cluster's hosts → 0 here",
    ],
    [
      "host coverage",
      { virtualMachine: 1, requirementMoved: 1, extendedCoverageForHost: 1, requirement: 0 },
      "Processor cores",
      "Extended coverage through its host ESX-9: counted on the host → 0 here",
    ],
    [
      "excluded by hand",
      { manuallyExcluded: 1, computerAppExclusions: 1, requirement: 0 },
      "Installations",
      "Excluded (by hand, on this computer or application): not counted → 0",
    ],
    [
      "outside the metric period",
      { outsideMetricPeriod: 1, requirement: 0 },
      "Installations",
      "Outside the metric period (not seen in use in it): not counted → 0",
    ],
    [
      "secondary use",
      { secondaryUseRightsDesktopLaptop: 1, requirement: 0 },
      "Installations",
      "Secondary use rights (a second device of the same user): not counted → 0",
    ],
  ];
  for (const [name, fields, metric, want] of cases) {
    it(name, () => {
      assert.equal(requirementRule(row(fields), { metric, host: "ESX-9" }), want);
    });
  }

  it("a host without hardware data says its requirement is the minimum, understated", () => {
    const rule = requirementRule(
      row({ initialRequirement: 0, coreFactor: 1, minimumRequirement: 16, requirement: 16 }),
      { metric: "Processor cores", withoutHardware: true },
    );
    assert.match(rule, /^No hardware data: the minimum is counted \(understated\)/);
  });
});

describe("resolveName", () => {
  const apps = [
    {
      id: "APP1",
      names: ["Microsoft Visio Professional 2021 16.0", "Microsoft Visio Professional 2021"],
    },
    { id: "APP2", names: ["Microsoft Visio Standard 2021 16.0", "Microsoft Visio Standard 2021"] },
    { id: "APP3", names: ["Oracle Database 19c EE 19.24", "Oracle Database 19c EE"] },
    { id: "APP4", names: ["Oracle Database 19c EE 19.3", "Oracle Database 19c EE"] },
  ];

  it("takes an id, a label or a name, case aside", () => {
    assert.equal(resolveName("application", "APP3", apps), "APP3");
    assert.equal(resolveName("application", "microsoft visio standard 2021", apps), "APP2");
    assert.equal(resolveName("application", "Oracle Database 19c EE 19.3", apps), "APP4");
  });

  it("a name of several applications lists them, exit 2", () => {
    assert.throws(
      () => resolveName("application", "Oracle Database 19c EE", apps),
      (e: Error) =>
        e instanceof ParamError &&
        /names 2 applications; give one id: .*\(APP3\).*\(APP4\)/.test(e.message),
    );
  });

  it("an unknown name names itself and the nearest names, best first", () => {
    assert.throws(() => resolveName("application", "Visio Profesional", apps), (e: Error) => {
      assert.ok(e instanceof UnknownNameError && e instanceof ParamError);
      assert.match(
        e.message,
        /no application "Visio Profesional" in the license position; nearest: /,
      );
      assert.equal(e.suggestions[0], "Microsoft Visio Professional 2021 16.0 (APP1)");
      return true;
    });
    assert.throws(() => resolveName("application", "zzzz", apps), /no name is near it/);
  });
});
