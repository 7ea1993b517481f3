import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chronoAllocatedSchema, ticketEventSchema, parseNumChrono } from '@fsm/contracts';
import { createPostgresEventStore } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { ProjectionRunner, RUNNER_SCHEMA, eventByEvent, readModelProjectors, type Projector } from '@fsm/projections';
import { ticketDecider, type TicketState } from '@fsm/command-api/test-support';
import { lastCommittedPosition } from '../../bench/lib/log-end.js';
import { runSeed, type SeedReport } from '../../bench/seed.js';

/*
 * The bench generator (bench/seed.ts) at a tiny N: its history must fold into
 * valid tickets with the product's own decider, its counters must hand out
 * each number once, and the set-based projectors given whole batches must
 * build the same read models as given one event at a time.
 */

interface EventRow {
  stream_id: string;
  stream_version: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

let db: TestDatabase;
let pool: pg.Pool;
let report: SeedReport;
let events: EventRow[];

beforeAll(async () => {
  db = await createTestDatabase('bench_smoke');
  report = await runSeed({ tickets: 400, database: db.name, url: db.url, days: 40, seed: 7, quiet: true, chunkEvents: 300 });
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  events = (await pool.query<EventRow>(`SELECT stream_id, stream_version, type, data, metadata FROM es.events ORDER BY global_position`)).rows;
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

function ticketStates(): Map<string, TicketState> {
  const states = new Map<string, TicketState>();
  for (const row of events.filter((e) => e.stream_id.startsWith('ticket-'))) {
    const previous = states.get(row.stream_id) ?? ticketDecider.initialState;
    const next = ticketDecider.evolve(previous, ticketEventSchema.parse({ type: row.type, data: row.data }));
    // evolve answers the same state for an event that does not fit: the generator must never write one.
    if (next === previous) throw new Error(`${row.type} does not fit ${previous.status} in ${row.stream_id}`);
    states.set(row.stream_id, next);
  }
  return states;
}

describe('bench seed at a tiny N', () => {
  it('writes every ticket as a valid sequence of product events, with some in each status', async () => {
    const states = ticketStates();
    expect(states.size).toBe(400);
    expect(report.tickets).toBe(400);
    const counts: Record<string, number> = {};
    for (const state of states.values()) counts[state.status] = (counts[state.status] ?? 0) + 1;
    expect(counts.clos).toBeGreaterThan(200);
    expect((counts.ouvert ?? 0) + (counts.en_cours ?? 0) + (counts.intervention ?? 0)).toBeGreaterThan(0);
    expect(Object.keys(counts).sort()).not.toContain('nonexistent');
    // The read model, rebuilt by the seed, says the same.
    const { rows } = await pool.query<{ statut: string; count: number }>(`SELECT statut, count(*)::int AS count FROM rm.tickets GROUP BY statut`);
    expect(Object.fromEntries(rows.map((row) => [row.statut, row.count]))).toEqual(counts);
    expect(report.byType.ReinterventionRecorded ?? 0).toBeGreaterThan(0);
    expect(report.byType.QuoteValidated ?? 0).toBeGreaterThan(0);
  });

  it('draws each num_chrono once, in counter order, for the ticket that carries it', () => {
    const opened = new Map<string, string>();
    for (const row of events.filter((e) => e.type === 'TicketOpened')) {
      const data = row.data as { ticketId: string; numChrono: string };
      opened.set(data.ticketId, data.numChrono);
    }
    expect(new Set(opened.values()).size).toBe(opened.size);
    const chrono = events.filter((e) => e.stream_id.startsWith('chrono-'));
    expect(chrono).toHaveLength(400);
    for (const row of chrono) {
      const { seq, ticketId } = chronoAllocatedSchema.parse({ type: row.type, data: row.data }).data;
      expect(seq).toBe(Number(row.stream_version) + 1);
      const parts = parseNumChrono(opened.get(ticketId) ?? '');
      expect(parts && `chrono-${parts.agencyCode}-${parts.year}`).toBe(row.stream_id);
      expect(parts?.sequence).toBe(seq);
    }
  });

  it('records who, why and when in every event’s metadata', () => {
    for (const row of events.filter((e) => e.stream_id.startsWith('ticket-'))) {
      expect(typeof row.metadata.correlationId).toBe('string');
      expect(row.metadata.causationId).toBeNull();
      expect(Date.parse(String(row.metadata.originalRecordedAt))).not.toBeNaN();
    }
    const taken = events.filter((e) => e.type === 'TicketTakenInCharge');
    expect(taken.every((row) => typeof row.metadata.userId === 'string')).toBe(true);
  });

  it('builds the same read models with set-based batches as one event at a time', async () => {
    const fingerprint = async () => {
      const hash = createHash('sha256');
      for (const table of ['tickets', 'ticket_sla', 'ticket_interventions']) {
        const { rows } = await pool.query(`SELECT * FROM rm.${table} ORDER BY 1`);
        hash.update(`${table}:${JSON.stringify(rows)}`);
      }
      return hash.digest('hex');
    };
    const batched = await fingerprint();
    // The same writers, fed one event at a time (batches of one).
    const oneByOne: Projector[] = readModelProjectors.map((projector) => ({ ...projector, apply: eventByEvent((tx, event) => projector.apply(tx, [event])) }));
    const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
    const runner = new ProjectionRunner({ pool, store, projectors: oneByOne, standbyRetryMs: 100 });
    try {
      const head = await lastCommittedPosition(pool);
      await runner.requestRebuild();
      await runner.start();
      for (const deadline = Date.now() + 120_000; ; ) {
        const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(`SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [runner.name]);
        const row = rows[0];
        if (row && !row.rebuild_requested && row.position !== null && head !== null && store.comparePositions(row.position, head) >= 0) break;
        if (Date.now() > deadline) throw new Error('rebuild did not finish');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await runner.stop();
      await store.close();
    }
    expect(await fingerprint()).toBe(batched);
  }, 180_000);
});
