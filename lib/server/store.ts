/**
 * The reference server's storage: one SQLite table per catalogue table, built from the field
 * catalogue, with a generic paged, filtered and sorted query over any resource.
 *
 * Storage form of a value: strings as TEXT, numbers as REAL, booleans as INTEGER 0/1, dates as
 * TEXT in `Date.prototype.toISOString()` form (`2024-01-02T03:04:05.000Z`, so text order is time
 * order), string arrays as JSON TEXT. `compileFilter` of `sql_filter.ts` compiles against this form.
 *
 * @module
 */

import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { type FieldType, type ResourceName, RESOURCES } from "../api/catalogue.ts";
import { OPERATIONS } from "../api/operations.ts";
import type { FilterNode } from "../api/filter.ts";
import { compileFilter } from "./sql_filter.ts";
import { BulkLoader } from "./store_bulk.ts";
import { storeValue } from "./store_values.ts";

/** A row as handed to the store: storage column → value (Dates, booleans and arrays allowed). */
export type RowInput = Readonly<Record<string, unknown>>;

/** A row as read back: storage column → stored value, plus `__rowid`. */
export type StoredRow = Record<string, string | number | null>;

/** Receives the rows of a bulk load, one at a time. */
export type RowSink = (table: string, row: RowInput) => void;

/** Options of {@link EstateStore}. */
export interface EstateStoreOptions {
  /** A database file, or `":memory:"` (the default). */
  readonly path?: string;
  /**
   * The bytes of a store's database ({@link EstateStore.serialize}) to start from: the store is
   * an in-memory copy of them, so its writes reach no other copy (`path` must be `":memory:"`).
   */
  readonly image?: Uint8Array;
}

/** One column of a table: its name and the catalogue type of the fields stored in it. */
export interface ColumnSpec {
  /** The storage column. */
  readonly name: string;
  /** The catalogue type (hidden fields are strings). */
  readonly type: FieldType;
}

/** A query of {@link EstateStore.query}. */
export interface StoreQuery {
  /** The resource whose table and fields are read. */
  readonly resource: ResourceName;
  /** Equality selections: field name → value (`null` selects missing values). */
  readonly where?: Readonly<Record<string, string | number | boolean | null>>;
  /** A parsed filter, compiled against the resource. */
  readonly filter?: FilterNode;
  /** `field:asc,field2:desc`; fields must be visible fields of the resource. */
  readonly sort?: string;
  /** Rows per page. */
  readonly limit: number;
  /** Rows skipped. */
  readonly offset?: number;
  /** Skip counting the matching rows (`total` is then -1). */
  readonly noTotal?: boolean;
}

/** Which rows {@link EstateStore.readColumns} reads (all of them by default). */
export interface ColumnReadOptions {
  /** Only rows whose value in `column` is one of `values` (compared as text, exactly). */
  readonly in?: { readonly column: string; readonly values: readonly string[] };
  /** Only rows whose value in this column is neither NULL nor empty text. */
  readonly present?: string;
}

/** The result of {@link EstateStore.queryArrays}: rows as arrays, in `columns` order. */
export interface StoreArrayResult {
  /** The columns of each row array; the first is `__rowid`. */
  readonly columns: readonly string[];
  /** The page of rows, in storage form. */
  readonly rows: (string | number | null)[][];
  /** How many rows match in all (-1 when not counted). */
  readonly total: number;
}

/** The result of {@link EstateStore.query}. */
export interface StoreResult {
  /** The page of rows, in storage form. */
  readonly rows: StoredRow[];
  /** How many rows match in all (-1 when not counted). */
  readonly total: number;
}

/**
 * A `sort` value names an unknown property or direction.
 *
 * @example
 * ```ts
 * import { EstateStore, SortError } from "./store.ts";
 * try {
 *   new EstateStore().query({ resource: "Computer", sort: "nope:asc", limit: 1 });
 * } catch (err) {
 *   console.log(err instanceof SortError); // true
 * }
 * ```
 */
export class SortError extends Error {
  /** @param message What is wrong, naming the property. */
  constructor(message: string) {
    super(message);
    this.name = "SortError";
  }
}

const SQL_TYPE: Record<FieldType, string> = {
  string: "TEXT",
  number: "REAL",
  boolean: "INTEGER",
  date: "TEXT",
  strings: "TEXT",
};

/** Quote an SQL identifier. */
const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every table of the catalogue with its columns (union over the resources sharing it). */
function catalogueTables(): Map<string, ColumnSpec[]> {
  const tables = new Map<string, Map<string, FieldType>>();
  for (const r of Object.values(RESOURCES)) {
    if (r.table === "") continue;
    const cols = tables.get(r.table) ?? new Map<string, FieldType>();
    tables.set(r.table, cols);
    for (const f of r.fields) {
      const c = r.columnOf(f.name);
      const had = cols.get(c);
      if (had !== undefined && had !== f.type) {
        throw new TypeError(`Column ${r.table}.${c} is both ${had} and ${f.type}`);
      }
      cols.set(c, f.type);
    }
  }
  return new Map(
    [...tables].map(([t, cols]) => [t, [...cols].map(([name, type]) => ({ name, type }))]),
  );
}

/** Column lists to index per table: every selection used by an operation's scope/fixed/parent. */
function catalogueIndexes(): Map<string, string[][]> {
  const sets = new Map<string, string[][]>();
  const add = (table: string, cols: string[]) => {
    if (cols.length === 0) return;
    const list = sets.get(table) ?? [];
    sets.set(table, list);
    list.push(cols);
  };
  for (const op of OPERATIONS) {
    const r = RESOURCES[op.resource];
    if (r.table === "") continue;
    add(r.table, [
      ...Object.keys(op.fixed).map((f) => r.columnOf(f)),
      ...Object.values(op.scope).map((f) => r.columnOf(f)),
    ]);
    if (op.parent) {
      const p = RESOURCES[op.parent.resource];
      add(p.table, [p.columnOf(op.parent.field)]);
    }
  }
  // Drop duplicates and any list that is a prefix of another (the longer index serves it).
  const out = new Map<string, string[][]>();
  for (const [table, lists] of sets) {
    const keep: string[][] = [];
    for (const l of lists) {
      const covered = lists.some((o) =>
        o !== l && o.length >= l.length && l.every((c, i) => o[i] === c) &&
        (o.length > l.length || lists.indexOf(o) < lists.indexOf(l))
      );
      if (!covered) keep.push(l);
    }
    out.set(table, keep);
  }
  return out;
}

/** Parse a `sort` value into SQL, checking each property against the resource's visible fields. */
function sortSql(resource: ResourceName, sort: string): string {
  const r = RESOURCES[resource];
  const parts: string[] = [];
  for (const raw of sort.split(",")) {
    const term = raw.trim();
    if (term === "") continue;
    const colon = term.lastIndexOf(":");
    const prop = colon === -1 ? term : term.slice(0, colon).trim();
    const dir = colon === -1 ? "asc" : term.slice(colon + 1).trim().toLowerCase();
    const field = r.byName.get(prop);
    if (!field || field.hidden) {
      throw new SortError(`Unknown sort property "${prop}" for ${resource}`);
    }
    if (dir !== "asc" && dir !== "desc") {
      throw new SortError(`Sort direction of "${prop}" must be asc or desc, not "${dir}"`);
    }
    parts.push(`${q(r.columnOf(prop))} ${dir.toUpperCase()}`);
  }
  return parts.join(", ");
}

const CACHE_LIMIT = 512;

/** Sorted reads whose order is kept (a few MB each at 50,000 computers). */
const ORDERINGS_KEPT = 4;

/** Keep a Map below a size by dropping its oldest entries. */
function bound<K, V>(map: Map<K, V>): void {
  while (map.size > CACHE_LIMIT) map.delete(map.keys().next().value as K);
}

/**
 * The estate in SQLite: tables from the catalogue, bulk loading, and one generic query.
 *
 * @example Load rows and read a page
 * ```ts
 * import { EstateStore } from "./store.ts";
 * const store = new EstateStore();
 * store.insert("computers", { id: "C1", hostName: "alpha", isPortable: true });
 * const { rows, total } = store.query({ resource: "Computer", limit: 10 });
 * console.log(total, rows[0].hostName); // 1 "alpha"
 * store.close();
 * ```
 */
export class EstateStore {
  #db: DatabaseSync;
  #tables: Map<string, ColumnSpec[]>;
  #insert = new Map<string, StatementSync>();
  #columnSets = new Map<string, Set<string>>();
  #statements = new Map<string, StatementSync>();
  #totals = new Map<string, number>();
  #cursors = new Map<string, number>();
  #indexes: Map<string, string[][]>;
  #orders = new Map<string, number[]>();
  #listIndexes = new Map<string, { table: string; column: string }>();
  #generation = 0;
  /** The bulk load under way: its buffered rows are written before any other statement runs. */
  #loading: BulkLoader | undefined;

  /**
   * Open (or create) the database and its schema. Throws a RangeError for an `image` with a
   * database file, and SQLite's error for an `image` that is not a database.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore({ path: ":memory:" });
   * console.log(store.count("computers")); // 0
   * ```
   */
  constructor(options: EstateStoreOptions = {}) {
    const path = options.path ?? ":memory:";
    if (options.image !== undefined && path !== ":memory:") {
      throw new RangeError(`An estate image opens in memory only, not at ${path}`);
    }
    this.#db = new DatabaseSync(path);
    if (options.image !== undefined) {
      try {
        this.#db.deserialize(options.image);
        this.#db.prepare("SELECT COUNT(*) FROM sqlite_master").get();
      } catch (err) {
        this.#db.close();
        throw err;
      }
    }
    if (path !== ":memory:") {
      this.#db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
    }
    this.#tables = catalogueTables();
    this.#indexes = catalogueIndexes();
    for (const [table, cols] of this.#tables) {
      const defs = cols.map((c) => `${q(c.name)} ${SQL_TYPE[c.type]}`).join(", ");
      this.#db.exec(`CREATE TABLE IF NOT EXISTS ${q(table)} (${defs})`);
    }
    this.#createIndexes();
  }

  /**
   * The tables of the schema.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * console.log(new EstateStore().tables().includes("licenses")); // true
   * ```
   */
  tables(): string[] {
    return [...this.#tables.keys()];
  }

  /**
   * The columns of a table; throws for an unknown table.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const cols = new EstateStore().columns("drives").map((c) => c.name);
   * console.log(cols.includes("kind")); // true
   * ```
   */
  columns(table: string): readonly ColumnSpec[] {
    const cols = this.#tables.get(table);
    if (!cols) throw new RangeError(`Unknown table "${table}"`);
    return cols;
  }

  /**
   * Insert one row (storage columns; unknown columns are an error, missing ones are null).
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * console.log(store.count("policies")); // 1
   * ```
   */
  insert(table: string, row: RowInput): void {
    this.#insertRow(table, row);
    this.#changed();
  }

  /**
   * Load many rows in one transaction, many rows per statement. The indexes of the tables
   * written are rebuilt once at the end (those of other tables are kept), so millions of rows
   * load in seconds. Returns how many rows were inserted.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * const n = await store.bulkInsert((sink) => {
   *   for (let i = 0; i < 3; i++) sink("policies", { id: `P${i}` });
   * });
   * console.log(n); // 3
   * ```
   */
  async bulkInsert(fill: (sink: RowSink) => void | Promise<void>): Promise<number> {
    let n = 0;
    this.#db.exec("BEGIN");
    // Only the tables the load writes lose their indexes, from its first row into each on.
    const touched = new Set<string>();
    const loader = new BulkLoader(this.#db, this.#tables, {
      onTable: (table) => {
        touched.add(table);
        this.#dropIndexes(table);
      },
    });
    this.#loading = loader;
    try {
      await fill((table, row) => {
        loader.add(table, row);
        n++;
      });
      loader.flush();
      this.#db.exec("COMMIT");
    } catch (err) {
      this.#db.exec("ROLLBACK");
      throw err;
    } finally {
      this.#loading = undefined;
      this.#createIndexes(touched);
      this.#changed();
    }
    return n;
  }

  /**
   * Set columns on the rows of a table matching equality selections (storage columns). Returns
   * the number of rows changed.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * console.log(store.update("policies", { id: "P1" }, { id: "P2" })); // 1
   * ```
   */
  update(table: string, where: RowInput, set: RowInput): number {
    const cols = this.columns(table);
    const type = (c: string) => {
      const spec = cols.find((x) => x.name === c);
      if (!spec) throw new RangeError(`Unknown column ${table}.${c}`);
      return spec.type;
    };
    const sets = Object.keys(set);
    const wheres = Object.keys(where);
    if (sets.length === 0) return 0;
    const sql = `UPDATE ${q(table)} SET ${sets.map((c) => `${q(c)} = ?`).join(", ")}` +
      (wheres.length ? ` WHERE ${wheres.map((c) => `${q(c)} IS ?`).join(" AND ")}` : "");
    const params = [
      ...sets.map((c) => storeValue(type(c), set[c])),
      ...wheres.map((c) => storeValue(type(c), where[c])),
    ];
    const changes = Number(this.#prepare(sql).run(...params).changes);
    this.#changed();
    return changes;
  }

  /**
   * Delete every row of every table.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * store.clear();
   * console.log(store.count("policies")); // 0
   * ```
   */
  clear(): void {
    this.#loading?.flush();
    for (const table of this.#tables.keys()) this.#db.exec(`DELETE FROM ${q(table)}`);
    this.#changed();
  }

  /**
   * The number of rows of a table.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * console.log(new EstateStore().count("licenses")); // 0
   * ```
   */
  count(table: string): number {
    this.columns(table);
    const row = this.#prepare(`SELECT COUNT(*) AS n FROM ${q(table)}`).get() as { n: number };
    return Number(row.n);
  }

  /**
   * A page of a resource's rows: equality selections, an optional filter and sort, and the total
   * number of matches. Default order is insertion order (rowid), and every sort ends on rowid, so
   * paging is stable. Throws {@link SortError} for a bad `sort` and the filter compiler's errors
   * for a bad filter.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * for (const id of ["b", "a", "c"]) store.insert("policies", { id });
   * const page = store.query({ resource: "Policy", sort: "id:desc", limit: 2 });
   * console.log(page.rows.map((r) => r.id), page.total); // ["c", "b"] 3
   * ```
   */
  query(query: StoreQuery): StoreResult {
    const { rows, total } = this.#run(query, "objects");
    return { rows: rows as StoredRow[], total };
  }

  /**
   * A page as {@link query} reads it, each row an array of values in `columns` order (no object
   * is made per row, which is most of the cost of a large page).
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * const page = store.queryArrays({ resource: "Policy", limit: 10 });
   * console.log(page.rows[0][page.columns.indexOf("id")]); // "P1"
   * ```
   */
  queryArrays(query: StoreQuery): StoreArrayResult {
    const { rows, total, columns } = this.#run(query, "arrays");
    return { rows: rows as (string | number | null)[][], total, columns };
  }

  /**
   * A number that changes whenever the store's rows may have changed (insert, update, clear,
   * bulk load): what is derived from the rows is good while it stays the same.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * const before = store.generation;
   * store.insert("policies", { id: "P1" });
   * console.log(store.generation !== before); // true
   * ```
   */
  get generation(): number {
    return this.#generation;
  }

  #run(query: StoreQuery, mode: "objects" | "arrays") {
    const arrays = mode !== "objects";
    const r = RESOURCES[query.resource];
    if (r.table === "") throw new RangeError(`${query.resource} has no table`);
    const conds: string[] = [];
    const params: SQLInputValue[] = [];
    for (const [field, value] of Object.entries(query.where ?? {})) {
      const spec = r.byName.get(field);
      if (!spec) throw new RangeError(`${query.resource} has no field "${field}"`);
      conds.push(`${q(r.columnOf(field))} IS ?`);
      params.push(storeValue(spec.type, value));
    }
    if (query.filter) {
      const compiled = compileFilter(query.filter, r);
      conds.push(`(${compiled.sql})`);
      params.push(...(compiled.params as SQLInputValue[]));
    }
    const where = conds.length ? ` WHERE ${conds.join(" AND ")}` : "";
    const order = query.sort ? sortSql(query.resource, query.sort) : "";
    const cols = [...new Set(r.fields.map((f) => r.columnOf(f.name)))].map(q).join(", ");
    const from = ` FROM ${q(r.table)}`;
    const key = `${from}${where}\u0000${JSON.stringify(params)}`;
    const limit = Math.max(0, Math.trunc(query.limit));
    const offset = Math.max(0, Math.trunc(query.offset ?? 0));

    const indexed = query.filter !== undefined && this.#indexListColumns(r, query.filter);
    const select = `SELECT rowid AS __rowid, ${cols}${from}`;
    const columns = mode === "arrays" ? this.#columnsOf(query.resource) : [];
    type Row = StoredRow | (string | number | null)[];
    const rowid = arrays
      ? (row: Row) => (row as unknown[])[0]
      : (row: Row) => (row as StoredRow).__rowid;
    if ((order !== "" && offset > 0) || indexed) {
      // A later page of a sorted read, or a read through an `-in` index (whose matches SQLite
      // would gather and sort again for every page): the order is taken once, with the total,
      // and each page is a slice of it.
      const ids = this.#ordering(`${key}\u0001${order}`, `${from}${where}`, order, params);
      if (!query.noTotal) this.#totals.set(key, ids.length);
      const page = ids.slice(offset, offset + limit);
      const rows = this.#byRowids(select, page, arrays, rowid);
      return { rows, total: query.noTotal ? -1 : ids.length, columns };
    }
    const total = query.noTotal ? -1 : this.#total(key, `${from}${where}`, params);
    let rows: Row[];
    const after = order === "" && offset > 0 ? this.#cursors.get(`${key}@${offset}`) : undefined;
    if (after !== undefined) {
      // Keyset continuation of a previous page: no rows are skipped one by one.
      const w = where ? `${where} AND rowid > ?` : " WHERE rowid > ?";
      rows = this.#prepare(`${select}${w} ORDER BY rowid LIMIT ?`, arrays)
        .all(...params, after, limit) as Row[];
    } else {
      const by = order ? `${order}, rowid` : "rowid";
      rows = this.#prepare(`${select}${where} ORDER BY ${by} LIMIT ? OFFSET ?`, arrays)
        .all(...params, limit, offset) as Row[];
    }
    if (order === "" && rows.length > 0) {
      this.#cursors.set(`${key}@${offset + rows.length}`, rowid(rows[rows.length - 1]) as number);
      bound(this.#cursors);
    }
    return { rows, total, columns };
  }

  /**
   * Some columns of every row of a resource's table (or of the rows `options` select), in rowid
   * order, each row an array of stored values in `columns` order: what a whole-table pass needs,
   * without an object per row. Throws a RangeError for a column that is not one of the
   * resource's.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("computers", { id: "C1", hostName: "alpha" });
   * console.log(store.readColumns("ComputerDetail", ["hostName", "id"])); // [ [ "alpha", "C1" ] ]
   * ```
   */
  readColumns(
    resource: ResourceName,
    columns: readonly string[],
    options: ColumnReadOptions = {},
  ): (string | number | null)[][] {
    const r = RESOURCES[resource];
    if (r.table === "") throw new RangeError(`${resource} has no table`);
    const own = this.#columnsOf(resource);
    const named = [...columns, options.in?.column ?? own[1], options.present ?? own[1]];
    const unknown = named.find((c) => c === "__rowid" || !own.includes(c));
    if (unknown !== undefined || columns.length === 0) {
      throw new RangeError(`${resource} has no column "${unknown ?? ""}"`);
    }
    const conds: string[] = [];
    const params: SQLInputValue[] = [];
    if (options.in) {
      conds.push(`${q(options.in.column)} IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(options.in.values));
    }
    if (options.present) {
      conds.push(`${q(options.present)} IS NOT NULL AND ${q(options.present)} <> ''`);
    }
    const where = conds.length ? ` WHERE ${conds.join(" AND ")}` : "";
    const sql = `SELECT ${columns.map(q).join(", ")} FROM ${q(r.table)}${where} ORDER BY rowid`;
    return this.#prepare(sql, true).all(...params) as unknown as (string | number | null)[][];
  }

  /** The columns of a resource's row arrays: `__rowid`, then the selected columns. */
  #columnsOf(resource: ResourceName): string[] {
    const r = RESOURCES[resource];
    return ["__rowid", ...new Set(r.fields.map((f) => r.columnOf(f.name)))];
  }

  /**
   * The first row (in rowid order) of a resource matching equality selections, if any.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * console.log(store.first("Policy", { id: "P1" })?.id); // "P1"
   * ```
   */
  first(
    resource: ResourceName,
    where: Readonly<Record<string, string | number | boolean | null>>,
  ): StoredRow | undefined {
    return this.query({ resource, where, limit: 1, noTotal: true }).rows[0];
  }

  /**
   * The bytes of the whole database (tables, rows and indexes): an image that
   * `new EstateStore({ image })` opens as an in-memory copy.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * const store = new EstateStore();
   * store.insert("policies", { id: "P1" });
   * const copy = new EstateStore({ image: store.serialize() });
   * copy.insert("policies", { id: "P2" });
   * console.log(store.count("policies"), copy.count("policies")); // 1 2
   * ```
   */
  serialize(): Uint8Array {
    this.#loading?.flush();
    return this.#db.serialize();
  }

  /**
   * Close the database.
   *
   * @example
   * ```ts
   * import { EstateStore } from "./store.ts";
   * new EstateStore().close();
   * ```
   */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #insertRow(table: string, row: RowInput): void {
    this.#loading?.flush();
    const cols = this.#tables.get(table);
    if (!cols) throw new RangeError(`Unknown table "${table}"`);
    let stmt = this.#insert.get(table);
    if (!stmt) {
      const names = cols.map((c) => q(c.name)).join(", ");
      stmt = this.#db.prepare(
        `INSERT INTO ${q(table)} (${names}) VALUES (${cols.map(() => "?").join(", ")})`,
      );
      this.#insert.set(table, stmt);
    }
    let known = this.#columnSets.get(table);
    if (!known) {
      known = new Set(cols.map((c) => c.name));
      this.#columnSets.set(table, known);
    }
    for (const k in row) {
      if (!known.has(k)) throw new RangeError(`Unknown column ${table}.${k}`);
    }
    const values: SQLInputValue[] = new Array(cols.length);
    for (let i = 0; i < cols.length; i++) values[i] = storeValue(cols[i].type, row[cols[i].name]);
    stmt.run(...values);
  }

  /** The number of matching rows, counted once per table, selection and filter until a write. */
  #total(key: string, fromWhere: string, params: SQLInputValue[]): number {
    const cached = this.#totals.get(key);
    if (cached !== undefined) return cached;
    const row = this.#prepare(`SELECT COUNT(*) AS n${fromWhere}`).get(...params) as { n: number };
    const total = Number(row.n);
    this.#totals.set(key, total);
    bound(this.#totals);
    return total;
  }

  /** The rowids of a sorted read in order (ties by rowid), kept for the few latest sorts. */
  #ordering(key: string, fromWhere: string, order: string, params: SQLInputValue[]): number[] {
    let ids = this.#orders.get(key);
    if (ids) {
      this.#orders.delete(key); // most recently used last
    } else {
      const by = order === "" ? "rowid" : `${order}, rowid`;
      const stmt = this.#prepare(`SELECT rowid${fromWhere} ORDER BY ${by}`);
      stmt.setReturnArrays(true);
      ids = (stmt.all(...params) as unknown as number[][]).map((r) => r[0]);
    }
    this.#orders.set(key, ids);
    while (this.#orders.size > ORDERINGS_KEPT) {
      this.#orders.delete(this.#orders.keys().next().value as string);
    }
    return ids;
  }

  /** The rows of the given rowids, in that order. */
  #byRowids<Row>(select: string, ids: number[], arrays: boolean, rowid: (row: Row) => unknown) {
    if (ids.length === 0) return [];
    const found = this.#prepare(`${select} WHERE rowid IN (SELECT value FROM json_each(?))`, arrays)
      .all(JSON.stringify(ids)) as Row[];
    const at = new Map(found.map((row) => [rowid(row) as number, row]));
    return ids.map((id) => at.get(id)!);
  }

  /**
   * Index `lower(column)` of every string column a filter compares with `-in` (the chunks a
   * report sends: `computerId -in [...]`), so each chunk is an index search, not a scan. Says
   * whether the filter has such a comparison.
   */
  #indexListColumns(r: (typeof RESOURCES)[ResourceName], node: FilterNode): boolean {
    if (node.kind === "and" || node.kind === "or") {
      return node.items.map((item) => this.#indexListColumns(r, item)).includes(true);
    }
    if (node.kind === "not") return this.#indexListColumns(r, node.expr);
    if (node.op !== "in") return false;
    const field = r.byName.get(node.field);
    if (!field || field.hidden || field.type !== "string") return false;
    const column = r.columnOf(field.name);
    const name = `ix_${r.table}_lower_${column}`;
    if (!this.#listIndexes.has(name)) {
      this.#listIndexes.set(name, { table: r.table, column });
      this.#createListIndex(name, r.table, column);
    }
    return true;
  }

  #createListIndex(name: string, table: string, column: string): void {
    this.#db.exec(
      `CREATE INDEX IF NOT EXISTS ${q(name)} ON ${q(table)} (lower(${q(column)}), ${q(column)})`,
    );
  }

  /** A prepared statement, cached; `arrays` ones return each row as an array. */
  #prepare(sql: string, arrays = false): StatementSync {
    this.#loading?.flush();
    const key = arrays ? `${sql}\u0002` : sql;
    let stmt = this.#statements.get(key);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      if (arrays) stmt.setReturnArrays(true);
      this.#statements.set(key, stmt);
      bound(this.#statements);
    }
    return stmt;
  }

  #changed(): void {
    this.#generation++;
    this.#totals.clear();
    this.#cursors.clear();
    this.#orders.clear();
  }

  #indexName(table: string, cols: string[]): string {
    return `ix_${table}_${cols.join("_")}`;
  }

  /** Create the indexes of the given tables (default: every table) that do not exist. */
  #createIndexes(only?: ReadonlySet<string>): void {
    for (const [name, { table, column }] of this.#listIndexes) {
      if (!only || only.has(table)) this.#createListIndex(name, table, column);
    }
    for (const [table, lists] of this.#indexes) {
      if (only && !only.has(table)) continue;
      for (const cols of lists) {
        this.#db.exec(
          `CREATE INDEX IF NOT EXISTS ${q(this.#indexName(table, cols))} ON ${q(table)} (${
            cols.map(q).join(", ")
          })`,
        );
      }
    }
  }

  /** Drop the indexes of one table (a bulk load builds them again once it is done). */
  #dropIndexes(table: string): void {
    for (const [name, list] of this.#listIndexes) {
      if (list.table === table) this.#db.exec(`DROP INDEX IF EXISTS ${q(name)}`);
    }
    for (const cols of this.#indexes.get(table) ?? []) {
      this.#db.exec(`DROP INDEX IF EXISTS ${q(this.#indexName(table, cols))}`);
    }
  }
}
