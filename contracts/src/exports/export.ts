import { z } from 'zod';
import { statsTicketsQuerySchema } from '../management/stats.js';

/*
 * Exports produced by the workers (issue 5 item 6): the statistics CSV and the
 * QR codes CSV (management §9, same bytes as the inline routes), written to the
 * file store by the 'exports' queue. One export = one stream `export-<exportId>`;
 * the export's id IS the id of its ExportRequested event, and the job id is
 * `export-<exportId>`, so a replay never asks twice. Outcomes are appended with
 * ids derived from the export id: a job that runs twice records one outcome.
 *
 * In the order of every aggregate's file (management/client.ts): what the
 * calls read, the status they answer, then the events of the stream.
 */

const isoInstant = z.iso.datetime({ offset: true });
const uuid = z.guid();

export const EXPORT_STREAM_CATEGORY = 'export';
export function exportStreamId(exportId: string): string {
  return `${EXPORT_STREAM_CATEGORY}-${exportId}`;
}

export const EXPORT_KINDS = ['stats-tickets', 'qrcodes'] as const;
export const exportKindSchema = z.enum(EXPORT_KINDS);
export type ExportKind = z.infer<typeof exportKindSchema>;

/** The agencies the file covers, resolved from the caller's permissions when asked: 'all' or a list of ids. */
export const exportScopeSchema = z.union([z.literal('all'), z.array(uuid)]);
export type ExportScope = z.infer<typeof exportScopeSchema>;

/** Statistics: the window already filled in (default window applied by the API), as the inline route reads it. */
export const statsExportFiltersSchema = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  metier_id: uuid.optional(),
});
export type StatsExportFilters = z.infer<typeof statsExportFiltersSchema>;
// ---------------------------------------------------------------------------
// Bodies (POST /api/exports, GET /api/exports/{id}[/download])
// ---------------------------------------------------------------------------

/** POST /api/exports: the same filters as the inline routes (GET /api/stats/tickets.csv's query, POST /api/qrcodes/export's agence_id). */
export const exportRequestBodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stats-tickets'), filters: statsTicketsQuerySchema.optional() }),
  z.object({ kind: z.literal('qrcodes'), filters: z.object({ agence_id: uuid.optional() }).optional() }),
]);
export type ExportRequestBody = z.output<typeof exportRequestBodySchema>;

export const exportIdParamsSchema = z.object({ id: z.guid({ error: 'Export introuvable.' }) });
export const exportDownloadQuerySchema = z.object({ token: z.string().max(4096).optional() });

// ---------------------------------------------------------------------------
// Answer
// ---------------------------------------------------------------------------

export const exportStatusSchema = z.enum(['pending', 'running', 'done', 'failed']);
export type ExportStatus = z.infer<typeof exportStatusSchema>;

export const exportStatusResponseSchema = z.object({
  id: uuid,
  kind: exportKindSchema,
  status: exportStatusSchema,
  /** 0–100; 100 once done. */
  progress: z.number().int().min(0).max(100),
  /** Data lines written so far (running) or in the file (done). */
  rows: z.number().int().nonnegative(),
  filename: z.string(),
  /** Relative; add `?token=` (or send the bearer header) to download. Null until done. */
  downloadUrl: z.string().nullable(),
  error: z.string().nullable(),
});
export type ExportStatusResponse = z.infer<typeof exportStatusResponseSchema>;

export const EXPORT_MESSAGES = {
  notFound: 'Export introuvable.',
  notReady: "L'export n'est pas encore prêt.",
  failed: "L'export a échoué.",
} as const;

export function exportStatusPath(exportId: string): string {
  return `/api/exports/${exportId}`;
}
export function exportDownloadPath(exportId: string): string {
  return `/api/exports/${exportId}/download`;
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

export const exportRequestedDataSchema = z.discriminatedUnion('kind', [
  z.object({
    exportId: uuid,
    kind: z.literal('stats-tickets'),
    scope: exportScopeSchema,
    filters: statsExportFiltersSchema,
    /** The instant the flags are computed at (fixed for the whole file) and the file is named after. */
    asOf: isoInstant,
    filename: z.string().min(5),
    requestedBy: uuid.nullable(),
    requestedAt: isoInstant,
  }),
  z.object({
    exportId: uuid,
    kind: z.literal('qrcodes'),
    /** One agency's pool, as POST /api/qrcodes/export. */
    scope: z.array(uuid).length(1),
    filters: z.object({}),
    asOf: isoInstant,
    filename: z.string().min(5),
    requestedBy: uuid.nullable(),
    requestedAt: isoInstant,
  }),
]);

export const exportCompletedDataSchema = z.object({
  exportId: uuid,
  kind: exportKindSchema,
  filename: z.string().min(5),
  /** File-store reference (`<sha256>.csv`). */
  blobRef: z.string().min(5),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  bytes: z.number().int().nonnegative(),
  /** Data lines (header excluded). */
  rows: z.number().int().nonnegative(),
  completedAt: isoInstant,
});

export const exportFailedDataSchema = z.object({
  exportId: uuid,
  kind: exportKindSchema,
  error: z.string(),
  failedAt: isoInstant,
});

export const exportRequestedSchema = z.object({ type: z.literal('ExportRequested'), data: exportRequestedDataSchema });
export const exportCompletedSchema = z.object({ type: z.literal('ExportCompleted'), data: exportCompletedDataSchema });
export const exportFailedSchema = z.object({ type: z.literal('ExportFailed'), data: exportFailedDataSchema });
export const exportEventSchema = z.discriminatedUnion('type', [exportRequestedSchema, exportCompletedSchema, exportFailedSchema]);

export type ExportEvent = z.infer<typeof exportEventSchema>;
export type ExportRequestedData = z.infer<typeof exportRequestedDataSchema>;
export type ExportCompletedData = z.infer<typeof exportCompletedDataSchema>;
export type ExportFailedData = z.infer<typeof exportFailedDataSchema>;
export const EXPORT_EVENT_TYPES = ['ExportRequested', 'ExportCompleted', 'ExportFailed'] as const satisfies readonly ExportEvent['type'][];
