import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import {
  CSV_BOM,
  CSV_LINE_END,
  exportRequestedDataSchema,
  STATS_CSV_HEADER,
  exportStreamId,
  statsCsvRow,
  toCsvLine,
  toQrCodesCsv,
  type ExportCompletedData,
  type ExportFailedData,
  type ExportKind,
  type ExportRequestedData,
} from '@fsm/contracts';
import { readStreamOrEmpty, type BlobStore, type EventStore } from '@fsm/eventstore';
import { STATS_PAGE_SIZE, countStatsTickets, listQrCodesForExport, statsTicketPages, waitForReadModels } from '@fsm/projections';
import { outcomeEventId } from '../event-ids.js';
import { READ_MODELS_WAIT_MS, ReadModelsNotReadyError, delayUntilReadModels } from '../read-models-delay.js';
import { saveExportProgress } from './export-progress.js';

export const PRODUCE_EXPORT_JOB = 'produce-export';

/** Rows formatted between two progress reports (and two turns of the event loop). */
const EXPORT_SLICE_ROWS = 200;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseExportJob(data: unknown): { exportId: string } | null {
  if (typeof data !== 'object' || data === null) return null;
  const { exportId } = data as Record<string, unknown>;
  return typeof exportId === 'string' && GUID.test(exportId) ? { exportId } : null;
}

export interface ExportProcessorDeps {
  pool: pg.Pool;
  store: EventStore;
  blobs: BlobStore;
  clock: () => Date;
  /** Page size of the statistics query (default STATS_PAGE_SIZE, as the streamed route). */
  pageSize?: number;
  /** READ_MODELS_WAIT_MS unless set (tests shorten it). */
  readModelsWaitMs?: number;
  /** READ_MODELS_PATIENCE_MS unless set. */
  readModelsPatienceMs?: number;
}

/**
 * What each kind of export reads (and what those are built from): it is
 * written only once they have reached its request, so a file asked for right
 * after a change, or during a rebuild, never misses rows for good.
 */
const EXPORT_READ_MODELS: Readonly<Record<ExportKind, readonly string[]>> = {
  'stats-tickets': ['tickets', 'ticket_sla'],
  qrcodes: ['qrcodes', 'installations', 'sites', 'clients'],
};

/** Called with 0–99 while writing, 100 once the file is stored. */
export type ReportProgress = (progress: number, rows: number, total: number) => Promise<void>;

export type ExportOutcome = { status: 'done'; rows: number; sha256: string; blobRef: string } | { status: 'already-done' };

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Lines of `items`, EXPORT_SLICE_ROWS at a time. */
function* slices<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += EXPORT_SLICE_ROWS) yield items.slice(start, start + EXPORT_SLICE_ROWS);
}

/**
 * Writes the file in memory as the inline routes write it (the same contract
 * helpers, the same order), reporting progress after each slice of rows.
 */
async function writeCsv(deps: ExportProcessorDeps, request: ExportRequestedData, report: ReportProgress): Promise<{ bytes: Buffer; rows: number }> {
  const chunks: Buffer[] = [];
  let rows = 0;
  if (request.kind === 'stats-tickets') {
    const scope = request.scope;
    const filters = { from: request.filters.from, to: request.filters.to, metier_id: request.filters.metier_id };
    const total = await countStatsTickets(deps.pool, scope, filters);
    await report(0, 0, total);
    chunks.push(Buffer.from(CSV_BOM + toCsvLine(STATS_CSV_HEADER) + CSV_LINE_END, 'utf8'));
    for await (const page of statsTicketPages(deps.pool, scope, filters, new Date(request.asOf), deps.pageSize ?? STATS_PAGE_SIZE)) {
      for (const slice of slices(page)) {
        chunks.push(Buffer.from(slice.map((item) => toCsvLine(statsCsvRow(item)) + CSV_LINE_END).join(''), 'utf8'));
        rows += slice.length;
        await report(percent(rows, total), rows, total);
        await yieldToLoop();
      }
    }
    return { bytes: Buffer.concat(chunks), rows };
  }
  // QR codes: one agency's pool, one query (as POST /api/qrcodes/export); the
  // contract's toQrCodesCsv writes each slice, its BOM and header kept once.
  const codes = await listQrCodesForExport(deps.pool, request.scope);
  const total = codes.length;
  await report(0, 0, total);
  const head = toQrCodesCsv([]);
  chunks.push(Buffer.from(head, 'utf8'));
  for (const slice of slices(codes)) {
    chunks.push(Buffer.from(toQrCodesCsv(slice).slice(head.length), 'utf8'));
    rows += slice.length;
    await report(percent(rows, total), rows, total);
    await yieldToLoop();
  }
  return { bytes: Buffer.concat(chunks), rows };
}

/** Below 100 until the file is stored, whatever the count said. */
function percent(rows: number, total: number): number {
  return Math.min(99, Math.floor((rows * 100) / Math.max(total, 1)));
}

const metadata = (exportId: string) => ({ userId: null, userName: 'workers', correlationId: exportId, causationId: exportId });

/**
 * Produces one export: reads its request from `export-<id>`, pages through the
 * read model, stores the CSV (content-addressed) and appends ExportCompleted
 * with the file's SHA-256. Idempotent: an export whose stream already says
 * "completed" is not written again, and the outcome's id is derived from the
 * export id, so two runs racing each other record one outcome (and, the
 * instant `asOf` being fixed in the request, the same bytes).
 */
export async function produceExport(deps: ExportProcessorDeps, exportId: string, report: ReportProgress): Promise<ExportOutcome> {
  const stream = exportStreamId(exportId);
  const history = await readStreamOrEmpty(deps.store, stream);
  if (history.some((event) => event.type === 'ExportCompleted')) return { status: 'already-done' };
  const requested = history.find((event) => event.type === 'ExportRequested');
  if (!requested) throw new UnrecoverableError(`export ${exportId}: no ExportRequested`);
  const parsed = exportRequestedDataSchema.safeParse(requested.data);
  if (!parsed.success) throw new UnrecoverableError(`export ${exportId}: invalid ExportRequested`);
  const request = parsed.data;
  const reached = await waitForReadModels({ db: deps.pool, compare: (a, b) => deps.store.comparePositions(a, b) }, requested.position, {
    readModels: EXPORT_READ_MODELS[request.kind],
    timeoutMs: deps.readModelsWaitMs ?? READ_MODELS_WAIT_MS,
  });
  if (!reached) throw new ReadModelsNotReadyError(`export ${exportId}`, requested.position);

  const { bytes, rows } = await writeCsv(deps, request, report);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const blobRef = await deps.blobs.put(bytes, 'csv');
  const data: ExportCompletedData = {
    exportId,
    kind: request.kind,
    filename: request.filename,
    blobRef,
    sha256,
    bytes: bytes.length,
    rows,
    completedAt: deps.clock().toISOString(),
  };
  await deps.store.appendToStream(stream, [{ id: outcomeEventId('export-completed', exportId), type: 'ExportCompleted', data, metadata: metadata(exportId) }], {
    expectedRevision: 'any',
  });
  await report(100, rows, rows);
  return { status: 'done', rows, sha256, blobRef };
}

/** Records that an export will not be produced, so the status route says 'failed'. */
async function recordExportFailure(deps: ExportProcessorDeps, exportId: string, kind: ExportKind, error: unknown, jobId: string): Promise<void> {
  const data: ExportFailedData = { exportId, kind, error: (error instanceof Error ? error.message : String(error)).slice(0, 1000), failedAt: deps.clock().toISOString() };
  await deps.store.appendToStream(
    exportStreamId(exportId),
    [{ id: outcomeEventId('export-failed', exportId, jobId), type: 'ExportFailed', data, metadata: metadata(exportId) }],
    { expectedRevision: 'any' },
  );
}

async function kindOf(deps: ExportProcessorDeps, exportId: string): Promise<ExportKind> {
  const history = await readStreamOrEmpty(deps.store, exportStreamId(exportId));
  const parsed = exportRequestedDataSchema.safeParse(history.find((event) => event.type === 'ExportRequested')?.data);
  return parsed.success ? parsed.data.kind : 'stats-tickets';
}

/**
 * The 'exports' queue's processor. Progress goes to the BullMQ job
 * (job.updateProgress: dashboards, QueueEvents) and to jobs.export_progress
 * (the API's GET /api/exports/{id}), only when the percentage moves.
 */
export function exportsProcessor(deps: ExportProcessorDeps) {
  return async (job: Job, token?: string): Promise<ExportOutcome> => {
    switch (job.name) {
      case PRODUCE_EXPORT_JOB: {
        const target = parseExportJob(job.data);
        if (!target) throw new UnrecoverableError(`invalid ${PRODUCE_EXPORT_JOB} payload`);
        let last = -1;
        const report: ReportProgress = async (progress, rows, total) => {
          if (progress === last) return;
          last = progress;
          await job.updateProgress(progress);
          await saveExportProgress(deps.pool, target.exportId, progress, rows, total);
        };
        try {
          return await produceExport(deps, target.exportId, report);
        } catch (error) {
          if (error instanceof ReadModelsNotReadyError && (await delayUntilReadModels(job, token, deps.readModelsPatienceMs))) throw new DelayedError();
          const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
          if (error instanceof UnrecoverableError || last) await recordExportFailure(deps, target.exportId, await kindOf(deps, target.exportId), error, job.id ?? '');
          throw error;
        }
      }
      default:
        throw new UnrecoverableError(`unknown exports job ${job.name}`);
    }
  };
}
