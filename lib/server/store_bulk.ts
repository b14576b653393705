/**
 * Batched loading of many rows into the store's SQLite tables: each table's rows are buffered in
 * their storage form and written many rows per `INSERT` statement, one prepared statement per
 * table reused for every batch. A table's rows keep the order they were added in (so their rowids
 * do too); rows of different tables are independent.
 *
 * One statement per row costs a call into SQLite and a statement reset per row; 32 rows per
 * statement make loading about twice as fast.
 *
 * @module
 */

import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import type { FieldType } from "../api/catalogue.ts";
import { storeValue } from "./store_values.ts";

/** One column of a table, as the loader needs it. */
export interface LoadColumn {
  /** The storage column. */
  readonly name: string;
  /** The catalogue type of its values. */
  readonly type: FieldType;
}

/** Options of {@link BulkLoader}. */
export interface BulkLoaderOptions {
  /** Called once per table, before its first row is buffered. */
  readonly onTable?: (table: string) => void;
}

/** Bound parameters per batched statement (rows per batch = this / columns, 1 to 64). */
const PARAMETERS_PER_BATCH = 512;
const MAX_ROWS_PER_BATCH = 64;

/** Quote an SQL identifier. */
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A table being loaded: its columns and the rows buffered since the last write. */
interface TableLoad {
  readonly table: string;
  readonly width: number;
  readonly index: ReadonlyMap<string, number>;
  readonly types: readonly FieldType[];
  /** Rows per full batch. */
  readonly batch: number;
  /** `batch` rows of `width` values, row after row; the first `count` rows are filled. */
  readonly values: SQLInputValue[];
  count: number;
  /** The statement inserting a full batch (prepared on first use). */
  full?: StatementSync;
}

/**
 * Buffers rows per table and writes them in batches. Call {@link BulkLoader.flush} before
 * anything reads the tables, and before the transaction commits.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { BulkLoader } from "./store_bulk.ts";
 * const db = new DatabaseSync(":memory:");
 * db.exec('CREATE TABLE t ("id" TEXT, "n" REAL)');
 * const columns = new Map([["t", [{ name: "id", type: "string" as const }, { name: "n", type: "number" as const }]]]);
 * const loader = new BulkLoader(db, columns);
 * for (let i = 0; i < 100; i++) loader.add("t", { id: `R${i}`, n: i });
 * loader.flush();
 * console.log(db.prepare("SELECT COUNT(*) AS c FROM t").get()); // { c: 100 }
 * ```
 */
export class BulkLoader {
  readonly #db: DatabaseSync;
  readonly #columns: ReadonlyMap<string, readonly LoadColumn[]>;
  readonly #loads = new Map<string, TableLoad>();
  readonly #onTable: ((table: string) => void) | undefined;
  #last: TableLoad | undefined;

  /**
   * @param db The database (the caller holds the transaction).
   * @param columns Every table's columns, in the tables' column order.
   * @param options What to do when a table gets its first row.
   *
   * @example
   * ```ts
   * import { DatabaseSync } from "node:sqlite";
   * import { BulkLoader } from "./store_bulk.ts";
   * new BulkLoader(new DatabaseSync(":memory:"), new Map());
   * ```
   */
  constructor(
    db: DatabaseSync,
    columns: ReadonlyMap<string, readonly LoadColumn[]>,
    options: BulkLoaderOptions = {},
  ) {
    this.#db = db;
    this.#columns = columns;
    this.#onTable = options.onTable;
  }

  /**
   * Buffer one row (storage columns; unknown columns are an error, missing ones are null),
   * writing the table's batch when it is full.
   *
   * @example
   * ```ts
   * import { DatabaseSync } from "node:sqlite";
   * import { BulkLoader } from "./store_bulk.ts";
   * const db = new DatabaseSync(":memory:");
   * db.exec('CREATE TABLE t ("id" TEXT)');
   * const loader = new BulkLoader(db, new Map([["t", [{ name: "id", type: "string" as const }]]]));
   * try {
   *   loader.add("t", { nope: 1 });
   * } catch (err) {
   *   console.log((err as Error).message); // "Unknown column t.nope"
   * }
   * ```
   */
  add(table: string, row: Readonly<Record<string, unknown>>): void {
    let load = this.#last;
    if (load === undefined || load.table !== table) {
      load = this.#loads.get(table) ?? this.#open(table);
      this.#last = load;
    }
    const { values, width, index, types } = load;
    const base = load.count * width;
    values.fill(null, base, base + width);
    for (const k in row) {
      const i = index.get(k);
      if (i === undefined) {
        values.fill(null, base, base + width);
        throw new RangeError(`Unknown column ${table}.${k}`);
      }
      values[base + i] = storeValue(types[i], row[k]);
    }
    if (++load.count === load.batch) {
      load.full ??= this.#statement(load, load.batch);
      load.full.run(...values);
      load.count = 0;
    }
  }

  /**
   * Write every buffered row.
   *
   * @example
   * ```ts
   * import { DatabaseSync } from "node:sqlite";
   * import { BulkLoader } from "./store_bulk.ts";
   * const db = new DatabaseSync(":memory:");
   * db.exec('CREATE TABLE t ("id" TEXT)');
   * const loader = new BulkLoader(db, new Map([["t", [{ name: "id", type: "string" as const }]]]));
   * loader.add("t", { id: "a" });
   * loader.flush();
   * console.log(db.prepare("SELECT id FROM t").get()); // { id: "a" }
   * ```
   */
  flush(): void {
    for (const load of this.#loads.values()) {
      if (load.count === 0) continue;
      const rows = load.count;
      load.count = 0;
      this.#statement(load, rows).run(...load.values.slice(0, rows * load.width));
    }
  }

  #open(table: string): TableLoad {
    const cols = this.#columns.get(table);
    if (!cols) throw new RangeError(`Unknown table "${table}"`);
    this.#onTable?.(table);
    const width = cols.length;
    const batch = Math.max(
      1,
      Math.min(MAX_ROWS_PER_BATCH, Math.floor(PARAMETERS_PER_BATCH / width)),
    );
    const load: TableLoad = {
      table,
      width,
      index: new Map(cols.map((c, i) => [c.name, i])),
      types: cols.map((c) => c.type),
      batch,
      values: new Array(batch * width).fill(null),
      count: 0,
    };
    this.#loads.set(table, load);
    return load;
  }

  /** `INSERT` of `rows` rows into the table (every column, in column order). */
  #statement(load: TableLoad, rows: number): StatementSync {
    const names = (this.#columns.get(load.table) ?? []).map((c) => q(c.name)).join(", ");
    const one = `(${new Array(load.width).fill("?").join(", ")})`;
    return this.#db.prepare(
      `INSERT INTO ${q(load.table)} (${names}) VALUES ${new Array(rows).fill(one).join(", ")}`,
    );
  }
}
