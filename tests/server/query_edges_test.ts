import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { api, errorMessage, getToken, withServer } from "../helpers/server.ts";
import { strictSearchParams } from "../../lib/server/router.ts";

const COMPUTERS = "/api/sam/estate/v1/computers";
const CONNECTORS = "/api/cloud-cost/v1/connectors";

describe("strict query decoding", () => {
  it("400 naming the parameter for bytes that are not UTF-8, where URLSearchParams gives U+FFFD", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const cases: [string, RegExp][] = [
        ["filter=%FF%FE", /^The filter query parameter is not valid UTF-8/],
        ["filter=%E0%A4%A", /^The filter query parameter has a malformed percent escape/],
        ["filter=%ZZ", /^The filter query parameter has a malformed percent escape .*"%ZZ"/],
        ["page_size=%FF", /^The page_size query parameter is not valid UTF-8/],
        ["page_number=1%", /^The page_number query parameter has a malformed percent escape/],
        ["sort=%C3%28", /^The sort query parameter is not valid UTF-8/],
        ["%FF=1", /^A query parameter name \("%FF"\) is not valid UTF-8/],
      ];
      for (const [query, message] of cases) {
        assert.equal(new URL(`http://x/?${query}`).searchParams.size, 1, query);
        const res = await api(srv, `${COMPUTERS}?${query}`, { token });
        assert.match(errorMessage(res, 400), message, query);
      }
    });
  });

  it("decodes well-formed UTF-8 and + as a space, so such filters still answer 200", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const filter = encodeURIComponent(`hostName -eq "café ✓"`).replaceAll("%20", "+");
      const res = await api(srv, `${COMPUTERS}?filter=${filter}`, { token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.items, []);
      const params = strictSearchParams(new URL(`http://x/?filter=${filter}&flag&=x`));
      assert.deepEqual([...params], [["filter", `hostName -eq "café ✓"`], ["flag", ""], ["", "x"]]);
    });
  });

  it("400 for a paging, filter or sort parameter given twice, with the count", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      for (const name of ["page_size", "page_number", "filter", "sort"]) {
        const value = name === "filter" ? "status+-eq+Active" : name === "sort" ? "id:asc" : "1";
        const res = await api(srv, `${COMPUTERS}?${name}=${value}&${name}=${value}`, { token });
        assert.equal(errorMessage(res, 400), `${name} is given 2 times; give it once.`);
      }
    });
  });
});

describe("paging limits (spec 4.1 and 8)", () => {
  it("refuses a page_size over 1000 instead of clamping it, so a client never stops early", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(srv, `${COMPUTERS}?page_size=1001`, { token });
      assert.equal(errorMessage(res, 400), "page_size must be between 1 and 1000; got 1001.");
      const licenses = await api(srv, "/api/sam/v1/licenses?page_size=5000", { token });
      errorMessage(licenses, 400);
    });
  });

  it("lets connector collections page above 1000 but not below 1", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const big = await api(srv, `${CONNECTORS}?page_size=5000`, { token });
      assert.equal(big.status, 200);
      assert.equal(big.body.pagination.page_size, 5000);
      const zero = await api(srv, `${CONNECTORS}?page_size=0`, { token });
      assert.match(errorMessage(zero, 400), /^page_size must be at least 1; got 0/);
    });
  });

  it("400 naming the parameter for values that are not integers or out of range", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const cases: [string, string][] = [
        ["page_size=", 'page_size must be an integer, not "".'],
        ["page_size=1e2", 'page_size must be an integer, not "1e2".'],
        ["page_size=0x10", 'page_size must be an integer, not "0x10".'],
        ["page_number=-1", "page_number must be at least 1; got -1."],
        [
          "page_number=9007199254740992",
          "page_number must be between 1 and 9007199254740991; got 9007199254740992.",
        ],
      ];
      for (const [query, message] of cases) {
        const res = await api(srv, `${COMPUTERS}?${query}`, { token });
        assert.equal(errorMessage(res, 400), message, query);
      }
      const last = await api(srv, `${COMPUTERS}?page_number=9007199254740991`, { token });
      assert.equal(last.status, 200);
      assert.deepEqual(last.body.items, []);
    });
  });
});
