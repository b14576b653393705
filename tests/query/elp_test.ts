import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { computeElp, type ElpTransfer, transferKind } from "../../lib/query/elp/position.ts";
import {
  choosePrice,
  mainPaidLine,
  paidPrices,
  priceKey,
  type PriceSources,
  valueAt,
} from "../../lib/query/elp/pricing.ts";
import { matchPriceFile, parsePriceFile, PriceFileError } from "../../lib/query/elp/price_file.ts";
import { reconcile, stateGroup } from "../../lib/query/elp/reconcile.ts";
import { crossCheck } from "../../lib/query/elp/cross_check.ts";
import { organizationSubtree, scopeElpInputs } from "../../lib/query/elp/org_scope.ts";
import { restsOnHardware, understatedBy } from "../../lib/query/elp/understated.ts";

const NONE: PriceSources = { paid: new Map(), list: new Map(), file: new Map() };

describe("computeElp", () => {
  it("adds purchased and received, takes away given, and compares with the requirement", () => {
    const [next, old] = computeElp({
      licenses: [
        { applicationId: "NEW", metricId: "M", quantity: 10 },
        { applicationId: "OLD", metricId: "M", quantity: 1 },
      ],
      transfers: [
        {
          fromApplicationId: "NEW",
          toApplicationId: "OLD",
          metricId: "M",
          quantity: 3,
          isDowngrade: true,
        },
      ],
      requirements: [
        { applicationId: "OLD", metricId: "M", requirement: 4 },
        { applicationId: "NEW", metricId: "M", requirement: 5 },
        { applicationId: "NEW", metricId: "M", requirement: 4 },
        { applicationId: "NEW", metricId: "M", requirement: 0 },
      ],
    });
    assert.deepEqual([next.applicationId, old.applicationId], ["NEW", "OLD"]);
    assert.deepEqual(
      [old.purchased, old.receivedTotal, old.received.downgrade, old.given, old.entitlements],
      [1, 3, 3, 0, 4],
    );
    assert.deepEqual([old.position, old.shortfall, old.surplus, old.compliance], [0, 0, 0, 1]);
    assert.deepEqual([next.entitlements, next.requirement, next.requiringRows], [7, 9, 2]);
    assert.deepEqual([next.position, next.shortfall, next.surplus], [-2, 2, 0]);
    assert.equal(next.compliance, 7 / 9);
  });

  it("never adds units of different metrics and has no compliance without a requirement", () => {
    const lines = computeElp({
      licenses: [
        { applicationId: "A", metricId: "CORES", quantity: 16 },
        { applicationId: "A", metricId: "USERS", quantity: 5 },
      ],
      transfers: [],
      requirements: [{ applicationId: "A", metricId: "USERS", requirement: 7 }],
    });
    assert.deepEqual(
      lines.map((l) => [l.metricId, l.entitlements, l.requirement, l.position, l.compliance]),
      [["CORES", 16, 0, 16, null], ["USERS", 5, 7, -2, 5 / 7]],
    );
  });

  it("ignores rows without an application or metric and missing quantities", () => {
    const lines = computeElp({
      licenses: [
        { applicationId: null, metricId: "M", quantity: 5 },
        { applicationId: "A", metricId: "M", quantity: null },
      ],
      transfers: [{ fromApplicationId: "A", toApplicationId: null, metricId: null, quantity: 2 }],
      requirements: [{ applicationId: "A", metricId: null, requirement: 3 }],
    });
    assert.deepEqual(lines.map((l) => [l.applicationId, l.purchased, l.given]), [["A", 0, 0]]);
  });

  it("removes float noise from fractional requirements", () => {
    const [line] = computeElp({
      licenses: [],
      transfers: [],
      requirements: [0.1, 0.2].map((requirement) => ({
        applicationId: "A",
        metricId: "M",
        requirement,
      })),
    });
    assert.equal(line.requirement, 0.3);
    assert.equal(line.shortfall, 0.3);
  });
});

describe("transferKind", () => {
  it("takes the first flag that holds: downgrade, upgrade, cross-edition, cross-platform", () => {
    assert.equal(transferKind({ isDowngrade: true, isUpgrade: true }), "downgrade");
    assert.equal(transferKind({ isUpgrade: true, isCrossEdition: true }), "upgrade");
    assert.equal(transferKind({ isCrossEdition: true, isCrossPlatform: true }), "crossEdition");
    assert.equal(transferKind({ isCrossPlatform: true }), "crossPlatform");
    assert.equal(transferKind({ isDowngrade: false, isUpgrade: null }), "other");
  });
});

describe("ELP properties", () => {
  const app = fc.constantFrom("A", "B", "C", "D");
  const metric = fc.constantFrom("M1", "M2");
  const qty = fc.integer({ min: 0, max: 500 });
  const flags = {
    isDowngrade: fc.boolean(),
    isUpgrade: fc.boolean(),
    isCrossEdition: fc.boolean(),
    isCrossPlatform: fc.boolean(),
  };
  const inputs = fc.record({
    licenses: fc.array(fc.record({ applicationId: app, metricId: metric, quantity: qty })),
    transfers: fc.array(
      fc.record({
        fromApplicationId: app,
        toApplicationId: app,
        metricId: metric,
        quantity: qty,
        ...flags,
      }),
    ),
    requirements: fc.array(
      fc.record({
        applicationId: app,
        metricId: metric,
        requirement: fc.integer({ max: 64, min: 0 }),
      }),
    ),
  });

  it("entitlements = purchased + received − given; position, shortfall and surplus follow", () => {
    fc.assert(fc.property(inputs, (input) => {
      for (const l of computeElp(input)) {
        assert.equal(l.entitlements, l.purchased + l.receivedTotal - l.given);
        assert.equal(
          l.receivedTotal,
          Object.values(l.received).reduce((a, b) => a + b, 0),
        );
        assert.equal(l.position, l.entitlements - l.requirement);
        assert.ok(l.shortfall - l.surplus + l.position === 0);
        assert.ok(l.shortfall === 0 || l.surplus === 0);
      }
    }));
  });

  it("Σ received = Σ given over all applications when every transfer has both ends", () => {
    fc.assert(fc.property(inputs, (input) => {
      const lines = computeElp(input);
      const received = lines.reduce((n, l) => n + l.receivedTotal, 0);
      const given = lines.reduce((n, l) => n + l.given, 0);
      assert.equal(received, given);
      const purchased = lines.reduce((n, l) => n + l.purchased, 0);
      assert.equal(lines.reduce((n, l) => n + l.entitlements, 0), purchased);
    }));
  });

  it("received per kind matches the transfers' first flag", () => {
    fc.assert(fc.property(inputs, (input) => {
      const byKind = new Map<string, number>();
      for (const t of input.transfers as ElpTransfer[]) {
        const k = `${t.toApplicationId}|${t.metricId}|${transferKind(t)}`;
        byKind.set(k, (byKind.get(k) ?? 0) + (t.quantity ?? 0));
      }
      for (const l of computeElp(input)) {
        for (const [kind, n] of Object.entries(l.received)) {
          assert.equal(n, byKind.get(`${l.applicationId}|${l.metricId}|${kind}`) ?? 0);
        }
      }
    }));
  });
});

describe("pricing", () => {
  const license = (currency: string, quantity: number, purchaseValue: number | null) => ({
    applicationId: "A",
    metricId: "M",
    quantity,
    purchaseValue,
    purchaseCurrency: currency,
  });

  it("paidPrices sums units and cents per currency of licenses with a price and units", () => {
    const paid = paidPrices([
      license("EUR", 10, 1000),
      license("EUR", 3, null),
      license("USD", 0, 50),
      license("GBP", 5, 333.33),
      license("EUR", 2, 0.1),
    ]);
    const lines = paid.get(priceKey("A", "M"))!;
    assert.deepEqual([...lines.keys()].sort(), ["EUR", "GBP"]);
    assert.deepEqual(lines.get("EUR"), { currency: "EUR", licenses: 2, units: 12, cents: 100010 });
    assert.deepEqual(lines.get("GBP"), { currency: "GBP", licenses: 1, units: 5, cents: 33333 });
  });

  it("takes the average paid in the currency of most units, ties by code", () => {
    const paid = paidPrices([
      license("USD", 10, 1500),
      license("EUR", 10, 1000),
      license("GBP", 5, 1),
    ]);
    assert.equal(mainPaidLine(paid.get(priceKey("A", "M")))?.currency, "EUR");
    const price = choosePrice("A", "M", { ...NONE, paid })!;
    assert.deepEqual(
      [price.source, price.currency, price.unitCents, price.basisCents, price.basisUnits],
      ["paid", "EUR", 10000, 100000, 10],
    );
    const more = paidPrices([license("USD", 11, 11), license("EUR", 10, 1000)]);
    assert.equal(choosePrice("A", "M", { ...NONE, paid: more })?.currency, "USD");
  });

  it("falls back to the list price, then the price file, else unpriced", () => {
    const key = priceKey("A", "M");
    const list = new Map([[key, { currency: "USD", unitPrice: 67 }]]);
    const file = new Map([[key, { currency: "CHF", unitPrice: 12.5 }]]);
    assert.equal(choosePrice("A", "M", { ...NONE, list, file })?.source, "list");
    assert.deepEqual(
      choosePrice("A", "M", { ...NONE, file }),
      { source: "file", currency: "CHF", unitCents: 1250, basisCents: 1250, basisUnits: 1 },
    );
    const zero = new Map([[key, { currency: "USD", unitPrice: 0 }]]);
    assert.equal(choosePrice("A", "M", { ...NONE, list: zero, file })?.source, "file");
    assert.equal(choosePrice("A", "M", NONE), undefined);
    assert.equal(choosePrice("A", "OTHER", { ...NONE, list, file }), undefined);
  });

  it("values units at the printed unit price (the average rounded to the cent) × units", () => {
    const price = {
      source: "paid",
      currency: "EUR",
      unitCents: 1e4 / 3,
      basisCents: 10_000,
      basisUnits: 3,
    } as const;
    // 3 × €33.33 as printed is €99.99: a cost reproduces from the printed price and units.
    assert.deepEqual([valueAt(3, price), valueAt(1, price), valueAt(2, price)], [
      99.99,
      33.33,
      66.66,
    ]);
    assert.equal(valueAt(0, price), 0);
  });
});

describe("price files", () => {
  const HEADER = "application,metric,currency,unitPrice\n";

  it("parses CSV (header aliases, 1-based lines) and JSON (item numbers)", () => {
    const csv = parsePriceFile(
      "Application,Metric,Currency,Unit Price\nVisio 2021,Installations,eur,240\n\nX,MET02, USD ,1.5\n",
      "csv",
      "p.csv",
    );
    assert.deepEqual(csv.map((e) => [e.line, e.application, e.metric, e.currency, e.unitPrice]), [
      [2, "Visio 2021", "Installations", "EUR", 240],
      [3, "X", "MET02", "USD", 1.5],
    ]);
    const json = parsePriceFile(
      JSON.stringify([{ application: "A", metric: "M", currency: "GBP", unit_price: 3 }]),
      "json",
      "p.json",
    );
    assert.deepEqual(json, [{
      line: 1,
      application: "A",
      metric: "M",
      currency: "GBP",
      unitPrice: 3,
    }]);
  });

  it("names the file, line and field of a bad price", () => {
    const bad = (text: string, format: "csv" | "json", pattern: RegExp) =>
      assert.throws(() => parsePriceFile(text, format, "prices.x"), (e: Error) => {
        assert.ok(e instanceof PriceFileError);
        assert.match(e.message, /^prices\.x/);
        assert.match(e.message, pattern);
        return true;
      });
    bad(`${HEADER}A,M,EUR,1\nB,M,EUR,\n`, "csv", /\b3: unitPrice/);
    bad(`${HEADER}A,M,EURO,1\n`, "csv", /\b2: currency "EURO"/);
    bad(`${HEADER}A,M,EUR,-4\n`, "csv", /\b2: unitPrice "-4"/);
    bad(`${HEADER},M,EUR,4\n`, "csv", /\b2: "application" is missing/);
    bad(`${HEADER}A,M,EUR,1\na,m,USD,2\n`, "csv", /\b3: a second price/);
    bad(`[{"application":"A","metric":"M","currency":"EUR"}]`, "json", /\b1: unitPrice/);
    bad(`{"application":"A"}`, "json", /an array of prices/);
    bad(`[1]`, "json", /item 1: not an object/);
    bad(`[`, "json", /not valid JSON/);
  });

  it("matches applications by id, name or label and metrics by id or name, ignoring case", () => {
    const entries = parsePriceFile(
      `${HEADER}visio 2021,installations,EUR,240\nAPP2,MET02,USD,10\nNobody,Users,USD,1\n`,
      "csv",
      "p.csv",
    );
    const { prices, unmatched } = matchPriceFile(entries, [["APP1", "MET01"], ["APP2", "MET02"]], {
      applications: [["APP1", ["Visio", "Visio 2021"]], ["APP2", ["Project"]]],
      metricName: (_app, metric) => (metric === "MET01" ? "Installations" : undefined),
    });
    assert.deepEqual(prices.get("APP1\u0000MET01"), { currency: "EUR", unitPrice: 240 });
    assert.deepEqual(prices.get("APP2\u0000MET02"), { currency: "USD", unitPrice: 10 });
    assert.deepEqual(unmatched.map((e) => e.line), [4]);
  });
});

describe("reconcile", () => {
  const names = new Map([
    ["ES01", "Licensed"],
    ["ES02", "Unlicensed"],
    ["ES03", "Under-licensed"],
    ["ES04", "Covered by extended coverage"],
    ["ES05", "Excluded"],
    ["ES06", "Licensed <via upgrade & downgrade>"],
  ]);
  const lines = computeElp({
    licenses: [
      { applicationId: "SHORT", metricId: "M", quantity: 1 },
      { applicationId: "SURPLUS", metricId: "M", quantity: 9 },
      { applicationId: "FINE", metricId: "M", quantity: 1 },
    ],
    transfers: [],
    requirements: ["SHORT", "SHORT", "SURPLUS", "FINE"].map((applicationId) => ({
      applicationId,
      metricId: "M",
      requirement: 1,
    })),
  });
  const install = (applicationId: string, entitlementStateId: string) => ({
    applicationId,
    metricId: "M",
    entitlementStateId,
  });

  it("groups states by name", () => {
    assert.deepEqual(
      [...names.values()].map(stateGroup),
      ["covered", "uncovered", "uncovered", "covered", "notRequired", "covered"],
    );
    assert.equal(stateGroup(undefined), "other");
  });

  it("agrees when a shortfall has an uncovered install and a surplus has none", () => {
    const r = reconcile(lines, [
      install("SHORT", "ES01"),
      install("SHORT", "ES03"),
      install("SURPLUS", "ES06"),
      install("FINE", "ES04"),
      install("FINE", "ES05"),
    ], names);
    assert.deepEqual(r.map((x) => x.disagreement), [null, null, null]);
    assert.deepEqual(r.find((x) => x.line.applicationId === "FINE")!.states, {
      covered: 1,
      uncovered: 0,
      notRequired: 1,
      other: 0,
    });
  });

  it("gives the reason of every disagreement", () => {
    const r = reconcile(lines, [install("SHORT", "ES01"), install("SURPLUS", "ES02")], names);
    const reasons = new Map(r.map((x) => [x.line.applicationId, x.disagreement]));
    assert.equal(
      reasons.get("SHORT"),
      "1 unit short, but the service reports no install Unlicensed or Under-licensed",
    );
    assert.equal(
      reasons.get("SURPLUS"),
      "1 install Unlicensed or Under-licensed, but the position is a surplus of 8 units",
    );
    assert.equal(reasons.get("FINE"), null);
    const balanced = reconcile(lines, [install("FINE", "ES02")], names);
    assert.match(balanced.find((x) => x.line.applicationId === "FINE")!.disagreement!, /balanced$/);
  });
});

describe("crossCheck", () => {
  const lines = computeElp({
    licenses: [{ applicationId: "A", metricId: "M", quantity: 5 }],
    transfers: [{ fromApplicationId: "B", toApplicationId: "A", metricId: "M", quantity: 2 }],
    requirements: [{ applicationId: "A", metricId: "M", requirement: 4 }],
  });
  const summary = {
    applicationId: "A",
    metricId: "M",
    licensesPurchased: 5,
    totalCoverage: 7,
    licenseRequirement: 4,
    compliance: 3,
  };

  it("finds no difference when the service's summary equals the ELP", () => {
    assert.deepEqual(crossCheck(lines, [summary]), []);
  });

  it("names every figure that differs, with both values", () => {
    const diff = crossCheck(lines, [{ ...summary, licensesPurchased: 6, compliance: 4 }]);
    assert.deepEqual(diff.map((d) => [d.applicationId, d.figure, d.samkit, d.service]), [
      ["A", "Purchased", 5, 6],
      ["A", "Position", 3, 4],
    ]);
    assert.ok(diff.every((d) => d.explanation.length > 0));
  });

  it("lists pairs only one side has, and skips applications without a summary", () => {
    const diff = crossCheck(lines, [{ ...summary, metricId: "OTHER" }]);
    assert.deepEqual(
      diff.map((d) => [d.metricId, d.figure, d.samkit, d.service]),
      [
        ["M", "Purchased", 5, null],
        ["M", "Entitlements", 7, null],
        ["M", "Requirement", 4, null],
        ["M", "Position", 3, null],
        ["OTHER", "Purchased", null, 5],
        ["OTHER", "Entitlements", null, 7],
        ["OTHER", "Requirement", null, 4],
        ["OTHER", "Position", null, 3],
      ],
    );
    assert.ok(!diff.some((d) => d.applicationId === "B"), "B has no summary: not compared");
  });
});

describe("organisation scope", () => {
  const tree = [
    { id: "HQ", parentId: null },
    { id: "EU", parentId: "HQ" },
    { id: "IT", parentId: "EU" },
    { id: "US", parentId: "HQ" },
  ];
  const license = {
    id: "L1",
    organizationId: "EU",
    applicationId: "DB",
    metricId: "C",
    quantity: 10,
  };
  const allocations = [
    { applicationId: "DB", metricId: "C", organizationId: "EU", quantity: 4 },
    { applicationId: "DB", metricId: "C", organizationId: "US", quantity: 6 },
  ];
  const transfer = (id: string, organizationId: string, quantity: number) => ({
    id,
    licenseId: "L1",
    organizationId,
    fromApplicationId: "DB",
    toApplicationId: "OLD",
    metricId: "C",
    quantity,
    isDowngrade: true,
  });
  const requirements = [
    { computerId: "PC-IT", applicationId: "OLD", metricId: "C", requirement: 5 },
    { computerId: "PC-US", applicationId: "DB", metricId: "C", requirement: 3 },
  ];
  const orgOf = (id: string | null | undefined) => ({ "PC-IT": "IT", "PC-US": "US" })[id ?? ""];
  const elpOf = (org: string, transfers = [transfer("T1", "IT", 5)]) =>
    new Map(
      computeElp(
        scopeElpInputs(
          { licenses: [license], allocations, transfers, requirements },
          organizationSubtree(tree, org)!,
          orgOf as (id: string | null | undefined) => string | undefined,
        ),
      ).map((l) => [l.applicationId, l]),
    );

  it("includes an organisation's descendants and refuses one the tree lacks", () => {
    assert.deepEqual([...organizationSubtree(tree, "EU")!].sort(), ["EU", "IT"]);
    assert.deepEqual([...organizationSubtree(tree, "HQ")!].sort(), ["EU", "HQ", "IT", "US"]);
    assert.equal(organizationSubtree(tree, "XX"), undefined);
    assert.deepEqual([...organizationSubtree([], "XX")!], ["XX"]);
  });

  it("never gives more than an allocation holds: the rest comes from other organisations", () => {
    // 5 units go to IT's computer; EU (the license's organisation) holds 4, US gives the fifth.
    const eu = elpOf("EU"), us = elpOf("US");
    assert.deepEqual([eu.get("DB")!.purchased, eu.get("DB")!.given], [4, 4]);
    assert.equal(eu.get("DB")!.entitlements, 0);
    assert.equal(eu.get("OLD")!.receivedTotal, 5);
    assert.deepEqual([us.get("DB")!.purchased, us.get("DB")!.given], [6, 1]);
    assert.equal(us.get("OLD"), undefined, "US receives nothing");
  });

  it("adds up over disjoint scopes to the estate's figures", () => {
    const whole = new Map(
      computeElp({ licenses: [license], transfers: [transfer("T1", "IT", 5)], requirements })
        .map((l) => [l.applicationId, l]),
    );
    const root = elpOf("HQ");
    for (const app of ["DB", "OLD"]) {
      for (const f of ["purchased", "entitlements", "requirement", "position"] as const) {
        assert.equal(root.get(app)![f], whole.get(app)![f], `${app} ${f}`);
        const parts = (elpOf("EU").get(app)?.[f] ?? 0) + (elpOf("US").get(app)?.[f] ?? 0);
        assert.equal(parts, whole.get(app)![f], `${app} ${f} over EU + US`);
      }
    }
  });
});

describe("understated requirement", () => {
  it("marks rows counted from nothing on a computer without hardware data, per position", () => {
    const row = { applicationId: "DB", metricId: "C", requirement: 16, initialRequirement: 0 };
    const rows = [
      { ...row, computerId: "H1" },
      { ...row, computerId: "H2" },
      { ...row, computerId: "H3", initialRequirement: 32, requirement: 32 },
      { ...row, computerId: "H4", requirement: 0 },
    ];
    assert.deepEqual([...understatedBy(rows, new Set(["H1", "H3", "H4"])).get("DB\u0000C")!], [
      "H1",
    ]);
    assert.equal(
      restsOnHardware({ ...row, computerId: "H5", initialRequirement: 8, unknownPhysicalHost: 1 }),
      true,
    );
  });
});
