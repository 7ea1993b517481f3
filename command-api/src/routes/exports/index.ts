import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CALENDAR_TIME_ZONE,
  EXPORT_MESSAGES,
  ExportCompletedDataSchema,
  ExportDownloadQuerySchema,
  ExportIdParamsSchema,
  ExportRequestBodySchema,
  ExportRequestedDataSchema,
  ExportStatusResponseSchema,
  IllegalStateError,
  MANAGEMENT_MESSAGES,
  NotFoundError,
  defaultStatsWindow,
  exportDownloadPath,
  exportStatusPath,
  exportStreamId,
  qrCodesCsvFileName,
  resolveScopedAgenceId,
  statsCsvFileName,
  type ExportCompletedData,
  type ExportRequestedData,
  type ExportStatusResponse,
} from '@fsm/contracts';
import { isBlobRef, type NewEvent, type RecordedEvent } from '@fsm/eventstore';
import { findAgence } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { downloadLink, downloaderOf } from '../../auth/download-links.js';
import { principalOf, requirePermission, type Principal } from '../../auth/principal.js';
import { readStreamOrEmpty } from '../../commands/execute.js';
import { actorOf } from '../actor.js';
import { statsScopeOf } from '../stats/stats-scope.js';

/*
 * CSV exports produced by the workers (issue 5 item 6, docs/exports.md). The
 * inline routes (GET /api/stats/tickets.csv streams, POST /api/qrcodes/export
 * answers the file) stay as they are; these are for long exports the screen
 * wants a progress value for:
 *
 *   POST /api/exports                    appends ExportRequested (202 + status)
 *   GET  /api/exports/{id}               {status, progress, rows, downloadUrl}
 *   GET  /api/exports/{id}/download      the file (downloadUrl's ?token=, or bearer)
 *
 * Permissions and scope are those of the inline routes, resolved when the
 * export is asked for and recorded in the event; reading the status or the
 * file asks again that the caller could have asked for it (403 without the
 * permission, 404 outside the caller's agencies, like an unknown id).
 *
 * Registered among the public routes because the download link is opened by
 * the browser with `?token=`: every route here authenticates itself, before
 * its body is parsed.
 */

/** yyyy-MM-dd in Paris, for the QR export's file name (as POST /api/qrcodes/export). */
function parisDay(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: CALENDAR_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The QR pool the caller may export, as POST /api/qrcodes/export resolves it. */
async function qrPoolOf(deps: AppDeps, principal: Principal, requested: string | undefined): Promise<string> {
  requirePermission(principal, 'qrcodes.manage');
  const agenceId = resolveScopedAgenceId(principal, requested ?? (principal.role === 'admin_plus' ? principal.agence_id : undefined));
  if (!(await findAgence(deps.pool, agenceId))) throw new NotFoundError(MANAGEMENT_MESSAGES.agenceNotFound);
  return agenceId;
}

/** 403 without the export's permission; 404 when the export covers agencies the caller cannot see. */
function requireAccess(principal: Principal, request: ExportRequestedData): void {
  if (request.kind === 'stats-tickets') {
    const mine = statsScopeOf(principal, undefined);
    const covered = mine === 'all' || (request.scope !== 'all' && request.scope.every((id) => mine.includes(id)));
    if (!covered) throw new NotFoundError(EXPORT_MESSAGES.notFound);
    return;
  }
  requirePermission(principal, 'qrcodes.manage');
  if (principal.role !== 'admin_plus' && request.scope[0] !== principal.agence_id) throw new NotFoundError(EXPORT_MESSAGES.notFound);
}

interface ExportState {
  request: ExportRequestedData;
  completed: ExportCompletedData | null;
  failed: boolean;
}

async function loadExport(deps: AppDeps, exportId: string): Promise<ExportState> {
  const history: RecordedEvent[] = await readStreamOrEmpty(deps.store, exportStreamId(exportId));
  const parsed = ExportRequestedDataSchema.safeParse(history.find((event) => event.type === 'ExportRequested')?.data);
  if (!parsed.success) throw new NotFoundError(EXPORT_MESSAGES.notFound);
  const done = history.find((event) => event.type === 'ExportCompleted');
  const completed = done ? ExportCompletedDataSchema.parse(done.data) : null;
  return { request: parsed.data, completed, failed: !completed && history.some((event) => event.type === 'ExportFailed') };
}

/** What the running job last wrote (jobs.export_progress, created by the workers); null before it starts. */
async function progressOf(deps: AppDeps, exportId: string): Promise<{ progress: number; rows: number } | null> {
  try {
    const { rows } = await deps.pool.query<{ progress: number; rows: number }>('SELECT progress, rows FROM jobs.export_progress WHERE export_id = $1', [exportId]);
    return rows[0] ?? null;
  } catch (error) {
    // No worker has ever started on this database: nothing runs.
    if ((error as { code?: string }).code === '42P01' || (error as { code?: string }).code === '3F000') return null;
    throw error;
  }
}

/** The status `principal` reads; once done, its link carries a download token bound to this export. */
async function statusOf(deps: AppDeps, exportId: string, state: ExportState, principal: Principal): Promise<ExportStatusResponse> {
  const base = { id: exportId, kind: state.request.kind, filename: state.request.filename };
  if (state.completed) {
    const path = exportDownloadPath(exportId);
    return { ...base, status: 'done', progress: 100, rows: state.completed.rows, downloadUrl: await downloadLink(deps.tokens, principal.id, path, path), error: null };
  }
  if (state.failed) return { ...base, status: 'failed', progress: 0, rows: 0, downloadUrl: null, error: EXPORT_MESSAGES.failed };
  const running = await progressOf(deps, exportId);
  if (!running) return { ...base, status: 'pending', progress: 0, rows: 0, downloadUrl: null, error: null };
  return { ...base, status: 'running', progress: Math.min(99, running.progress), rows: running.rows, downloadUrl: null, error: null };
}

function metadataOf(request: FastifyRequest): NewEvent['metadata'] {
  const actor = actorOf(request);
  return { userId: actor.userId, userName: actor.userName, correlationId: actor.correlationId, causationId: null };
}

export async function exportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // --- bearer-token routes -------------------------------------------------
  await app.register(async (secured) => {
    const routes = secured.withTypeProvider<ZodTypeProvider>();

    routes.post('/api/exports', { schema: { body: ExportRequestBodySchema, response: { 202: ExportStatusResponseSchema } } }, async (request, reply) => {
      const principal = principalOf(request);
      const now = deps.clock();
      const exportId = deps.newId();
      const common = { exportId, asOf: now.toISOString(), requestedBy: principal.id, requestedAt: now.toISOString() };
      let data: ExportRequestedData;
      if (request.body.kind === 'stats-tickets') {
        const query = request.body.filters ?? {};
        const scope = statsScopeOf(principal, query.agence_id);
        const window = defaultStatsWindow(now);
        data = {
          ...common,
          kind: 'stats-tickets',
          scope: scope === 'all' ? 'all' : [...scope],
          filters: { from: query.from ?? window.from, to: query.to ?? window.to, ...(query.metier_id ? { metier_id: query.metier_id } : {}) },
          filename: statsCsvFileName(now),
        };
      } else {
        const agenceId = await qrPoolOf(deps, principal, request.body.filters?.agence_id);
        data = { ...common, kind: 'qrcodes', scope: [agenceId], filters: {}, filename: qrCodesCsvFileName(parisDay(now)) };
      }
      // The export's id is its request event's id: the job id derives from it.
      await deps.store.appendToStream(exportStreamId(exportId), [{ id: exportId, type: 'ExportRequested', data, metadata: metadataOf(request) }], {
        expectedRevision: 'no_stream',
      });
      const status = await statusOf(deps, exportId, { request: data, completed: null, failed: false }, principal);
      return reply.status(202).header('location', exportStatusPath(exportId)).send(status);
    });

    routes.get('/api/exports/:id', { schema: { params: ExportIdParamsSchema, response: { 200: ExportStatusResponseSchema } } }, async (request, reply) => {
      const state = await loadExport(deps, request.params.id);
      const principal = principalOf(request);
      requireAccess(principal, state.request);
      return reply.header('cache-control', 'no-store').send(await statusOf(deps, request.params.id, state, principal));
    });
  });

  // --- download: the browser opens the link with ?token= ----------------------
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/exports/:id/download',
    { schema: { params: ExportIdParamsSchema, querystring: ExportDownloadQuerySchema } },
    async (request, reply) => {
      const principal = await downloaderOf(deps, request.query.token, request.headers.authorization, exportDownloadPath(request.params.id));
      const state = await loadExport(deps, request.params.id);
      requireAccess(principal, state.request);
      if (!state.completed) throw new IllegalStateError(state.failed ? EXPORT_MESSAGES.failed : EXPORT_MESSAGES.notReady);
      const { blobRef, filename } = state.completed;
      if (!isBlobRef(blobRef) || !(await deps.blobs.exists(blobRef))) throw new NotFoundError(EXPORT_MESSAGES.notFound);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(deps.blobs.pathOf(blobRef)));
    },
  );
}
