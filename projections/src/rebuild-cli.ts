import pg from 'pg';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { readModelProjectors } from './read-models/index.js';
import { ProjectionRunner, RUNNER_SCHEMA } from './runner.js';

/**
 * `npm run rebuild`: drops every read model and replays the whole log. When
 * a runner is already active (the app is running), it is asked to do it and
 * this command waits; otherwise this command does it itself.
 */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 500 });
  const started = Date.now();
  try {
    await runner.migrate();
    const head = await store.headPosition();
    await runner.requestRebuild();
    await runner.start();
    process.stdout.write(runner.isActive ? 'Reconstruction des vues…\n' : 'Un processus de projections est actif : il reconstruit les vues…\n');
    for (;;) {
      const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(
        `SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
        [runner.name],
      );
      const row = rows[0];
      const done = row && !row.rebuild_requested && (head === null || (row.position !== null && store.comparePositions(row.position, head) >= 0));
      if (done) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    process.stdout.write(`Vues reconstruites en ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  } finally {
    await runner.stop();
    await store.close();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Échec de la reconstruction : ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
