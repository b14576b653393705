/**
 * Numbers are finite and exact or refused: a quantity, price or core count sent as `"1e309"`
 * (Infinity once read), as a bare JSON `1e309`, or as `9007199254740993` (rounded once read) fails
 * the report before any file is written, naming the operation, the item and the field; a price
 * file with such a price is refused naming the file and the line.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { normalise } from "../../lib/api/normalise.ts";
import { NormalisationError, ShapeError } from "../../lib/api/errors.ts";
import { checkEnvelope } from "../../lib/api/shape.ts";
import { parsePriceFile, PriceFileError } from "../../lib/query/elp/price_file.ts";
import { resolveParams } from "../../lib/report/params.ts";
import type { ReportDefinition } from "../../lib/report/model.ts";
import { type RunningServer, startServer } from "../../lib/server/server.ts";
import { type FaultProxy, startFaultProxy } from "../helpers/fault_proxy.ts";
import { runReportForTest } from "../helpers/run_report.ts";
import { hardwareSocketMap, licenseCostSummary } from "../../reports/mod.ts";

describe("numbers read from the service", () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ["numeric text beyond a double", { id: "L1", quantity: "1e309" }, "quantity"],
    [
      "a JSON number beyond a double (read as Infinity)",
      { id: "L1", quantity: Infinity },
      "quantity",
    ],
    ["NaN", { id: "L1", quantity: NaN }, "quantity"],
    ["a whole number a double rounds", { id: "L1", quantity: "9007199254740993" }, "quantity"],
    ["a whole number read rounded from JSON", { id: "L1", quantity: 9007199254740992 }, "quantity"],
    ["a price beyond a double", { id: "L1", purchaseValue: "1e309" }, "purchaseValue"],
    ["a price beyond exact cents", { id: "L1", purchaseValue: "1e13" }, "purchaseValue"],
    ["a negative price beyond exact cents", { id: "L1", purchaseValue: -1e14 }, "purchaseValue"],
  ];
  for (const [what, raw, field] of bad) {
    it(`refuses ${what}, naming the item and the field`, () => {
      assert.throws(() => normalise("License", raw), (e: unknown) => {
        assert.ok(e instanceof NormalisationError, String(e));
        assert.equal(e.field, field);
        assert.match(e.message, new RegExp(`^License\\.${field} of item "L1": cannot read`));
        return true;
      });
    });
  }

  it("refuses a core count beyond a double on a hardware record, naming its computer", () => {
    assert.throws(() => normalise("Hardware", { computerId: "C7", coreCount: "-1e400" }), {
      name: "NormalisationError",
      message: /^Hardware\.coreCount of item computerId "C7": cannot read "-1e400" as a finite/,
    });
  });

  it("keeps every value within the bounds as it was sent", () => {
    const l = normalise("License", {
      quantity: "9007199254740991",
      purchaseValue: "9999999999999.99",
      activeMaintenanceCost: -9_999_999_999_999.99,
      upgradedLicenseCount: "1.6e4",
    });
    assert.equal(l.quantity, Number.MAX_SAFE_INTEGER);
    assert.equal(l.purchaseValue, 9_999_999_999_999.99);
    assert.equal(l.activeMaintenanceCost, -9_999_999_999_999.99);
    assert.equal(l.upgradedLicenseCount, 16000);
  });

  it("refuses pagination numbers a double rounds", () => {
    const ctx = { operation: "estate.computers", path: "/x", resource: "Computer" as const };
    assert.throws(
      () => checkEnvelope(ctx, { items: [], pagination: { total_items: "9007199254740993" } }),
      (e) => e instanceof ShapeError && /total_items/.test(e.message),
    );
  });
});

describe("a report over a service that sends numbers that are not numbers", () => {
  let server: RunningServer;
  let proxy: FaultProxy;
  before(async () => {
    server = await startServer({ port: 0, computers: 40, seed: 1, quiet: true, token: "t" });
    proxy = startFaultProxy({ upstream: server.url });
  });
  after(async () => {
    await proxy.close();
    await server.close();
  });

  /** Runs a report into a folder not yet made; returns the error and whether the folder holds anything. */
  // deno-lint-ignore no-explicit-any
  async function failedRun(report: ReportDefinition<any, any>): Promise<Error> {
    const base = await Deno.makeTempDir({ prefix: "samkit-finite-" });
    const dir = `${base}/out`;
    try {
      const error = await runReportForTest({
        server: { url: proxy.url, token: "t" },
        report,
        formats: ["json", "csv", "xlsx", "html"],
        dir,
      }).then(() => undefined, (e: Error) => e);
      assert.ok(error, `${report.id} finished with the hostile number`);
      const written = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
      assert.deepEqual(written, [], "files written");
      return error;
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  }

  const licenses = /\/api\/sam\/v1\/licenses$/;
  const cases: [string, RegExp, (text: string) => string, RegExp][] = [
    [
      'a quantity of "1e309"',
      licenses,
      (t) => t.replace(/"quantity":"\d+"/, '"quantity":"1e309"'),
      /^licenses\.list: License\.quantity of item "LIC\d+" \(item \d+ of page 1\): cannot read "1e309"/,
    ],
    [
      "a purchase value of 1e309 (a JSON number)",
      licenses,
      (t) => t.replace(/"purchaseValue":"[\d.]+"/, '"purchaseValue":1e309'),
      /^licenses\.list: License\.purchaseValue of item "LIC\d+" .*: cannot read Infinity as a money amount/,
    ],
    [
      "a quantity of 9007199254740993",
      licenses,
      (t) => t.replace(/"quantity":"\d+"/, '"quantity":"9007199254740993"'),
      /^licenses\.list: License\.quantity of item "LIC\d+" .*"9007199254740993"/,
    ],
  ];
  for (const [what, path, edit, message] of cases) {
    it(`license-cost-summary with ${what}: fails naming operation, item and field, writes nothing`, async () => {
      proxy.inject({ kind: "editBody", path, times: Infinity, edit });
      try {
        const error = await failedRun(licenseCostSummary);
        assert.ok(proxy.fired > 0);
        assert.ok(error instanceof NormalisationError, String(error));
        assert.match(error.message, message);
      } finally {
        proxy.inject(undefined);
      }
    });
  }

  it('hardware-socket-map with a core count of "1e309": fails naming the computer, writes nothing', async () => {
    proxy.inject({
      kind: "editBody",
      path: /\/computers\/[^/]+\/hardware$/,
      times: Infinity,
      edit: (t) => t.replace(/"coreCount":\d+/, '"coreCount":"1e309"'),
    });
    try {
      const error = await failedRun(hardwareSocketMap);
      assert.ok(error instanceof NormalisationError, String(error));
      assert.match(
        error.message,
        /^estate\.hardware: Hardware\.coreCount of item computerId "C\d+": cannot read "1e309"/,
      );
    } finally {
      proxy.inject(undefined);
    }
  });
});

describe("numbers read from the user's files and parameters", () => {
  for (const price of ["1e309", "9007199254740993", "1e13", "Infinity"]) {
    it(`refuses a price file with a unit price of ${price}, naming the file and the line`, () => {
      const csv = "application,metric,currency,unitPrice\nVisio,Installations,EUR,240\n" +
        `Project,Installations,EUR,${price}\n`;
      assert.throws(() => parsePriceFile(csv, "csv", "prices.csv"), (e: unknown) => {
        assert.ok(e instanceof PriceFileError);
        assert.match(
          e.message,
          /^prices\.csv, line 3: unitPrice .* is not a positive money amount/,
        );
        return true;
      });
    });
  }

  it("refuses a JSON price file with a bare 1e309, naming the item", () => {
    const json =
      '[{"application":"Visio","metric":"Installations","currency":"EUR","unitPrice":1e309}]';
    assert.throws(() => parsePriceFile(json, "json", "prices.json"), {
      name: "PriceFileError",
      message: /^prices\.json, item 1: unitPrice/,
    });
  });

  it("refuses a numeric parameter beyond a double", () => {
    assert.throws(() => resolveParams(licenseCostSummary, { top: "1e309" }), {
      name: "ParamError",
      message: /parameter "top": expected a finite number/,
    });
  });
});
