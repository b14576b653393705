/**
 * Run history in PostgreSQL: one row per attempt of a tenant's pack (its job, worker, status,
 * run folder, manifest and figures), so history can be read across tenants and machines. The
 * evidence files stay in the run folder the row points to. The embedded default (folders on one
 * disk) does not use this.
 *
 * An attempt's free text (its error, manifest and figures) is redacted before it is stored
 * (`redact`: the secrets this process registered, by value, and secret-shaped text) and again
 * when read (for rows an older version wrote), so a row holds no secret a worker read, whatever
 * a server echoed into an error. Keys (job, tenant, pack, worker, folder) are stored as given.
 *
 * @module
 */

import type pg from "pg";
import type { Manifest } from "../pack/manifest.ts";
import type { Figure } from "../pack/figures.ts";
import { redact } from "../api/redact.ts";
import { scrubDeep } from "../api/secrets.ts";

/** A value with every string in it redacted. */
const clean = <T>(value: T): T => scrubDeep(value, (text) => redact(text));

/** An attempt's status: a manifest status, or `failed` (the pack could not run at all). */
export type RunStatus = Manifest["status"] | "failed";

/** One attempt of a tenant's pack as the history keeps it. */
export interface HistoryRun {
  /** Row id. */
  readonly id: number;
  /** The queue job's id (null for a run recorded outside the queue). */
  readonly jobId: string | null;
  /** The attempt (0 first, 1 the first retry, …). */
  readonly attempt: number;
  /** The tenant's id. */
  readonly tenantId: string;
  /** The tenant's name. */
  readonly tenantName: string;
  /** The pack's name. */
  readonly pack: string;
  /** The status. */
  readonly status: RunStatus;
  /** The worker that ran it (`host:pid`). */
  readonly worker: string;
  /** When it started. */
  readonly started: Date;
  /** When it ended, if it did. */
  readonly finished: Date | null;
  /** The run folder (the evidence). */
  readonly dir: string | null;
  /** The final manifest. */
  readonly manifest: Manifest | null;
  /** The run's figures (`summary.json`). */
  readonly figures: Figure[] | null;
  /** Why it failed. */
  readonly error: string | null;
}

/** What starts an attempt's row. */
export interface RunStart {
  readonly jobId: string | null;
  readonly attempt: number;
  readonly tenantId: string;
  readonly tenantName: string;
  readonly pack: string;
  readonly worker: string;
}

/** What ends it. */
export interface RunEnd {
  readonly status: RunStatus;
  readonly dir?: string | null;
  readonly manifest?: Manifest | null;
  readonly figures?: readonly Figure[] | null;
  readonly error?: string | null;
}

const SCHEMA = `
CREATE SCHEMA IF NOT EXISTS samkit;
CREATE TABLE IF NOT EXISTS samkit.pack_runs (
  id bigserial PRIMARY KEY,
  job_id text,
  attempt integer NOT NULL DEFAULT 0,
  tenant_id text NOT NULL,
  tenant_name text NOT NULL,
  pack text NOT NULL,
  status text NOT NULL,
  worker text NOT NULL,
  started timestamptz NOT NULL DEFAULT now(),
  finished timestamptz,
  dir text,
  manifest jsonb,
  figures jsonb,
  error text
);
CREATE INDEX IF NOT EXISTS pack_runs_tenant_pack ON samkit.pack_runs (tenant_id, pack, started);
CREATE INDEX IF NOT EXISTS pack_runs_job ON samkit.pack_runs (job_id);`;

/** The lock key that serialises schema creation between processes starting together. */
const SCHEMA_LOCK = 0x5a4d4b;

// deno-lint-ignore no-explicit-any
function toRun(r: any): HistoryRun {
  return {
    id: Number(r.id),
    jobId: r.job_id,
    attempt: r.attempt,
    tenantId: r.tenant_id,
    tenantName: r.tenant_name,
    pack: r.pack,
    status: r.status,
    worker: r.worker,
    started: r.started,
    finished: r.finished,
    dir: r.dir,
    manifest: clean(r.manifest),
    figures: clean(r.figures),
    error: clean(r.error),
  };
}

/**
 * The run history on one PostgreSQL database.
 *
 * @example
 * ```ts ignore
 * import { RunHistory } from "./history.ts";
 * const history = await RunHistory.open("postgresql://samkit@127.0.0.1/samkit");
 * console.log((await history.runs({ tenantIds: ["acme"] })).length);
 * await history.close();
 * ```
 */
export class RunHistory {
  readonly #pool: pg.Pool;

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /**
   * Connects and creates the history table if it is missing. The PostgreSQL driver is loaded
   * here, on first use, so a module that only names this class (a report over run history)
   * loads no database package.
   */
  static async open(url: string, options: { max?: number } = {}): Promise<RunHistory> {
    const { default: driver } = await import("pg");
    const pool = new driver.Pool({ connectionString: url, max: options.max ?? 4 });
    pool.on("error", () => {}); // an idle connection dropped by the server is replaced on use
    const history = new RunHistory(pool);
    try {
      await history.#ensureSchema();
    } catch (e) {
      await pool.end();
      throw e;
    }
    return history;
  }

  async #ensureSchema(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
      await client.query(SCHEMA);
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Records an attempt as `running`; its row id. */
  async start(run: RunStart): Promise<number> {
    const { rows } = await this.#pool.query(
      `INSERT INTO samkit.pack_runs (job_id, attempt, tenant_id, tenant_name, pack, status, worker)
       VALUES ($1, $2, $3, $4, $5, 'running', $6) RETURNING id`,
      [run.jobId, run.attempt, run.tenantId, run.tenantName, run.pack, run.worker],
    );
    return Number(rows[0].id);
  }

  /** Records the run folder of a running attempt. */
  async setDir(id: number, dir: string): Promise<void> {
    await this.#pool.query("UPDATE samkit.pack_runs SET dir = $2 WHERE id = $1", [id, dir]);
  }

  /** Records how an attempt ended (its error, manifest and figures redacted). */
  async finish(id: number, end: RunEnd): Promise<void> {
    const { manifest, figures, error } = clean({
      manifest: end.manifest,
      figures: end.figures,
      error: end.error,
    });
    await this.#pool.query(
      `UPDATE samkit.pack_runs SET status = $2, finished = now(), dir = COALESCE($3, dir),
         manifest = $4, figures = $5, error = $6 WHERE id = $1`,
      [
        id,
        end.status,
        end.dir ?? null,
        manifest ? JSON.stringify(manifest) : null,
        figures ? JSON.stringify(figures) : null,
        error ?? null,
      ],
    );
  }

  /**
   * Marks the earlier attempts of a job still recorded as `running` as `abandoned` (their worker
   * died: the queue gave the job to another attempt); the rows changed.
   */
  async abandonEarlier(jobId: string, attempt: number): Promise<HistoryRun[]> {
    const { rows } = await this.#pool.query(
      `UPDATE samkit.pack_runs SET status = 'abandoned'
       WHERE job_id = $1 AND attempt < $2 AND status = 'running' RETURNING *`,
      [jobId, attempt],
    );
    return rows.map(toRun);
  }

  /** Attempts, oldest first, filtered by tenant, pack and job. */
  async runs(
    filter: { tenantIds?: string[]; pack?: string; jobIds?: string[] } = {},
  ): Promise<HistoryRun[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.tenantIds) where.push(`tenant_id = ANY($${values.push(filter.tenantIds)})`);
    if (filter.pack) where.push(`pack = $${values.push(filter.pack)}`);
    if (filter.jobIds) where.push(`job_id = ANY($${values.push(filter.jobIds)})`);
    const { rows } = await this.#pool.query(
      `SELECT * FROM samkit.pack_runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY started, id`,
      values,
    );
    return rows.map(toRun);
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.#pool.end();
  }
}
