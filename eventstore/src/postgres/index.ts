export { createPostgresEventStore, type PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';
export { appendStatement } from './append-statement.js';
export { formatPostgresPosition, parsePostgresPosition } from './positions.js';
export { notificationChannel, schemaDdl } from './schema.js';
export { productPoolConfig } from './pool-config.js';
