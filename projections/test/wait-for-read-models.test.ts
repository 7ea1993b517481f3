import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { eventByEvent, type Projector } from '../src/projector.js';
import { readModelsReached, waitForReadModels } from '../src/read-models-wait.js';
import { ProjectionRunner } from '../src/runner/runner.js';
import { event, testProjector } from './support.js';

/*
 * Issue 20: the report worker read `proj.checkpoints` by name and rendered
 * whatever the read models held. `waitForReadModels` answers for the read
 * models a caller needs: each one at or past the position, none stopped, none
 * missing; it is what the workers wait on before reading reference data.
 */

let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
let runner: ProjectionRunner | undefined;

beforeAll(async () => {
  db = await createTestDatabase('projections_wait');
  pool = new pg.Pool({ connectionString: db.url, max: 6 });
  pool.on('error', () => undefined);
  store = createPostgresEventStore({ pool, pollIntervalMs: 50, retryDelayMs: 100 });
  await store.migrate();
});

afterAll(async () => {
  await runner?.stop();
  await store?.close();
  await pool?.end();
  await db?.drop();
});

/** Keeps labels in a varchar(12): a longer one fails every time, and the runner stops this read model alone. */
const narrowLabels: Projector = {
  name: 'w_labels',
  version: 1,
  handles: ['Renamed'],
  setupSql: 'CREATE TABLE IF NOT EXISTS rm.w_labels (stream_id text PRIMARY KEY, label varchar(12))',
  apply: eventByEvent(async (tx, e) => {
    await tx.query('INSERT INTO rm.w_labels VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET label = EXCLUDED.label', [e.streamId, (e.data as { label: string }).label]);
    return [e.streamId];
  }),
};

const target = () => ({ db: pool, compare: (a: string, b: string) => store.comparePositions(a, b) });
const RUNNER = 'w';

async function append(type: string, data: Record<string, unknown> = {}): Promise<RecordedEvent> {
  const stream = `w-${randomUUID()}`;
  await store.appendToStream(stream, [event(type, data)], { expectedRevision: 'no_stream' });
  return (await store.readStream(stream))[0]!;
}

describe('waitForReadModels', () => {
  it('answers false while no runner has built the read models', async () => {
    const first = await append('Counted');
    expect(await readModelsReached(target(), first.position, { runner: RUNNER })).toBe(false);
    expect(await waitForReadModels(target(), first.position, { runner: RUNNER, readModels: ['w_counts'] })).toBe(false);
  });

  it('answers for the read models asked: reached, unknown, stopped (whatever its checkpoint), or all of them', async () => {
    runner = new ProjectionRunner({ pool, store, name: RUNNER, projectors: [testProjector('w_counts'), narrowLabels], standbyRetryMs: 50 });
    await runner.migrate();
    await runner.start();

    const counted = await append('Counted');
    expect(await waitForReadModels(target(), counted.position, { runner: RUNNER, timeoutMs: 15_000 })).toBe(true);
    expect(await readModelsReached(target(), counted.position, { runner: RUNNER, readModels: ['w_counts', 'w_labels'] })).toBe(true);
    // A name the runner has never built (a newer read model, a typo) is not there.
    expect(await readModelsReached(target(), counted.position, { runner: RUNNER, readModels: ['w_counts', 'w_unknown'] })).toBe(false);

    const poison = await append('Renamed', { label: 'un libellé bien trop long pour la colonne' });
    const after = await append('Counted');
    expect(await waitForReadModels(target(), after.position, { runner: RUNNER, readModels: ['w_counts'], timeoutMs: 15_000 })).toBe(true);
    expect(runner.stoppedProjectors.map((stopped) => stopped.projector)).toEqual(['w_labels']);
    expect(runner.stoppedProjectors[0]!.position).toBe(poison.position);

    // The stopped one is short of `after`; it holds `counted`, yet counts as not there: its repair may rebuild it.
    expect(await readModelsReached(target(), after.position, { runner: RUNNER, readModels: ['w_labels'] })).toBe(false);
    expect(await readModelsReached(target(), counted.position, { runner: RUNNER, readModels: ['w_labels'] })).toBe(false);
    expect(await readModelsReached(target(), after.position, { runner: RUNNER })).toBe(false);
    expect(await waitForReadModels(target(), after.position, { runner: RUNNER, timeoutMs: 300, pollIntervalMs: 50 })).toBe(false);
    // The read models that did not stop answer as before.
    expect(await readModelsReached(target(), after.position, { runner: RUNNER, readModels: ['w_counts'] })).toBe(true);
  });
});
