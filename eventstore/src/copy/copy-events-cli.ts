#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { copyEvents } from './copy-events.js';
import { storeForUrl } from './store-for-url.js';

/*
 * npm run copy-events -- --from <url> --to <url> [--after <position>] [--batch-size 500]
 *
 * A URL is a Postgres URL (postgres://, postgresql://: the Postgres event store in
 * schema es) or a KurrentDB / EventStoreDB connection string (kurrentdb://, esdb://,
 * their +discover forms).
 */

const USAGE = 'usage: npm run copy-events -- --from <postgres://…|kurrentdb://…|esdb://…> --to <url> [--after <position>] [--batch-size <n>]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, after: { type: 'string' }, 'batch-size': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.from || !values.to) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.from === values.to) {
    console.error('--from and --to are the same store');
    return 2;
  }
  const batchSize = values['batch-size'] ? Number(values['batch-size']) : 500;
  const source = storeForUrl(values.from);
  const target = storeForUrl(values.to);
  try {
    await target.migrate();
    const started = Date.now();
    const result = await copyEvents({
      source,
      target,
      after: values.after ?? null,
      batchSize,
      onProgress: (p) => console.error(`read ${p.read}, copied ${p.copied}, already there ${p.alreadyPresent}, checkpoint ${p.checkpoint ?? '-'}`),
    });
    // targetHead: where the reactor's checkpoint goes on the new store (see docs/operations.md).
    console.log(JSON.stringify({ ...result, targetHead: await target.headPosition(), seconds: Math.round((Date.now() - started) / 100) / 10 }));
    console.error(`done. To copy what was appended since, run again with --after ${result.checkpoint ?? '(nothing)'} (or from the start: it is idempotent).`);
    return 0;
  } finally {
    await Promise.allSettled([source.close(), target.close()]);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
