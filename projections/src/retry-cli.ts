import pg from 'pg';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { retryStoppedReadModels } from './maintenance.js';
import { readModelProjectors } from './read-models/index.js';
import { ProjectionRunner } from './runner.js';
import { describeStoppedProjector } from './stopped-projectors.js';

/**
 * `npm run retry-projections`: the active projections runner tries its
 * stopped read models again from their own checkpoints, without a restart
 * (a restart does the same). Exits with code 2 when some stopped again.
 */
async function main(): Promise<number> {
  const env = parseEnv(process.env);
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 500 });
  try {
    await runner.migrate();
    const { retried, stopped } = await retryStoppedReadModels({ pool, store, runner });
    if (retried.length === 0) {
      process.stdout.write('Aucune vue arrêtée.\n');
      return 0;
    }
    const names = (list: readonly { projector: string }[]) => list.map((row) => `« ${row.projector} »`).join(', ');
    const resumed = retried.filter((row) => !stopped.some((again) => again.projector === row.projector));
    if (resumed.length > 0) process.stdout.write(`Vue(s) reprise(s) et à jour : ${names(resumed)}.\n`);
    if (stopped.length === 0) return 0;
    process.stdout.write(`${stopped.length} vue(s) toujours arrêtée(s) :\n`);
    for (const projector of stopped) process.stdout.write(`  ${describeStoppedProjector(projector)}\n`);
    return 2;
  } finally {
    await runner.stop();
    await store.close();
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Échec de la reprise des vues : ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
