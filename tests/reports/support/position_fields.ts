/**
 * Test support: the license-position report's `positions` columns, samkit's field → the label
 * the report shows, as the tests that recount the section compare them.
 *
 * @module
 */

/** The figures of a position row and their column labels, in the report's order. */
export const POSITION_FIELDS: Readonly<Record<string, string>> = {
  purchased: "Purchased",
  received: "Received",
  given: "Given",
  entitlements: "Entitlements",
  requirement: "Requirement",
  position: "Position",
  compliance: "Entitled ÷ required",
  shortfall: "Shortfall",
  uncovered: "Uncovered installs",
  priceSource: "Priced at",
  unitPrice: "Unit price",
  shortfallCost: "Shortfall cost (unit price × shortfall)",
  surplusValue: "Surplus value (unit price × surplus)",
  currency: "Currency",
};
