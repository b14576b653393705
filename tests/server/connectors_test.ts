import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { testConfiguration } from "../../lib/server/connectors.ts";
import { api, getToken, withServer } from "../helpers/server.ts";

const BASE = "/api/cloud-cost/v1/connectors";
const ACCESS = "AKIA-test-access-value";
const SECRET = "s3cret-test-secret-value";

const details = (over: Record<string, unknown> = {}) => ({
  bucketName: "cur-bucket",
  reportPrefix: "daily",
  reportName: "cost-report",
  region: "region-1",
  accessKey: ACCESS,
  secretKey: SECRET,
  ...over,
});

describe("connector operations", () => {
  it("adds a connector (201) showing a provider name and never the secrets", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const res = await api(srv, BASE, {
        token,
        method: "POST",
        body: { type: "ProviderAStore", connectionDetails: details() },
      });
      assert.equal(res.status, 201);
      assert.deepEqual(Object.keys(res.body).sort(), ["createdAt", "id", "name", "status", "type"]);
      assert.equal(res.body.type, "Provider A Object Store");
      assert.equal(res.body.name, "cost-report");
      assert.equal(res.body.status.type, "inProgress");
      assert.equal(res.body.status.errorCode, null);
      assert.match(res.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      const raw = JSON.stringify(res.body);
      assert.ok(!raw.includes(ACCESS) && !raw.includes(SECRET));

      const list = await api(srv, BASE, { token });
      assert.equal(list.status, 200);
      const mine = list.body.items.find((c: { id: string }) => c.id === res.body.id);
      assert.deepEqual(mine, res.body);
      assert.ok(!JSON.stringify(list.body).includes(SECRET));

      const retrievals = await api(srv, `${BASE}/${res.body.id}/retrievals`, { token });
      assert.equal(retrievals.status, 200);
      assert.deepEqual(retrievals.body.pagination, { page_number: 1, page_size: 100 });
      assert.equal(retrievals.body.items.length, 1);
      assert.match(retrievals.body.items[0].calendarMonth, /^\d{4}-\d\d-01$/);
      assert.equal(retrievals.body.items[0].contextId, res.body.status.contextId);
    });
  });

  it("refuses a bad type or missing details with 400 naming them", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const post = (body: unknown) => api(srv, BASE, { token, method: "POST", body });
      const badType = await post({ type: "ProviderC", connectionDetails: details() });
      assert.equal(badType.status, 400);
      assert.match(badType.body.error.message, /ProviderAStore, ProviderBBlob/);
      const noType = await post({ connectionDetails: details() });
      assert.match(noType.body.error.message, /type is required/);
      const missing = await post({
        type: "ProviderAStore",
        connectionDetails: details({ region: undefined, secretKey: "" }),
      });
      assert.equal(missing.status, 400);
      assert.match(missing.body.error.message, /connectionDetails\.region/);
      assert.match(missing.body.error.message, /connectionDetails\.secretKey/);
      assert.ok(!missing.body.error.message.includes(ACCESS));
      const noDetails = await post({ type: "ProviderBBlob" });
      assert.match(noDetails.body.error.message, /connectionDetails is required/);
      const notJson = await api(srv, BASE, { token, method: "POST", body: "{nope" });
      assert.equal(notJson.status, 400);
      const blob = await post({
        type: "ProviderBBlob",
        connectionDetails: { bucketName: "c", reportName: "r", accessKey: "a", secretKey: "s" },
      });
      assert.equal(blob.status, 201);
      assert.equal(blob.body.type, "Provider B Blob Storage");
    });
  });

  it("409 when the report name is taken for the type; free for the other type", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const post = (type: string) =>
        api(srv, BASE, { token, method: "POST", body: { type, connectionDetails: details() } });
      assert.equal((await post("ProviderAStore")).status, 201);
      const again = await post("ProviderAStore");
      assert.equal(again.status, 409);
      assert.match(again.body.error.message, /cost-report/);
      assert.equal((await post("ProviderBBlob")).status, 201);
      const validate = (type: string, name: string) =>
        api(srv, `${BASE}/validate-report-name`, { token, method: "POST", body: { type, name } });
      assert.deepEqual((await validate("ProviderAStore", "cost-report")).body, { unique: false });
      assert.deepEqual((await validate("ProviderAStore", "other")).body, { unique: true });
      const bad = await validate("Nope", "x");
      assert.equal(bad.status, 400);
      const noName = await api(srv, `${BASE}/validate-report-name`, {
        token,
        method: "POST",
        body: { type: "ProviderAStore" },
      });
      assert.match(noName.body.error.message, /name is required/);
    });
  });

  it("tests a configuration with the same body as add and reports a status code", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const run = (over: Record<string, unknown>) =>
        api(srv, `${BASE}/test`, {
          token,
          method: "POST",
          body: { type: "ProviderAStore", connectionDetails: details(over) },
        });
      const before = srv.store.count("connectors");
      assert.deepEqual((await run({})).body.status.code, "ok");
      assert.deepEqual(
        (await run({ bucketName: "empty-bucket" })).body.status.code,
        "bucketIsEmpty",
      );
      const refused = await run({ accessKey: "invalid-key" });
      assert.equal(refused.status, 200);
      assert.equal(refused.body.status.code, "invalidCredentials");
      assert.equal(typeof refused.body.status.message, "string");
      assert.equal((await run({ bucketName: undefined })).status, 400);
      assert.equal(srv.store.count("connectors"), before, "testing creates nothing");
      assert.equal(testConfiguration(details({ bucketName: "missing-x" })).code, "bucketNotFound");
    });
  });

  it("updates credentials by merge patch (200), 415 for other media types, 404 unknown", async () => {
    await withServer({ computers: 5 }, async (srv) => {
      const token = await getToken(srv);
      const created = await api(srv, BASE, {
        token,
        method: "POST",
        body: { type: "ProviderAStore", connectionDetails: details({ accessKey: "invalid-old" }) },
      });
      assert.equal(created.body.status.errorCode, "Account-Connection-Error");
      const id = created.body.id;
      const patch = (body: unknown, type = "application/merge-patch+json", target = id) =>
        api(srv, `${BASE}/${target}`, {
          token,
          method: "PATCH",
          body,
          headers: { "content-type": type },
        });
      const wrongType = await patch({ credentials: { accessKey: "new" } }, "application/json");
      assert.equal(wrongType.status, 415);
      const ok = await patch({ credentials: { accessKey: "new-access", secretKey: "new-secret" } });
      assert.equal(ok.status, 200);
      assert.equal(ok.body.id, id);
      assert.equal(ok.body.status.errorCode, null);
      assert.ok(!JSON.stringify(ok.body).includes("new-secret"));
      assert.equal(srv.store.first("CloudConnector", { id })?.secretKey, "new-secret");
      const half = await patch({ credentials: { secretKey: "only-secret" } });
      assert.equal(half.status, 200);
      assert.equal(srv.store.first("CloudConnector", { id })?.accessKey, "new-access");
      assert.equal(
        (await patch({ credentials: { accessKey: "x" } }, undefined, "nope")).status,
        404,
      );
      assert.equal((await patch({})).status, 400);
      assert.equal((await patch({ credentials: { accessKey: null } })).status, 400);
      assert.equal((await patch({ credentials: {} })).status, 400);
    });
  });
});
