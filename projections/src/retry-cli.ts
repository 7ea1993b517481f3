import { retryStoppedReadModels } from './maintenance.js';
import { runMaintenanceCommand } from './maintenance-cli.js';
import { describeStoppedProjector } from './stopped-projectors.js';

/**
 * `npm run retry-projections`: the active projections runner tries its
 * stopped read models again from their own checkpoints, without a restart
 * (a restart does the same). Exits with code 2 when some stopped again.
 */
runMaintenanceCommand('Échec de la reprise des vues', async ({ pool, store, runner }) => {
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
});
