import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type PostgresEventStore, type Position } from '@fsm/eventstore';
import { startPrivateDatabase, type PrivateDatabase } from '../../faults/support/private-postgres.js';
import { HEALTH_THRESHOLDS, checkHealth, type HealthDeps } from '../src/http/health-route.js';

/*
 * Health against what really holds readers back. The visibility horizon is
 * cluster-wide, so a transaction held open here would stall every other test
 * file on the shared server: this file runs its own Postgres.
 *
 * Thresholds are passed in so each case shows which condition decides the
 * status without the test waiting for the real 30 seconds.
 */

const NEVER = 24 * 3600;

let db: PrivateDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
let holder: pg.Client | null = null;

const append = async (type: string): Promise<Position> =>
  (await store.appendToStream(`sante-${randomUUID()}`, [{ id: randomUUID(), type, data: {} }], { expectedRevision: 'no_stream' })).position;

const deps = (checkpoint: Position | null): HealthDeps => ({
  pool,
  store,
  redisPing: async () => true,
  watcher: { position: checkpoint },
  live: { size: 0 },
});

beforeAll(async () => {
  db = await startPrivateDatabase('fsm_health');
  const admin = new pg.Client({ connectionString: db.server.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE fsm_elsewhere');
  await admin.end();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  store = createPostgresEventStore({ pool });
  await store.migrate();
}, 120_000);

afterEach(async () => {
  await holder?.query('ROLLBACK').catch(() => undefined);
  await holder?.end();
  holder = null;
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await db?.destroy();
});

describe('GET /api/health details: the event store as readers really see it', () => {
  it('reports the true head, the transaction holding the horizon (in another database) and its age, and degrades past the threshold', async () => {
    const applied = await append('Appliqué');
    // A writer left open in another database of the same server: transaction ids are cluster-wide.
    holder = new pg.Client({ connectionString: db.server.urlOf('fsm_elsewhere'), application_name: 'sante-ecrivain-bloque' });
    await holder.connect();
    await holder.query('BEGIN');
    const { rows } = await holder.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
    const committed = await append('Commis');

    const held = await checkHealth(deps(applied), { ...HEALTH_THRESHOLDS, horizonSeconds: 0 });
    expect(held.eventStore.head).toBe(committed);
    expect(held.eventStore.visibleHead).toBe(applied);
    expect(held.eventStore.horizon).toMatchObject({
      transaction: rows[0]?.xid,
      application: 'sante-ecrivain-bloque',
      database: 'fsm_elsewhere',
      state: 'idle in transaction',
    });
    expect(held.eventStore.horizon?.ageSeconds).toBeGreaterThanOrEqual(0);
    // Readers cannot see the new event yet, but it is waiting all the same.
    expect(held.projections.lag).toBe(0);
    expect(held.projections.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(held.status).toBe('degraded');

    // Below the threshold the same facts are reported and the status stays ok.
    const young = await checkHealth(deps(applied), { ...HEALTH_THRESHOLDS, horizonSeconds: NEVER });
    expect(young.eventStore.horizon?.transaction).toBe(rows[0]?.xid);
    expect(young.status).toBe('ok');
  });

  it('still names the holder to a role without pg_read_all_stats, with its age unknown, and the lag in seconds decides', async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('CREATE ROLE sante_app LOGIN');
    await admin.query('GRANT USAGE ON SCHEMA es TO sante_app; GRANT SELECT ON ALL TABLES IN SCHEMA es TO sante_app');
    await admin.end();
    const appPool = new pg.Pool({ connectionString: db.url.replace('postgres@', 'sante_app@'), max: 2 });
    const appStore = createPostgresEventStore({ pool: appPool });
    try {
      const applied = await append('Appliqué');
      holder = new pg.Client({ connectionString: db.url, application_name: 'sante-autre-role' });
      await holder.connect();
      await holder.query('BEGIN');
      const { rows } = await holder.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
      const committed = await append('Commis');

      const appDeps = { ...deps(applied), pool: appPool, store: appStore };
      const hidden = await checkHealth(appDeps, { ...HEALTH_THRESHOLDS, horizonSeconds: 0 });
      expect(hidden.eventStore.head).toBe(committed);
      expect(hidden.eventStore.horizon).toMatchObject({ transaction: rows[0]?.xid, startedAt: null, ageSeconds: null });
      expect(hidden.status).toBe('ok');
      expect((await checkHealth(appDeps, { ...HEALTH_THRESHOLDS, lagSeconds: 0 })).status).toBe('degraded');
    } finally {
      await appStore.close();
      await appPool.end();
    }
  });

  it('reports the projection lag in seconds when the read models stop, and degrades past the threshold', async () => {
    const applied = await append('Appliqué');
    const waiting = await append('EnAttente');
    await append('EnAttenteAussi');

    const stopped = await checkHealth(deps(applied), { ...HEALTH_THRESHOLDS, lagSeconds: 0 });
    expect(stopped.eventStore.horizon).toBeNull();
    expect(stopped.projections.lag).toBe(2);
    expect(stopped.projections.lagSeconds).toBeGreaterThan(0);
    expect(stopped.status).toBe('degraded');

    const store2 = await store.health(applied);
    expect(store2.oldestPending?.position).toBe(waiting);

    expect((await checkHealth(deps(applied), { ...HEALTH_THRESHOLDS, lagSeconds: NEVER })).status).toBe('ok');
  });

  it('says ok with no lag and nothing held when the read models are at the head', async () => {
    const head = await append('Dernier');
    const healthy = await checkHealth(deps(head));
    expect(healthy.status).toBe('ok');
    expect(healthy.eventStore.head).toBe(head);
    expect(healthy.eventStore.visibleHead).toBe(head);
    expect(healthy.eventStore.horizon).toBeNull();
    expect(healthy.projections).toMatchObject({ lag: 0, lagSeconds: 0, stopped: [] });
  });
});
