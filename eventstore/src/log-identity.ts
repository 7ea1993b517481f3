import type { EventStore } from './port.js';

/**
 * The Redis key prefix of one deployment (its BullMQ queues, its rate-limit
 * counters): named after its log's identity, so two deployments on one Redis
 * never see each other's keys (issue 32). The API and the workers of one
 * deployment derive the same prefix from the same log.
 */
export async function deploymentKeyPrefix(store: Pick<EventStore, 'logIdentity'>): Promise<string> {
  return `fsm-${await store.logIdentity()}`;
}
