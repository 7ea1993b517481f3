import pino from 'pino';
import { QUEUE_NAMES, type Queues } from '../../src/queues.js';

/** The Redis the workers' tests use: REDIS_URL, or the local one. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The logger tests start workers with. */
export const silentLogger = pino({ level: 'silent' });

/** Empties every queue of `queues` (a test's own prefix) in Redis. */
export async function obliterateQueues(queues: Queues): Promise<void> {
  for (const name of QUEUE_NAMES) await queues.get(name).obliterate({ force: true }).catch(() => undefined);
}
