export { createKurrentEventStore, type KurrentEventStore, type KurrentEventStoreOptions } from './kurrent-event-store.js';
export { formatKurrentPosition, parseKurrentPosition } from './positions.js';
