import { parseEnv } from '@fsm/contracts';
import { createRoleLogger, openRoleStore, runRole } from '@fsm/eventstore';
import { startWorkers } from './start-workers.js';

/** The workers role alone (`npm start -w workers`). */
runRole(async () => {
  const env = parseEnv(process.env);
  const logger = createRoleLogger({ level: env.LOG_LEVEL, name: 'workers' });
  const { pool, store, close } = await openRoleStore(env, logger, 6);
  const workers = await startWorkers({ env, pool, store, logger });
  return async () => {
    await workers.close();
    await close();
  };
});
