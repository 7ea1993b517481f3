import pg from 'pg';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { rebuildReadModels } from './maintenance.js';
import { readModelProjectors } from './read-models/index.js';
import { ProjectionRunner } from './runner.js';
import { describeStoppedProjector } from './stopped-projectors.js';

/**
 * `npm run rebuild`: drops every read model and replays the whole log. When
 * a runner is already active (the app is running), it is asked to do it and
 * this command waits; otherwise this command does it itself. A read model
 * that fails on an event stops there and is listed; the others complete, and
 * the command exits with code 2 (docs/operations.md).
 */
async function main(): Promise<number> {
  const env = parseEnv(process.env);
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 500 });
  const started = Date.now();
  try {
    await runner.migrate();
    process.stdout.write('Reconstruction des vues…\n');
    const { ranHere, stopped } = await rebuildReadModels({ pool, store, runner });
    if (!ranHere) process.stdout.write('(faite par le processus de projections actif)\n');
    process.stdout.write(`Vues reconstruites en ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
    if (stopped.length === 0) return 0;
    process.stdout.write(`${stopped.length} vue(s) arrêtée(s) ; les autres sont à jour :\n`);
    for (const projector of stopped) process.stdout.write(`  ${describeStoppedProjector(projector)}\n`);
    process.stdout.write('Réparation : docs/operations.md, section « Repair a stopped read model ».\n');
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
    process.stderr.write(`Échec de la reconstruction : ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
