import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Projector } from '../projector.js';
import { RUNNER_SCHEMA, STOPPED_PROJECTORS_DDL } from '../stopped-projectors.js';

/** The key of the advisory lock serialising migrations (leadership is a lease: LeasedConsumer). */
function lockKey(name: string): string {
  return createHash('sha256').update(`fsm:${name}`).digest().readBigInt64BE(0).toString();
}

/** The tables a runner writes: its own bookkeeping in `proj`, and its projectors' in `rm` (or a shadow's schema). */
export class ReadModelTables {
  private readonly runner: string;
  private readonly projectors: readonly Projector[];
  private readonly schema: string;
  /** A shadow's (blue-green.ts): its screens' indexes wait until it has caught up. */
  private readonly shadow: boolean;

  constructor(runner: string, projectors: readonly Projector[], schema: string, shadow: boolean) {
    this.runner = runner;
    this.projectors = projectors;
    this.schema = schema;
    this.shadow = shadow;
  }

  /** Creates the runner's tables and the read-model tables. Safe to run concurrently. */
  async migrate(pool: pg.Pool, versions: Record<string, number>): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [lockKey('migrate')]);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${RUNNER_SCHEMA}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${RUNNER_SCHEMA}.checkpoints (
          name text PRIMARY KEY,
          position text,
          versions jsonb NOT NULL DEFAULT '{}'::jsonb,
          rebuild_requested boolean NOT NULL DEFAULT false,
          updated_at timestamptz NOT NULL DEFAULT now(),
          projector_positions jsonb NOT NULL DEFAULT '{}'::jsonb,
          retry_requested boolean NOT NULL DEFAULT false
        )`);
        // A deployment from before per-projector checkpoints: an empty map puts every
        // projector at the stored position, so nothing is replayed. ALTER only when
        // needed: it would wait for the active runner's batch at every start.
        const { rows } = await client.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'checkpoints'`,
          [RUNNER_SCHEMA],
        );
        const columns = new Set(rows.map((row) => row.column_name));
        if (!columns.has('projector_positions')) {
          await client.query(`ALTER TABLE ${RUNNER_SCHEMA}.checkpoints ADD COLUMN IF NOT EXISTS projector_positions jsonb NOT NULL DEFAULT '{}'::jsonb`);
        }
        if (!columns.has('retry_requested')) {
          await client.query(`ALTER TABLE ${RUNNER_SCHEMA}.checkpoints ADD COLUMN IF NOT EXISTS retry_requested boolean NOT NULL DEFAULT false`);
        }
        await client.query(STOPPED_PROJECTORS_DDL);
        await client.query(`INSERT INTO ${RUNNER_SCHEMA}.checkpoints (name, versions) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
          this.runner,
          JSON.stringify(versions),
        ]);
        // A read model whose version changed keeps its previous tables until the rebuild swaps
        // the new ones in: its new setupSql may not apply to them (an index on a new column).
        // A read model never built before gets its (empty) tables at once, as before.
        const { rows: stored } = await client.query<{ versions: Record<string, number> }>(`SELECT versions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [this.runner]);
        const built = stored[0]?.versions ?? {};
        const keepPrevious = (projector: Projector) => !this.shadow && Object.hasOwn(built, projector.name) && built[projector.name] !== projector.version;
        await this.create(client, (projector) => !keepPrevious(projector));
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [lockKey('migrate')]);
      }
    } finally {
      client.release();
    }
  }

  /** The schema and the tables of the projectors `which` picks (all by default). */
  async create(client: pg.PoolClient, which: (projector: Projector) => boolean = () => true): Promise<void> {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
    for (const projector of this.projectors) {
      if (!which(projector)) continue;
      await client.query(projector.setupSql);
      // A shadow creates the screens' indexes once it has caught up (createQueryIndexes).
      if (!this.shadow && projector.queryIndexesSql) await client.query(projector.queryIndexesSql);
    }
  }

  /** A shadow that has caught up: the indexes only the screens read (Projector.queryIndexesSql), before it is analyzed and swapped in. */
  async createQueryIndexes(pool: pg.Pool): Promise<void> {
    for (const projector of this.projectors) if (projector.queryIndexesSql) await pool.query(projector.queryIndexesSql);
  }
}
