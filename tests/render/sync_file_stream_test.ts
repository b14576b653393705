/**
 * The synchronous file stream the XLSX renderer writes its zip through.
 *
 * @module
 */

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { SyncFileStream } from "../../lib/render/sync_file_stream.ts";

describe("SyncFileStream", () => {
  it("writes each chunk at once and closes the file on end", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/out.bin`;
      await Deno.writeTextFile(path, "old content that is longer");
      const stream = new SyncFileStream(path);
      stream.write(new TextEncoder().encode("héllo "));
      // Written before any event-loop turn: nothing queues behind the writer.
      assert.equal(Deno.readTextFileSync(path), "héllo ");
      stream.write(new Uint8Array(100_000).fill(120));
      await new Promise<void>((resolve, reject) => {
        stream.on("error", reject);
        stream.end(resolve);
      });
      const text = await Deno.readTextFile(path);
      assert.equal(text, "héllo " + "x".repeat(100_000));
      assert.equal(stream.failure, undefined);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("closes the file when destroyed and throws at once for a missing folder", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const stream = new SyncFileStream(`${dir}/out.bin`);
      stream.write(new Uint8Array([1, 2, 3]));
      await new Promise<void>((resolve) => {
        stream.once("close", () => resolve());
        stream.destroy();
      });
      assert.deepEqual([...await Deno.readFile(`${dir}/out.bin`)], [1, 2, 3]);
      assert.throws(() => new SyncFileStream(`${dir}/missing/out.bin`), Deno.errors.NotFound);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
