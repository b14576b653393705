import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { expandPath, OPERATIONS, TOKEN_PATH } from "../../lib/api/operations.ts";
import { api, getToken, sampleParams, withServer } from "../helpers/server.ts";

const COMPUTERS = "/api/sam/estate/v1/computers";

/** The headers a HEAD must repeat from its GET. */
const SAME_HEADERS = ["content-type", "content-length", "allow", "www-authenticate"];

describe("HEAD", () => {
  it("answers every GET operation with GET's status and headers, and no body", async () => {
    await withServer({ computers: 20 }, async (srv) => {
      const token = await getToken(srv);
      let compared = 0;
      for (const op of OPERATIONS.filter((o) => o.method === "GET")) {
        const params = op.path.includes("{") ? sampleParams(srv, op) : {};
        if (!params) continue;
        const path = expandPath(op, params);
        const get = await api(srv, path, { token });
        const head = await api(srv, path, { token, method: "HEAD" });
        assert.equal(head.status, get.status, `${op.id}: status`);
        for (const name of SAME_HEADERS) {
          assert.equal(head.headers.get(name), get.headers.get(name), `${op.id}: ${name}`);
        }
        assert.equal(head.body, null, `${op.id}: body`);
        compared++;
      }
      assert.ok(compared > 40, `only ${compared} operations compared`);
    });
  });

  it("answers errors as GET does: 401 without a token, 404 for a missing computer", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const anonymous = await api(srv, COMPUTERS, { method: "HEAD" });
      assert.equal(anonymous.status, 401);
      assert.ok(anonymous.headers.get("www-authenticate"));
      const missing = await api(srv, `${COMPUTERS}/no-such-computer`, { token, method: "HEAD" });
      assert.equal(missing.status, 404);
      const bad = await api(srv, `${COMPUTERS}?page_size=0`, { token, method: "HEAD" });
      assert.equal(bad.status, 400);
    });
  });

  it("is listed in Allow wherever GET is, and refused where GET is not", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const del = await api(srv, COMPUTERS, { token, method: "DELETE" });
      assert.equal(del.status, 405);
      assert.equal(del.headers.get("allow"), "GET, HEAD");
      const tokenHead = await api(srv, TOKEN_PATH, { method: "HEAD" });
      assert.equal(tokenHead.status, 405);
      assert.equal(tokenHead.headers.get("allow"), "POST");
      const validate = await api(srv, "/api/cloud-cost/v1/connectors/validate-report-name", {
        token,
        method: "HEAD",
      });
      assert.equal(validate.status, 405);
      assert.equal(validate.headers.get("allow"), "POST");
    });
  });
});
