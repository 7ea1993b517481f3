export * from './port.js';
export * from './errors.js';
export { comparePositionPairs } from './positions.js';
export { createEventStore, type ConfiguredEventStore, type CreateEventStoreOptions, type EventStoreEnv } from './create-event-store.js';
export * from './postgres/index.js';
export * from './kurrent/index.js';
export * from './blobs/blob-store.js';
export * from './copy/copy-events.js';
export { storeForUrl } from './copy/store-for-url.js';
