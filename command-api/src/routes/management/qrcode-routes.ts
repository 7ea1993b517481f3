import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  agenceIdSchema,
  ifMatchHeadersSchema,
  managementIdParamsSchema,
  parisCalendarDay,
  qrCodeAssignBodySchema,
  qrCodeBatchBodySchema,
  qrCodeBatchResponseSchema,
  qrCodeSchema,
  qrCodeUnusedCountResponseSchema,
  qrCodesByInstallationResponseSchema,
  qrCodesCsvFileName,
  resolveScopedAgenceId,
  toQrCodesCsv,
  withEditVersion,
} from '@fsm/contracts';
import { countUnusedQrCodes, findAgence, findInstallation, findQrCode, listQrCodesByInstallation, listQrCodesForExport, listUnusedQrCodes } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requirePermission, scopeOf, type Principal } from '../../auth/principal.js';
import { requireInstallation } from '../../commands/management/client-scope.js';
import { handleAssignQrCode, handleGenerateQrCodes, handleUnassignQrCode, requireQrCode } from '../../commands/management/qrcode-commands.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { callerOf } from './client-access.js';

/*
 * Codes belong to one agency's pool. The QR codes screen (qrcodes.manage)
 * generates, counts and exports its agency's unused codes; the installation's
 * QR modal on the clients screen (clients.edit) assigns and unassigns them.
 * admin_plus works on its own agency unless it names another (`agence_id`).
 */

/** Which agency's pool the call is about; others than admin_plus only their own. */
async function poolAgenceOf(deps: AppDeps, principal: Principal, requested: string | undefined): Promise<string> {
  const agenceId = resolveScopedAgenceId(principal, requested ?? (principal.role === 'admin_plus' ? principal.agence_id : undefined));
  if (!(await findAgence(deps.pool, agenceId))) throw new NotFoundError(M.agenceNotFound);
  return agenceId;
}

const AgenceQuery = z.object({ agence_id: agenceIdSchema.optional() });
/** `installation_id` (ours): generate the batch straight onto one installation (the installation's QR modal). */
const BatchBody = qrCodeBatchBodySchema.extend({ agence_id: agenceIdSchema.optional(), installation_id: z.guid({ error: 'Installation invalide.' }).optional() });
const QrCodeWithInstallation = qrCodeSchema.extend({ installation_id: z.guid().nullable() });
const AssignBody = withEditVersion(qrCodeAssignBodySchema);
const UnusedResponse = z.object({ items: z.array(qrCodeSchema) });

export async function qrCodeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/qrcodes/by-installation/:id',
    { schema: { params: managementIdParamsSchema, response: { 200: qrCodesByInstallationResponseSchema } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      if (!(await findInstallation(deps.pool, request.params.id, scope))) throw new NotFoundError(M.installationNotFound);
      return { items: await listQrCodesByInstallation(deps.pool, request.params.id) };
    },
  );

  api.get('/api/qrcodes/unused-count', { schema: { querystring: AgenceQuery, response: { 200: qrCodeUnusedCountResponseSchema } } }, async (request) => {
    const agenceId = await poolAgenceOf(deps, principalOf(request), request.query.agence_id);
    return { unused: await countUnusedQrCodes(deps.pool, [agenceId]) };
  });

  // Ours: the codes the installation's QR modal can pick from.
  api.get('/api/qrcodes/unused', { schema: { querystring: AgenceQuery, response: { 200: UnusedResponse } } }, async (request) => {
    const agenceId = await poolAgenceOf(deps, principalOf(request), request.query.agence_id);
    return { items: await listUnusedQrCodes(deps.pool, [agenceId]) };
  });

  api.post('/api/qrcodes/batch', { schema: { body: BatchBody, response: { 201: qrCodeBatchResponseSchema } } }, async (request, reply) => {
    const { installation_id: installationId } = request.body;
    // The door lets qrcodes.manage or clients.edit in; straight onto an installation is an
    // installation change too (clients.edit, as for assigning), unassigned codes are the QR screen's.
    const principal = principalOf(request);
    requirePermission(principal, installationId ? 'clients.edit' : 'qrcodes.manage');
    const caller = callerOf(request, deps);
    const installation = installationId ? await requireInstallation(caller, installationId) : null;
    const agenceId = installation ? installation.agence_id : await poolAgenceOf(deps, principal, request.body.agence_id);
    const codes = await handleGenerateQrCodes(caller, { count: request.body.count, agenceId, publicUrl: deps.env.PUBLIC_URL });
    if (installation) for (const code of codes) await handleAssignQrCode(caller, { qrCodeId: code.id, installationId: installation.id });
    return reply.status(201).send({ codes });
  });

  api.post('/api/qrcodes/export', { schema: { querystring: AgenceQuery } }, async (request, reply) => {
    const agenceId = await poolAgenceOf(deps, principalOf(request), request.query.agence_id);
    const csv = toQrCodesCsv(await listQrCodesForExport(deps.pool, [agenceId]));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${qrCodesCsvFileName(parisCalendarDay(deps.clock()))}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  api.post(
    '/api/qrcodes/:id/assign',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: AssignBody, response: { 200: QrCodeWithInstallation } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const version = editVersionOf(request, request.body.version);
      const result = await handleAssignQrCode(caller, { qrCodeId: request.params.id, installationId: request.body.installation_id, version });
      sendVersion(reply, result.revision);
      const code = await requireQrCode(caller, request.params.id);
      return { id: code.id, url: code.url, qr_key: code.qr_key, installation_id: code.installation_id, version: code.version };
    },
  );

  api.delete(
    '/api/qrcodes/:id/assign',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: QrCodeWithInstallation } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const result = await handleUnassignQrCode(caller, { qrCodeId: request.params.id, version: editVersionOf(request) });
      sendVersion(reply, result.revision);
      const code = await requireQrCode(caller, request.params.id);
      return { id: code.id, url: code.url, qr_key: code.qr_key, installation_id: code.installation_id, version: code.version };
    },
  );

  // Rendered here from the code's URL: no third-party QR service sees the keys.
  api.get('/api/qrcodes/:id/image.svg', { schema: { params: managementIdParamsSchema } }, async (request, reply) => {
    const code = await findQrCode(deps.pool, request.params.id, scopeOf(principalOf(request)));
    if (!code) throw new NotFoundError(M.qrCodeNotFound);
    const svg = await QRCode.toString(code.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(svg);
  });
}
