import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EventStore, NewEvent, RecordedEvent } from '@fsm/eventstore';
import { eventByEvent, type Projector } from '../src/projector.js';

/** Polls until `check` is true; tests wait on conditions, never on fixed delays. */
export async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function event(type: string, data: Record<string, unknown> = {}): NewEvent {
  return { id: randomUUID(), type, data, metadata: { userId: null, correlationId: randomUUID(), causationId: null } };
}

/**
 * A read model written idempotently (keyed on stream and revision), plus a
 * deliberately non-idempotent counter: if the runner ever applied an event
 * twice, `applied` would exceed the number of events.
 */
export function testProjector(name = 'test_counts', version = 1): Projector {
  return {
    name,
    version,
    handles: ['Counted', 'Renamed'],
    setupSql: `
      CREATE TABLE IF NOT EXISTS rm.${name} (stream_id text PRIMARY KEY, count int NOT NULL, last_revision int NOT NULL, label text);
      CREATE TABLE IF NOT EXISTS rm.${name}_applied (id int PRIMARY KEY, applied int NOT NULL);
      INSERT INTO rm.${name}_applied VALUES (1, 0) ON CONFLICT DO NOTHING;`,
    apply: eventByEvent(async (tx: pg.PoolClient, e: RecordedEvent) => {
      await tx.query(`UPDATE rm.${name}_applied SET applied = applied + 1 WHERE id = 1`);
      if (e.type === 'Counted') {
        await tx.query(
          `INSERT INTO rm.${name} (stream_id, count, last_revision) VALUES ($1, 1, $2)
           ON CONFLICT (stream_id) DO UPDATE SET count = rm.${name}.count + 1, last_revision = $2
           WHERE rm.${name}.last_revision < $2`,
          [e.streamId, e.revision],
        );
      } else {
        const label = (e.data as { label?: string }).label ?? null;
        await tx.query(`UPDATE rm.${name} SET label = $2, last_revision = $3 WHERE stream_id = $1 AND last_revision < $3`, [e.streamId, label, e.revision]);
      }
      return [e.streamId];
    }),
  };
}

export async function rows(pool: pg.Pool, name = 'test_counts'): Promise<unknown[]> {
  const result = await pool.query(`SELECT stream_id, count, last_revision, label FROM rm.${name} ORDER BY stream_id`);
  return result.rows;
}

export async function appliedCount(pool: pg.Pool, name = 'test_counts'): Promise<number> {
  const result = await pool.query<{ applied: number }>(`SELECT applied FROM rm.${name}_applied WHERE id = 1`);
  return result.rows[0]?.applied ?? -1;
}

/**
 * Appends `perStream` events to each of `streams` streams, interleaved, in small
 * batches. Returns the count and the highest position written: tests wait for
 * that position rather than the head, which other databases' transactions on
 * the same server can hold back.
 */
export async function writeHistory(store: EventStore, streams: string[], perStream: number): Promise<number> {
  const { count } = await writeHistoryAt(store, streams, perStream);
  return count;
}

export async function writeHistoryAt(store: EventStore, streams: string[], perStream: number): Promise<{ count: number; last: string }> {
  let written = 0;
  let last = '';
  for (let round = 0; round < perStream; round++) {
    await Promise.all(
      streams.map(async (stream) => {
        const events = round % 3 === 2 ? [event('Renamed', { label: `${stream}-${round}` })] : [event('Counted'), event('Counted')];
        const result = await store.appendToStream(stream, events, { expectedRevision: 'any' });
        if (store.comparePositions(result.position, last || result.position) >= 0) last = result.position;
        written += events.length;
      }),
    );
  }
  return { count: written, last };
}
