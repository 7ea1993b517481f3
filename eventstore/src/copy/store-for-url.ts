import { createEventStore, type ConfiguredEventStore } from '../create-event-store.js';

/** The store a URL names, chosen the way `createEventStore` chooses from the environment. */
export function storeForUrl(url: string): ConfiguredEventStore {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return createEventStore({ DATABASE_URL: url });
  if (/^(kurrentdb|kdb|esdb|eventstore)(\+discover)?$/.test(scheme)) return createEventStore({ EVENTSTORE_URL: url });
  throw new Error(`not an event-store URL: ${url.replace(/\/\/[^@/]*@/, '//…@')}`);
}
