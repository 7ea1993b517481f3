import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStreamId, qrCodeStreamId, type ExportRequestedData } from '@fsm/contracts';
import { produceExport } from '../src/exports/export-processor.js';
import { ReadModelsNotReadyError } from '../src/read-models-delay.js';
import { openReadModelWorld, type ReadModelWorld } from './support/read-model-world.js';

/*
 * An export is written once for good (ExportCompleted with its SHA-256): one
 * produced while the read models are behind its request (right after the
 * change, during a rebuild, a read model stopped) would miss rows for ever.
 * It waits for them, and otherwise answers "not ready" (the processor then
 * delays the job without spending an attempt, as a report does).
 */

let world: ReadModelWorld;

beforeAll(async () => {
  // The runner is started by the test, once the export has been asked for.
  world = await openReadModelWorld('workers_export_wait', { startRunner: false, poolSize: 6 });
});

afterAll(async () => {
  await world?.runner.stop();
  await world?.close();
});

const meta = { userId: null, userName: 'test', correlationId: 'test', causationId: null };

describe('an export requested while the read models are behind', () => {
  it('is not written until they reach its request, then holds every row', { timeout: 60_000 }, async () => {
    const { pool, store, blobs } = world;
    const agenceId = randomUUID();
    const keys = ['Kw8Zp3Lq2XaHe7Uv', 'Rt5Yb7Nm4CdFg2Jk'];
    for (const qr_key of keys) {
      const qrCodeId = randomUUID();
      await store.appendToStream(
        qrCodeStreamId(qrCodeId),
        [{ id: randomUUID(), type: 'QrCodeGenerated', data: { qrCodeId, batchId: randomUUID(), agenceId, qr_key, url: `http://localhost:3000/ticket?key=${qr_key}`, generatedAt: new Date().toISOString() }, metadata: meta }],
        { expectedRevision: 'no_stream' },
      );
    }
    const exportId = randomUUID();
    const request: ExportRequestedData = { exportId, kind: 'qrcodes', scope: [agenceId], filters: {}, asOf: new Date().toISOString(), filename: 'qrcodes_2026-11-24.csv', requestedBy: null, requestedAt: new Date().toISOString() };
    await store.appendToStream(exportStreamId(exportId), [{ id: randomUUID(), type: 'ExportRequested', data: request, metadata: meta }], { expectedRevision: 'no_stream' });
    const deps = { pool, store, blobs, clock: () => new Date(), readModelsWaitMs: 300 };
    const noProgress = async () => undefined;

    // The projections have not run: the file would be empty for good.
    await expect(produceExport(deps, exportId, noProgress)).rejects.toBeInstanceOf(ReadModelsNotReadyError);
    expect((await store.readStream(exportStreamId(exportId))).map((event) => event.type)).toEqual(['ExportRequested']);

    await world.runner.start();
    const outcome = await produceExport({ ...deps, readModelsWaitMs: 30_000 }, exportId, noProgress);
    expect(outcome).toMatchObject({ status: 'done', rows: 2 });
    if (outcome.status !== 'done') throw new Error('not done');
    const csv = (await blobs.read(outcome.blobRef)).toString('utf8');
    for (const key of keys) expect(csv).toContain(key);
  });
});
