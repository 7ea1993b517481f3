import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  EXPORT_MESSAGES,
  exportDownloadQuerySchema,
  exportIdParamsSchema,
  exportRequestBodySchema,
  exportStatusResponseSchema,
  IllegalStateError,
  MANAGEMENT_MESSAGES,
  NotFoundError,
  exportDownloadPath,
  exportStatusPath,
  resolveScopedAgenceId,
  type ExportRequestedData,
  type ExportStatusResponse,
} from '@fsm/contracts';
import { isBlobRef } from '@fsm/eventstore';
import { findAgence } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { downloadLink, downloaderOf } from '../../auth/download-links.js';
import { principalOf, requirePermission, type Principal } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import { handleRequestExport, loadExport, type ExportTarget } from '../../commands/exports/export-commands.js';
import { actorOf } from '../actor.js';
import { statsScopeOf } from '../stats/stats-scope.js';
import { findExportProgress } from './export-progress-query.js';

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

/** An export as its stream tells it (commands/exports). */
type ExportState = Awaited<ReturnType<typeof loadExport>>;

/** The status `principal` reads; once done, its link carries a download token bound to this export. */
async function statusOf(deps: AppDeps, exportId: string, state: ExportState, principal: Principal): Promise<ExportStatusResponse> {
  const base = { id: exportId, kind: state.request.kind, filename: state.request.filename };
  if (state.completed) {
    const path = exportDownloadPath(exportId);
    return { ...base, status: 'done', progress: 100, rows: state.completed.rows, downloadUrl: await downloadLink(deps.tokens, principal.id, path, path), error: null };
  }
  if (state.failed) return { ...base, status: 'failed', progress: 0, rows: 0, downloadUrl: null, error: EXPORT_MESSAGES.failed };
  const running = await findExportProgress(deps.pool, exportId);
  if (!running) return { ...base, status: 'pending', progress: 0, rows: 0, downloadUrl: null, error: null };
  return { ...base, status: 'running', progress: Math.min(99, running.progress), rows: running.rows, downloadUrl: null, error: null };
}

export async function exportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // --- bearer-token routes -------------------------------------------------
  await app.register(async (secured) => {
    const routes = secured.withTypeProvider<ZodTypeProvider>();

    routes.post('/api/exports', { schema: { body: exportRequestBodySchema, response: { 202: exportStatusResponseSchema } } }, async (request, reply) => {
      const principal = principalOf(request);
      const body = request.body;
      const target: ExportTarget =
        body.kind === 'stats-tickets'
          ? { kind: 'stats-tickets', scope: statsScopeOf(principal, body.filters?.agence_id), filters: body.filters ?? {} }
          : { kind: 'qrcodes', agenceId: await qrPoolOf(deps, principal, body.filters?.agence_id) };
      const data: ExportRequestedData = await handleRequestExport(commandCaller(deps, actorOf(request)), { target, requestedBy: principal.id });
      const { exportId } = data;
      const status = await statusOf(deps, exportId, { status: 'requested', request: data, completed: null, failed: false }, principal);
      return reply.status(202).header('location', exportStatusPath(exportId)).send(status);
    });

    routes.get('/api/exports/:id', { schema: { params: exportIdParamsSchema, response: { 200: exportStatusResponseSchema } } }, async (request, reply) => {
      const state = await loadExport(deps.store, request.params.id);
      const principal = principalOf(request);
      requireAccess(principal, state.request);
      return reply.header('cache-control', 'no-store').send(await statusOf(deps, request.params.id, state, principal));
    });
  });

  // --- download: the browser opens the link with ?token= ----------------------
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/exports/:id/download',
    { schema: { params: exportIdParamsSchema, querystring: exportDownloadQuerySchema } },
    async (request, reply) => {
      const principal = await downloaderOf(deps, request.query.token, request.headers.authorization, exportDownloadPath(request.params.id));
      const state = await loadExport(deps.store, request.params.id);
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
