import { parseEnv } from '@fsm/contracts';
import { createRoleLogger, openRoleStore, runRole } from '@fsm/eventstore';
import { startProjections } from './start-projections.js';

/** The projections role alone (`npm start -w projections`). */
runRole(async () => {
  const env = parseEnv(process.env);
  const logger = createRoleLogger({ level: env.LOG_LEVEL, name: 'projections' });
  const { pool, store, close } = await openRoleStore(env, logger, 4);
  const runner = await startProjections({ pool, store, logger, leaseMs: env.LEADER_LEASE_MS });
  // The runner's retry timers are unref'd (tests and the launcher must be able to exit).
  // While Postgres is down this role holds no connection at all, so nothing else would
  // keep the process alive: it would exit silently instead of retrying. Hold it until SIGTERM.
  const keepAlive = setInterval(() => undefined, 60_000);
  return async () => {
    clearInterval(keepAlive);
    await runner.stop();
    await close();
  };
});
