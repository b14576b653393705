/**
 * One loader for every report: each built-in id loads through the module of its folder and is
 * the very definition the index lists; a path to the same module gives the same definition; a
 * user's module is picked, checked and refused the same way, with the file and line to fix; the
 * sections a definition declares before reading are checked with no request.
 */

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { API_REPORTS, REPORTS } from "../../reports/mod.ts";
import { staleComputers } from "../../reports/stale_computers.ts";
import {
  isReportPath,
  loadReport,
  ReportModuleError,
  reportModuleOf,
} from "../../lib/report/load_report.ts";
import { BUILT_IN_IDS } from "../../lib/report/built_in.ts";
import { checkDeclaredSections } from "../../lib/report/declared_sections.ts";
import { UnknownReportError } from "../../lib/report/errors.ts";
import {
  defineReport,
  type ReportDefinition,
  ReportDefinitionError,
} from "../../lib/report/model.ts";

const MODEL = new URL("../../lib/report/model.ts", import.meta.url).href;

describe("loadReport", () => {
  let dir: string;
  const write = (name: string, text: string) => Deno.writeTextFile(join(dir, name), text);
  const load = (name: string) => loadReport(`./${name}`, { base: dir, roots: [dir] });

  before(async () => {
    dir = await Deno.makeTempDir({ prefix: "load-report-" });
  });
  after(async () => {
    await Deno.remove(dir, { recursive: true });
  });

  it("loads every built-in id from its module: the definition the index lists", async () => {
    for (const definition of REPORTS) {
      const loaded = await loadReport(definition.id);
      assert.equal(loaded, definition, definition.id);
      assert.equal(reportModuleOf(loaded)?.builtIn, true);
    }
  });

  it("knows the built-in ids without loading them: the index's ids, in its order", async () => {
    // A command running one report loads that report's module alone (lib/report/built_in.ts).
    assert.deepEqual(BUILT_IN_IDS, REPORTS.map((r) => r.id));
    const error = await loadReport("no-such-report").catch((e) => e);
    assert.ok(error instanceof UnknownReportError);
    for (const id of BUILT_IN_IDS) assert.ok(error.message.includes(id), id);
  });

  it("a path to a built-in's module is the same definition as its id", async () => {
    const byPath = await loadReport("./reports/stale_computers.ts", {
      base: new URL("../../", import.meta.url).pathname,
    });
    assert.equal(byPath, staleComputers);
  });

  it("an unknown id lists the known ones; ids and paths are told apart", async () => {
    await assert.rejects(loadReport("no-such-report"), UnknownReportError);
    assert.equal(isReportPath("stale-computers"), false);
    assert.equal(isReportPath("./mine.ts"), true);
    assert.equal(isReportPath("mine.ts"), true);
    assert.equal(isReportPath("reports/mine"), true);
  });

  it("a definition written for a client slice is a ReportDefinition without a cast", () => {
    // Type-checked: `data` is a method, so the slice-typed definition is assignable.
    const catalogue: readonly ReportDefinition[] = [staleComputers, ...API_REPORTS];
    assert.ok(catalogue.length > 1);
  });

  it("picks the default export, else the one exported definition", async () => {
    await write(
      "named.ts",
      `import { defineReport } from "${MODEL}";\n` +
        `export const mine = defineReport({ id: "mine", title: "Mine", description: "M", ` +
        `params: {}, data: () => ({ sections: [] }) });\nexport const other = 1;\n`,
    );
    assert.equal((await load("named.ts")).id, "mine");
  });

  it("two definitions and no default: names both", async () => {
    const def = (id: string) =>
      `export const ${id} = defineReport({ id: "${id}", title: "T", description: "D", ` +
      `params: {}, data: () => ({ sections: [] }) });\n`;
    await write("two.ts", `import { defineReport } from "${MODEL}";\n${def("a")}${def("b")}`);
    const e = await load("two.ts").catch((e) => e);
    assert.ok(e instanceof ReportModuleError);
    assert.match(e.message, /^\.\/two\.ts:2: exports 2 report definitions \(a, b\)/);
  });

  it("a plain object is checked like defineReport: a bad parameter type names its line", async () => {
    await write(
      "plain.ts",
      'export default {\n  id: "plain",\n  title: "P",\n  description: "P",\n' +
        '  params: { days: { type: "integr", description: "Days" } },\n' +
        "  data: () => ({ sections: [] }),\n};\n",
    );
    const e = await load("plain.ts").catch((e) => e);
    assert.ok(e instanceof ReportModuleError, String(e));
    assert.match(e.message, /^\.\/plain\.ts:5: plain: parameter "days": unknown type "integr"/);
  });

  it("a throw while loading names the line it came from", async () => {
    await write("throws.ts", "const x = 1;\nthrow new RangeError(`bad ${x}`);\n");
    const e = await load("throws.ts").catch((e) => e);
    assert.ok(e instanceof ReportModuleError);
    assert.match(e.message, /^\.\/throws\.ts:2: does not load: RangeError: bad 1$/);
  });

  it("a path outside the roots, a URL or another file type is refused before import", async () => {
    const outside = await Deno.makeTempFile({ suffix: ".ts" });
    try {
      await assert.rejects(
        loadReport(outside, { roots: [dir] }),
        /is outside the folders report modules may come from/,
      );
    } finally {
      await Deno.remove(outside);
    }
    const opts = { base: dir, roots: [dir] };
    await assert.rejects(loadReport("https://example.com/r.ts", opts), /is a URL/);
    await assert.rejects(loadReport("./r.json", opts), /is not a module file/);
    await assert.rejects(load("missing.ts"), /missing\.ts: no such file/);
  });
});

describe("checkDeclaredSections", () => {
  const columnTyped = (type: string) => ({ key: "os", label: "OS", type: type as "text" });

  it("checks sections returned before any read, and reads no row", async () => {
    let rowsRead = false;
    const lazy = defineReport({
      id: "lazy",
      title: "Lazy",
      description: "Rows read when iterated.",
      params: {},
      data: () => ({
        sections: [{
          id: "a",
          title: "A",
          columns: [columnTyped("count")],
          rows: (async function* () {
            rowsRead = true;
            yield { os: "x" };
          })(),
        }],
      }),
    });
    await assert.rejects(
      checkDeclaredSections(lazy, { params: {} }),
      (e) => e instanceof ReportDefinitionError && e.literal === "count",
    );
    assert.equal(rowsRead, false);
  });

  it("a data function that reads first is left to the runner, with no request made", async () => {
    let called = 0;
    const eager = defineReport<{ estate: { computers: () => unknown } }>({
      id: "eager",
      title: "Eager",
      description: "Reads, then declares.",
      params: {},
      data: async ({ client }) => {
        called++;
        await Promise.resolve(client.estate.computers());
        return { sections: [{ id: "a", title: "A", columns: [columnTyped("count")], rows: [] }] };
      },
    });
    await checkDeclaredSections(eager, { params: {} }); // no throw: nothing was declared
    assert.equal(called, 1);
  });
});
