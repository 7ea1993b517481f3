import type pg from 'pg';
import type { Logger } from 'pino';
import type { Env } from '@fsm/contracts';
import type { EventStore } from '@fsm/eventstore';
import { createQueues } from './queues.js';
import { Reactor, type Reaction } from './reactor.js';

/** What turns events into jobs. Reports and e-mails join this list with their processors. */
export const reactions: readonly Reaction[] = [];

export interface RunningWorkers {
  reactor: Reactor;
  close(): Promise<void>;
}

export async function startWorkers(options: { env: Env; pool: pg.Pool; store: EventStore; logger: Logger }): Promise<RunningWorkers> {
  const queues = createQueues(options.env.REDIS_URL);
  const reactor = new Reactor({
    pool: options.pool,
    store: options.store,
    reactions,
    enqueue: queues.enqueue,
    logger: options.logger.child({ role: 'reactor' }),
  });
  await reactor.migrate();
  await reactor.start();
  return {
    reactor,
    async close() {
      await reactor.stop();
      await queues.close();
    },
  };
}
