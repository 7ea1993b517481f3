import type pg from 'pg';
import { createKurrentEventStore } from './kurrent/kurrent-event-store.js';
import type { EventStore } from './port.js';
import { createPostgresEventStore } from './postgres/postgres-event-store.js';

/** An event store of either kind, with the one set-up step callers must run before use. */
export interface ConfiguredEventStore extends EventStore {
  /** Creates the Postgres schema (idempotent, safe from several processes); nothing on KurrentDB. */
  migrate(): Promise<void>;
}

export interface EventStoreEnv {
  /** When set, KurrentDB/EventStoreDB at this connection string is the event store. */
  EVENTSTORE_URL?: string | undefined;
  /** The Postgres used otherwise. */
  DATABASE_URL?: string | undefined;
  [key: string]: string | undefined;
}

export interface CreateEventStoreOptions {
  /** Share the application's Postgres pool instead of opening one (Postgres only). */
  pool?: pg.Pool;
  onBackgroundError?: (error: unknown) => void;
}

/**
 * Picks the adapter from the environment: KurrentDB when `EVENTSTORE_URL` is
 * set, the embedded Postgres store otherwise (the zero-configuration default).
 */
export function createEventStore(env: EventStoreEnv, options: CreateEventStoreOptions = {}): ConfiguredEventStore {
  const kurrentUrl = env.EVENTSTORE_URL?.trim();
  if (kurrentUrl) return createKurrentEventStore({ connectionString: kurrentUrl });
  return createPostgresEventStore({
    ...(options.pool ? { pool: options.pool } : { connectionString: env.DATABASE_URL?.trim() || undefined }),
    ...(options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {}),
  });
}
