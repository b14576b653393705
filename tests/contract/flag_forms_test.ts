/**
 * Flag enums in every form the public service may send them — a bitmask, an array of the
 * vendor's names, comma-separated names — give the same normalised items and the same reports.
 */

import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { API_REPORTS } from "../../reports/mod.ts";
import { createClient } from "../../lib/api/client.ts";
import { closeTestBrowser, runReportForTest } from "../helpers/run_report.ts";
import { FIXTURE_NOW } from "./fixtures/tenant.ts";
import { type FlagForm, startMockService } from "./mock_service.ts";
import { SAM_REPORTS } from "./reports_contract_suite.ts";

const FORMS: readonly FlagForm[] = ["number", "names", "text"];

/** Runs `body` against a real-dialect mock sending flags in `form`. */
async function withMock<T>(
  form: FlagForm,
  body: (m: Awaited<ReturnType<typeof startMockService>>) => Promise<T>,
): Promise<T> {
  const mock = await startMockService({ dialect: "real", flagForm: form });
  try {
    return await body(mock);
  } finally {
    await mock.close();
  }
}

/** Every flag field the client reads through the reports' operations, by form. */
async function flagReads(form: FlagForm) {
  return await withMock(form, async (mock) => {
    const client = createClient({
      baseUrl: mock.url,
      clientId: mock.clientId,
      clientSecret: mock.clientSecret,
      env: () => undefined,
    });
    const licenses = [];
    for await (const l of client.licenses.list()) licenses.push(l.incompleteReasons);
    return { licenses };
  });
}

describe("flag enums in every form", () => {
  after(closeTestBrowser);

  it("sends each form on the wire and reads each as the same list of names", async () => {
    const wire = await withMock("names", async (mock) => {
      const res = await fetch(`${mock.url}/idp/api/connect/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body:
          `grant_type=client_credentials&client_id=${mock.clientId}&client_secret=${mock.clientSecret}`,
      });
      const { access_token } = await res.json();
      const list = await fetch(`${mock.url}/api/sam/v1/licenses`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      return (await list.json()).items[0].incompleteReasons;
    });
    assert.ok(Array.isArray(wire), `names form sent ${JSON.stringify(wire)}`);
    const reads = await Promise.all(FORMS.map(flagReads));
    for (const r of reads) {
      assert.ok(r.licenses.length > 0);
      for (const names of r.licenses) assert.ok(Array.isArray(names), JSON.stringify(names));
      assert.deepEqual(r.licenses, reads[0].licenses);
    }
  });

  for (const id of SAM_REPORTS) {
    it(`${id}: the same JSON from bitmasks, arrays of names and comma-separated names`, async () => {
      const report = API_REPORTS.find((r) => r.id === id)!;
      const outputs = [];
      for (const form of FORMS) {
        const json = await withMock(form, async (mock) =>
          (await runReportForTest({
            server: { url: mock.url, clientId: mock.clientId, clientSecret: mock.clientSecret },
            report,
            now: FIXTURE_NOW,
          })).json);
        const { source: _source, ...rest } = json;
        outputs.push(rest);
      }
      assert.deepEqual(outputs[1], outputs[0], `${id}: names differ from bitmasks`);
      assert.deepEqual(outputs[2], outputs[0], `${id}: comma-separated names differ from bitmasks`);
    });
  }
});
