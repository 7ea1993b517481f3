import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EnvError, parseEnv } from '@fsm/contracts';
import { RestoreNeededError, createRoleLogger, openRoleStore } from '@fsm/eventstore';
import { startAllRoles } from './all-roles.js';
import { ensurePostgres, ensureRedis } from './local-services.js';

/**
 * `npm start`: API, projections, workers and the built web UI in one process,
 * with local Postgres/Redis started when none answers. Each role also runs
 * alone (`npm start -w <role>`) for deployments that scale them apart.
 */
async function main(): Promise<void> {
  const parsed = parseEnv(process.env);
  const logger = createRoleLogger({ level: parsed.LOG_LEVEL, name: 'fsm' });
  const postgres = await ensurePostgres(parsed.DATABASE_URL, parsed.DATA_DIR, logger);
  const redis = await ensureRedis(parsed.REDIS_URL, parsed.DATA_DIR, logger);
  const env = { ...parsed, DATABASE_URL: postgres.url, REDIS_URL: redis.url };

  const { pool, store } = await openRoleStore(env, logger, 20);
  const webRoot = env.WEB_ROOT ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  if (!existsSync(webRoot)) logger.warn({ webRoot }, 'interface web non construite : lancez `npm run build`');
  const roles = await startAllRoles({ env, pool, store, logger, webRoot, leaseMs: env.LEADER_LEASE_MS });

  process.stdout.write(`\n  Application prête : ${env.PUBLIC_URL}\n  Santé : ${env.PUBLIC_URL}/api/health\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'arrêt');
    await roles.close();
    await redis.stop();
    await postgres.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Both say what to do; a stack would only hide it.
  if (error instanceof EnvError || error instanceof RestoreNeededError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Démarrage impossible : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
