import { createPostgresEventStore, parsePostgresPosition } from '@fsm/eventstore';
import { ProjectionRunner, readModelProjectors, RUNNER_SCHEMA } from '@fsm/projections';
import { lastCommittedPosition } from '../lib/log-end.js';
import type { StackProcess } from '../lib/stack-process.js';
import { sleep, type BenchDatabase } from './context.js';

export interface RebuildResult {
  events: number;
  /** Bare read of the whole log through the store's subscriber read (pages of 500), no projection. */
  readSeconds: number;
  readEventsPerSecond: number;
  /** Full rebuild by the running stack's projection runner (drop, recreate, replay). */
  rebuildSeconds: number;
  rebuildEventsPerSecond: number;
  peakRssMb: number;
}

export async function rebuildScenario(db: BenchDatabase, stack: StackProcess, say: (m: string) => void): Promise<RebuildResult> {
  const store = createPostgresEventStore({ pool: db.pool, notify: false });
  try {
    const head = await lastCommittedPosition(db.pool);
    if (head === null) throw new Error('journal vide');
    const total = Number((await db.pool.query<{ count: string }>('SELECT count(*) AS count FROM es.events')).rows[0]?.count ?? 0);

    say(`  lecture nue du journal (${total.toLocaleString('fr-FR')} événements)…`);
    let read = 0;
    let from: string | null = null;
    const readStarted = performance.now();
    for (;;) {
      const slice = await store.readAll({ from, maxCount: 500 });
      read += slice.events.length;
      from = slice.checkpoint;
      if (from !== null && store.comparePositions(from, head) >= 0) break;
      // Short page below our last commit: another transaction on the server holds the visibility bound back.
      if (slice.caughtUp) await sleep(20);
    }
    const readSeconds = (performance.now() - readStarted) / 1000;

    say('  reconstruction par la pile en marche…');
    stack.mark();
    const runner = new ProjectionRunner({ pool: db.pool, store, projectors: readModelProjectors });
    const rebuildStarted = performance.now();
    await runner.requestRebuild();
    let lastReport = performance.now();
    // The stack's runner drops the read models, then replays up to (at least) today's head.
    await sleep(200);
    for (;;) {
      const { rows } = await db.pool.query<{ position: string | null; rebuild_requested: boolean }>(`SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [runner.name]);
      const row = rows[0];
      if (row && !row.rebuild_requested && row.position !== null && store.comparePositions(row.position, head) >= 0) break;
      if (performance.now() - lastReport > 15_000 && row?.position) {
        lastReport = performance.now();
        const at = Number(parsePostgresPosition(row.position).globalPosition);
        say(`    ${at.toLocaleString('fr-FR')} / ${total.toLocaleString('fr-FR')}`);
      }
      await sleep(100);
    }
    const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
    const collected = await stack.collect();
    return {
      events: total,
      readSeconds,
      readEventsPerSecond: read / readSeconds,
      rebuildSeconds,
      rebuildEventsPerSecond: total / rebuildSeconds,
      peakRssMb: collected.peakRssMb,
    };
  } finally {
    await store.close();
  }
}
