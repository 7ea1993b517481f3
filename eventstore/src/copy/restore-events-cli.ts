#!/usr/bin/env node
import { parseArgs } from 'node:util';
import pg from 'pg';
import { RebaseRefusedError, rebasePositions } from '../postgres/rebase-positions.js';

/*
 * npm run restore-events [-- --url <postgres://…>]   (default: $DATABASE_URL)
 *
 * Run once after a pg_dump of the database (or of es + jobs) is restored onto a
 * server, before any role starts: see docs/operations.md. Running it again, or
 * on a database that was never moved, changes nothing.
 */

const USAGE = 'usage : npm run restore-events [-- --url <postgres://…>]   (par défaut : DATABASE_URL)';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { url: { type: 'string' }, help: { type: 'boolean' } } });
  const url = values.url ?? process.env.DATABASE_URL?.trim();
  if (values.help || !url) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  // The checkpoints then hold KurrentDB positions (an old es schema may remain after the move): mapping them onto it would corrupt them.
  if (process.env.EVENTSTORE_URL?.trim()) {
    console.error("Refusé, rien n'a changé : EVENTSTORE_URL est défini, le journal est dans KurrentDB, dont les positions ne dépendent pas du serveur Postgres.");
    return 3;
  }
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'restore-events' });
  try {
    const result = await rebasePositions(pool);
    console.log(JSON.stringify(result));
    console.error(
      result.eventsRenumbered === 0
        ? `Terminé : les ${result.events} événements étaient déjà dans la numérotation de ce serveur, rien n'a changé.`
        : `Terminé : ${result.eventsRenumbered} événement(s) sur ${result.events} recalé(s), points de reprise reportés. Les rôles peuvent démarrer.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RebaseRefusedError) {
      console.error(`Refusé, rien n'a changé : ${error.message}`);
      return 3;
    }
    throw error;
  } finally {
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
