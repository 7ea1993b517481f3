import { parseEnv } from '@fsm/contracts';
import { createRoleLogger, openRoleStore, runRole } from '@fsm/eventstore';
import { createRedisProbe } from './redis-probe.js';
import { startApi } from './start-api.js';

/** The API role alone (`npm start -w command-api`); projections and workers run elsewhere. */
runRole(async () => {
  const env = parseEnv(process.env);
  const logger = createRoleLogger({ level: env.LOG_LEVEL, name: 'command-api' });
  const { pool, store, close } = await openRoleStore(env, logger, 20);
  const redis = createRedisProbe(env.REDIS_URL);
  const api = await startApi({ env, pool, store, logger, redisPing: () => redis.ping(), webRoot: env.WEB_ROOT });
  logger.info({ url: api.url }, 'API prête');
  return async () => {
    await api.close();
    await redis.close();
    await close();
  };
});
