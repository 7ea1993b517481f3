import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { reportStreamId } from '@fsm/contracts';
import { createBlobStore, createPostgresEventStore, type BlobStore, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { ProjectionRunner, readModelProjectors } from '@fsm/projections';

/*
 * What the workers' tests stand on: a database of their own with the event
 * store, a projection runner of the product's read models (started unless
 * asked not to) and a file store in a temporary folder.
 */

export interface ReadModelWorld {
  db: TestDatabase;
  pool: pg.Pool;
  store: EventStore & { migrate(): Promise<void> };
  runner: ProjectionRunner;
  blobs: BlobStore;
  dataDir: string;
  /** A new runner of the same read models (a test that stopped the first one starts this). */
  newRunner(): ProjectionRunner;
  /** Drops the store, the pool, the database and the folder (the caller stops its runners first). */
  close(): Promise<void>;
}

export async function openReadModelWorld(label: string, options: { startRunner?: boolean; poolSize?: number } = {}): Promise<ReadModelWorld> {
  const db = await createTestDatabase(label);
  const pool = new pg.Pool({ connectionString: db.url, max: options.poolSize ?? 12 });
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
  const newRunner = () => new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 100 });
  const runner = newRunner();
  await runner.migrate();
  if (options.startRunner ?? true) await runner.start();
  const dataDir = await mkdtemp(join(tmpdir(), `fsm-${label}-`));
  return {
    db,
    pool,
    store,
    runner,
    blobs: createBlobStore(join(dataDir, 'files')),
    dataDir,
    newRunner,
    async close() {
      await store.close();
      await pool.end();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 50 ms until it answers something truthy. */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The events of a report's stream (none yet: empty). */
export async function reportEvents(store: EventStore, reportId: string): Promise<RecordedEvent[]> {
  try {
    return await store.readStream(reportStreamId(reportId));
  } catch {
    return [];
  }
}
