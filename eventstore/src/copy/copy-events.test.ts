import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/pg-database.js';
import type { EventStore, NewEvent, RecordedEvent } from '../port.js';
import { createPostgresEventStore, type PostgresEventStore } from '../postgres/index.js';
import { CopyDivergenceError, ORIGINAL_RECORDED_AT, copyEvents } from './copy-events.js';

const databases: TestDatabase[] = [];
const stores: PostgresEventStore[] = [];

async function freshStore(label: string): Promise<{ store: PostgresEventStore; db: TestDatabase }> {
  const db = await createTestDatabase(label);
  databases.push(db);
  const store = createPostgresEventStore({ connectionString: db.url, pollIntervalMs: 50 });
  stores.push(store);
  await store.migrate();
  return { store, db };
}

afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await Promise.allSettled(databases.map((d) => d.drop()));
});

async function readOnce(store: EventStore): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let from: string | null = null;
  for (;;) {
    const slice = await store.readAll({ from, maxCount: 100 });
    all.push(...slice.events);
    from = slice.checkpoint ?? from;
    if (slice.caughtUp || slice.events.length === 0) return all;
  }
}

/**
 * The whole log once `expected` events are readable. Readers see an append only
 * when every older transaction of the cluster has ended (docs/event-store.md),
 * so with other test files writing in parallel an append can take a moment to show.
 */
async function readEverything(store: EventStore, expected: number): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const all = await readOnce(store);
    if (all.length >= expected || Date.now() > deadline) return all;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const event = (type: string, n: number): NewEvent => ({
  id: randomUUID(),
  type,
  data: { n, nested: { label: `événement ${n}`, list: [n, n + 1] } },
  metadata: { userId: `user-${n % 3}`, userName: 'Jeanne Dupont', correlationId: randomUUID(), causationId: null, extra: { n } },
});

/** Interleaved appends to several streams, some of several events, so runs and pages cut across streams. */
async function writeHistory(store: EventStore, streams: string[], rounds: number, start = 0): Promise<number> {
  const revisions = new Map<string, number>();
  for (const s of streams) {
    try {
      const [last] = await store.readStream(s, { direction: 'backwards', maxCount: 1 });
      revisions.set(s, last!.revision);
    } catch {
      revisions.set(s, -1);
    }
  }
  let n = start;
  for (let round = 0; round < rounds; round++) {
    for (const [i, s] of streams.entries()) {
      const size = ((round + i) % 3) + 1;
      const batch = Array.from({ length: size }, () => event(`Thing${(n % 4) + 1}Happened`, n++));
      const rev = revisions.get(s)!;
      const result = await store.appendToStream(s, batch, { expectedRevision: rev === -1 ? 'no_stream' : rev });
      revisions.set(s, result.nextExpectedRevision);
    }
  }
  return n - start;
}

function expectSameLog(source: RecordedEvent[], target: RecordedEvent[]): void {
  expect(target.map((e) => e.id)).toEqual(source.map((e) => e.id)); // same ids, same global order
  target.forEach((copy, i) => {
    const original = source[i]!;
    expect(copy.streamId).toBe(original.streamId);
    expect(copy.revision).toBe(original.revision);
    expect(copy.type).toBe(original.type);
    expect(copy.data).toEqual(original.data);
    const { [ORIGINAL_RECORDED_AT]: kept, ...metadata } = copy.metadata;
    expect(kept).toBe(original.metadata.recordedAt);
    expect(metadata).toEqual(original.metadata); // recordedAt included: reads report the original time
  });
}

describe('copyEvents, Postgres → Postgres', () => {
  let source: PostgresEventStore;
  let written = 0;
  const streams = ['ticket-a', 'ticket-b', 'client-c', 'user-d'];

  beforeAll(async () => {
    ({ store: source } = await freshStore('copy_src'));
    written = await writeHistory(source, streams, 6);
  });

  it('copies every event with its id, type, data, metadata, revision, in the global order', async () => {
    const { store: target } = await freshStore('copy_dst');
    const sourceLog = await readEverything(source, written);
    expect(sourceLog.length).toBe(written);
    const progress: number[] = [];
    const result = await copyEvents({ source, target, batchSize: 7, onProgress: (p) => progress.push(p.read) });
    expect(result).toMatchObject({ read: sourceLog.length, copied: sourceLog.length, alreadyPresent: 0, skippedSystem: 0 });
    expect(result.checkpoint).toBe(sourceLog.at(-1)!.position);
    expect(progress.length).toBeGreaterThan(3);
    expectSameLog(sourceLog, await readEverything(target, written));
    for (const s of streams) {
      expect((await target.readStream(s)).map((e) => e.id)).toEqual((await source.readStream(s)).map((e) => e.id));
    }

    // A re-run copies nothing twice.
    const again = await copyEvents({ source, target, batchSize: 11 });
    expect(again).toMatchObject({ read: sourceLog.length, copied: 0, alreadyPresent: sourceLog.length });
    expectSameLog(sourceLog, await readOnce(target));

    // New events in the source: resumed from the checkpoint, only they are copied.
    written += await writeHistory(source, [...streams, 'site-e'], 2, 1000);
    const longer = await readEverything(source, written);
    const resumed = await copyEvents({ source, target, after: result.checkpoint, batchSize: 5 });
    expect(resumed.copied).toBe(longer.length - sourceLog.length);
    expectSameLog(longer, await readEverything(target, written));
  });

  it('finishes an interrupted copy on a re-run, whatever the page size, without duplicates', async () => {
    const { store: target } = await freshStore('copy_cut');
    const sourceLog = await readEverything(source, written);
    let appends = 0;
    const failing: EventStore = {
      ...target,
      appendToStream: async (stream, events, options) => {
        if (++appends > 9) throw new Error('connection lost');
        return target.appendToStream(stream, events, options);
      },
      readStream: (stream, options) => target.readStream(stream, options),
    };
    await expect(copyEvents({ source, target: failing, batchSize: 4 })).rejects.toThrow('connection lost');
    const partial = await readEverything(target, 1);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(sourceLog.length);

    const rerun = await copyEvents({ source, target, batchSize: 13 });
    expect(rerun.copied + rerun.alreadyPresent).toBe(sourceLog.length);
    expect(rerun.alreadyPresent).toBeGreaterThanOrEqual(partial.length); // the newest may not be readable through $all yet
    expectSameLog(sourceLog, await readEverything(target, written));
  });

  it('refuses to copy over a target whose streams hold other events', async () => {
    const { store: target } = await freshStore('copy_div');
    await target.appendToStream('ticket-b', [event('Intruder', 0)], { expectedRevision: 'no_stream' });
    await expect(copyEvents({ source, target })).rejects.toBeInstanceOf(CopyDivergenceError);
  });

  it('runs as a CLI: npm run copy-events -- --from <url> --to <url>', async () => {
    const { db: from } = await freshStore('copy_cli_src');
    const { db: to, store: target } = await freshStore('copy_cli_dst');
    const cliSource = stores.at(-2)!;
    const count = await writeHistory(cliSource, ['ticket-x', 'ticket-y'], 3);
    await readEverything(cliSource, count); // visible to readers before the copy starts
    const cli = fileURLToPath(new URL('./copy-events-cli.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', cli, '--from', from.url, '--to', to.url], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    });
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as { copied: number };
    const expected = await readEverything(cliSource, count);
    expect(summary.copied).toBe(count);
    expectSameLog(expected, await readEverything(target, count));
  }, 60_000);
});
