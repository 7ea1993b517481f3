import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, waitFor } from '../contract/test-helpers.js';
import { createTestDatabase, type TestDatabase } from '../test-support/pg-database.js';
import { createPostgresEventStore, type PostgresEventStore } from '../postgres/postgres-event-store.js';
import { LEASE_LOST_CODE, acquireLease, fenceStatement, isLeaseLost, leaseName, migrateLeases, renewLease } from './lease.js';
import { LeasedConsumer, boundedLeaseMs, type LeaderSession } from './leased-consumer.js';

/*
 * The lease every checkpointed consumer (projections runner, reactor) is
 * elected with: a holder that stops renewing loses it, a holder whose session
 * is gone loses it at once, and a write fenced by a lost lease never commits.
 */

let db: TestDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase('eventstore_lease');
  pool = new pg.Pool({ connectionString: db.url, max: 8 });
  pool.on('error', () => undefined); // terminated backends, DROP DATABASE … WITH (FORCE)
  store = createPostgresEventStore({ pool, pollIntervalMs: 20 });
  await store.migrate();
  await migrateLeases(pool);
  await pool.query('CREATE TABLE writes (lease text NOT NULL, n int NOT NULL)');
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await db?.drop();
});

async function session(): Promise<pg.PoolClient> {
  const client = await pool.connect();
  client.on('error', () => undefined);
  return client;
}

async function fencedWrite(client: pg.PoolClient, lease: string, token: string, n: number): Promise<void> {
  await client.query(`${fenceStatement(client, lease, token)}; INSERT INTO writes VALUES (${client.escapeLiteral(lease)}, ${n})`);
}

async function writes(lease: string): Promise<number[]> {
  const { rows } = await pool.query<{ n: number }>('SELECT n FROM writes WHERE lease = $1 ORDER BY n', [lease]);
  return rows.map((row) => row.n);
}

describe('the lease', () => {
  it('has one holder; after its expiry the next one takes it, and the old holder can neither renew nor write', async () => {
    const lease = leaseName('projections', randomUUID());
    const [a, b] = [await session(), await session()];
    const tokenA = await acquireLease(a, lease, 'a', 1_000);
    expect(tokenA).not.toBeNull();
    await fencedWrite(a, lease, tokenA!, 1);
    expect(await acquireLease(b, lease, 'b', 1_000)).toBeNull();

    // `a` stops renewing (a paused process): once the lease has expired, `b` gets it with a new token.
    const tokenB = await waitFor(async () => (await acquireLease(b, lease, 'b', 60_000)) ?? undefined, { timeoutMs: 15_000 });
    expect(BigInt(tokenB)).toBeGreaterThan(BigInt(tokenA!));
    expect(await renewLease(pool, lease, tokenA!, 1_000)).toBe(false);
    const refused = await fencedWrite(a, lease, tokenA!, 2).catch((error: unknown) => error);
    expect(isLeaseLost(refused)).toBe(true);
    expect((refused as { code?: string }).code).toBe(LEASE_LOST_CODE);
    await fencedWrite(b, lease, tokenB, 3);
    expect(await writes(lease)).toEqual([1, 3]);
    a.release(true);
    b.release(true);
  });

  it('goes at once, without waiting for the expiry, when the holder’s session is gone (a killed process)', async () => {
    const lease = leaseName('reactor', randomUUID());
    const [a, b] = [await session(), await session()];
    expect(await acquireLease(a, lease, 'a', 120_000)).not.toBeNull();
    expect(await acquireLease(b, lease, 'b', 120_000)).toBeNull();
    await pool.query('SELECT pg_terminate_backend(backend_pid) FROM consumers.leases WHERE name = $1', [lease]);
    const tokenB = await waitFor(async () => (await acquireLease(b, lease, 'b', 120_000)) ?? undefined, { timeoutMs: 15_000 });
    await fencedWrite(b, lease, tokenB, 1);
    expect(await writes(lease)).toEqual([1]);
    a.release(true);
    b.release(true);
  });

  it('fences by session: another session of the same process cannot write with the holder’s token', async () => {
    const lease = leaseName('reactor', randomUUID());
    const [a, other] = [await session(), await session()];
    const token = (await acquireLease(a, lease, 'a', 60_000))!;
    const refused = await fencedWrite(other, lease, token, 1).catch((error: unknown) => error);
    expect(isLeaseLost(refused)).toBe(true);
    expect(await writes(lease)).toEqual([]);
    a.release(true);
    other.release(true);
  });

  it('accepts only a bounded length', () => {
    expect(boundedLeaseMs(10_000)).toBe(10_000);
    expect(() => boundedLeaseMs(999)).toThrow(RangeError);
    expect(() => boundedLeaseMs(120_001)).toThrow(RangeError);
    expect(() => boundedLeaseMs(1_500.5)).toThrow(RangeError);
  });
});

describe('a leased consumer', () => {
  function consumer(lease: string, seen: string[], leaseMs = 1_500) {
    let leaderSession: LeaderSession | undefined;
    const instance = new LeasedConsumer({
      pool,
      store,
      lease,
      label: 'test',
      leaseMs,
      standbyRetryMs: 50,
      batchSize: 50,
      eventTypes: ['Ping'],
      prepare: async (session) => {
        leaderSession = session;
        return store.headPosition();
      },
      handle: async (batch, session) => {
        for (const event of batch.events) await fencedWrite(session.client, lease, session.token, Number((event.data as { n: number }).n));
        seen.push(...batch.events.map((event) => event.id));
      },
    });
    return { instance, session: () => leaderSession };
  }

  async function ping(n: number): Promise<string> {
    const event = newEvent('Ping', { n });
    await store.appendToStream(`ping-${randomUUID()}`, [event], { expectedRevision: 'no_stream' });
    return event.id;
  }

  it('one leader consumes; its session has the timeouts that let Postgres drop it when hung', async () => {
    const lease = leaseName('projections', randomUUID());
    const [seenA, seenB] = [[] as string[], [] as string[]];
    const a = consumer(lease, seenA);
    const b = consumer(lease, seenB);
    await Promise.all([a.instance.start(), b.instance.start()]);
    expect([a.instance.isLeader, b.instance.isLeader].filter(Boolean)).toHaveLength(1);
    const [leader, standby] = a.instance.isLeader ? [a, b] : [b, a];
    const client = leader.session()!.client;
    const setting = async (name: string) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name];
    expect(await setting('idle_in_transaction_session_timeout')).toBe('750ms');
    expect(await setting('statement_timeout')).toBe('1min');

    const id = await ping(1);
    await waitFor(async () => [...seenA, ...seenB].includes(id) || undefined, { timeoutMs: 15_000 });
    expect(await writes(lease)).toEqual([1]);

    // A clean stop hands over at once (well before the 1.5 s lease would expire).
    await leader.instance.stop();
    await waitFor(async () => standby.instance.isLeader || undefined, { timeoutMs: 15_000 });
    const next = await ping(2);
    await waitFor(async () => [...seenA, ...seenB].includes(next) || undefined, { timeoutMs: 15_000 });
    expect(await writes(lease)).toEqual([1, 2]);
    await standby.instance.stop();
  });

  it('stopped while it takes over, keeps neither the lease nor the log: the next consumer leads at once', async () => {
    const lease = leaseName('reactor', randomUUID());
    const seen: string[] = [];
    // Long lease: a lease kept by the stopped consumer would hold the next one back for a minute.
    const a = consumer(lease, seen, 60_000);
    const starting = a.instance.start();
    await a.instance.stop();
    await starting;
    expect(a.instance.isLeader).toBe(false);
    const b = consumer(lease, seen, 60_000);
    await b.instance.start();
    expect(b.instance.isLeader).toBe(true);
    await b.instance.stop();
  });

  it('stops consuming as soon as its lease is taken, and writes nothing more', async () => {
    const lease = leaseName('reactor', randomUUID());
    const seen: string[] = [];
    const a = consumer(lease, seen, 60_000);
    await a.instance.start();
    expect(a.instance.isLeader).toBe(true);
    const first = await ping(10);
    await waitFor(async () => seen.includes(first) || undefined, { timeoutMs: 15_000 });

    // Another holder takes the lease over (as after this process was paused past the expiry).
    const thief = await session();
    await pool.query(`UPDATE consumers.leases SET expires_at = clock_timestamp() WHERE name = $1`, [lease]);
    const stolen = await acquireLease(thief, lease, 'thief', 60_000);
    expect(stolen).not.toBeNull();
    await ping(11);
    await waitFor(async () => !a.instance.isLeader || undefined, { timeoutMs: 15_000 });
    expect(await writes(lease)).toEqual([10]);
    await a.instance.stop();
    thief.release(true);
  });
});
