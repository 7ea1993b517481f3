import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiHarness } from '../../src/test-support/api-harness.js';

/*
 * What "nothing changed" means in the security tests: the event store's rows
 * (count, last global position, every stream's version) and the file store's
 * files. Read straight from the tables: the store's headPosition() is what a
 * subscriber may see (below the snapshot's xmin), which can move after an
 * earlier commit becomes visible, not only after a new append.
 */

export async function eventStoreState(h: ApiHarness): Promise<string> {
  const { rows } = await h.pool.query<{ events: string; last: string | null; streams: string; versions: string | null }>(
    `SELECT (SELECT count(*) FROM es.events)::text AS events,
            (SELECT max(global_position) FROM es.events)::text AS last,
            (SELECT count(*) FROM es.streams)::text AS streams,
            (SELECT sum(version) FROM es.streams)::text AS versions`,
  );
  const row = rows[0]!;
  return `events=${row.events} last=${row.last ?? '-'} streams=${row.streams} versions=${row.versions ?? '0'}`;
}

export async function storedFiles(h: ApiHarness): Promise<string[]> {
  try {
    const entries = await readdir(join(h.deps.env.DATA_DIR, 'files'), { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}
