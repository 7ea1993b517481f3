export { createPostgresEventStore, type PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';
export { appendStatement } from './append-statement.js';
export { formatPostgresPosition, parsePostgresPosition } from './positions.js';
export { notificationChannel, schemaDdl } from './schema.js';
export { productPoolConfig } from './pool-config.js';
export { rebasePositions, RebaseRefusedError, REBASED_TRANSACTION_ID, type RebaseResult } from './rebase-positions.js';
export { rebaseRestoredLogAtStart, restoredLogNeedsRebase, restoreNeededMessage, RestoreNeededError, RESTORE_EVENTS_COMMAND } from './restored-log.js';
