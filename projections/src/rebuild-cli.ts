import { rebuildReadModels } from './maintenance.js';
import { runMaintenanceCommand } from './maintenance-cli.js';
import { describeStoppedProjector } from './stopped-projectors.js';

/**
 * `npm run rebuild`: builds every read model again from the whole log beside
 * the live ones, and swaps them in once caught up (blue-green.ts). When
 * a runner is already active (the app is running), it is asked to do it and
 * this command waits; otherwise this command does it itself. A read model
 * that fails on an event stops there and is listed; the others complete, and
 * the command exits with code 2 (docs/operations.md).
 */
runMaintenanceCommand('Échec de la reconstruction', async ({ pool, store, runner }) => {
  const started = Date.now();
  process.stdout.write('Reconstruction des vues…\n');
  const { ranHere, stopped } = await rebuildReadModels({ pool, store, runner });
  if (!ranHere) process.stdout.write('(faite par le processus de projections actif)\n');
  process.stdout.write(`Vues reconstruites en ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  if (stopped.length === 0) return 0;
  process.stdout.write(`${stopped.length} vue(s) arrêtée(s) ; les autres sont à jour :\n`);
  for (const projector of stopped) process.stdout.write(`  ${describeStoppedProjector(projector)}\n`);
  process.stdout.write('Réparation : docs/operations.md, section « Repair a stopped read model ».\n');
  return 2;
});
