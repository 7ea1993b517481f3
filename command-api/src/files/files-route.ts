import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '@fsm/contracts';
import { isBlobRef } from '@fsm/eventstore';
import { ticketPhotoInScope } from '@fsm/projections';
import type { AppDeps } from '../app-deps.js';
import { principalFromToken, scopeOf } from '../auth/principal.js';
import { bearerToken } from '../auth/tokens.js';
import { FILE_LINK_KEY_PURPOSE, FILE_LINK_TTL_SECONDS, fileLinkValidFor } from './file-links.js';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  avif: 'image/avif',
};

const FILE_NOT_FOUND = 'Fichier introuvable.';

/**
 * GET /api/files/{ref}: ticket photos for <img> tags, which cannot send a
 * bearer token (issue 32, item 11). Opened by either
 * - the signed link a ticket answer carries (`?exp=&sig=`, file-links.ts), or
 * - a session (bearer header) that may see a ticket holding this photo.
 * Anything else (no credential, a forged or expired link, another agency's
 * photo, a file that is no ticket's photo) answers 404, so a reference says
 * nothing about what exists. PDFs are not served here (report downloads check
 * the ticket's scope themselves); the workers read files from the store.
 */
export async function filesRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const key = deps.tokens.derivedKey(FILE_LINK_KEY_PURPOSE);
  const FileQuery = z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/files/:ref',
    { schema: { params: z.object({ ref: z.string().max(80) }), querystring: FileQuery } },
    async (request, reply) => {
      const { ref } = request.params;
      const extension = ref.split('.').pop() ?? '';
      const type = CONTENT_TYPES[extension];
      if (!isBlobRef(ref) || !type) throw new NotFoundError(FILE_NOT_FOUND);
      const linkSeconds = fileLinkValidFor(key, ref, request.query.exp, request.query.sig, deps.clock());
      let maxAge = linkSeconds;
      if (maxAge === null) {
        const token = bearerToken(request.headers.authorization);
        // An invalid session answers 401 'Session expirée', as everywhere.
        const principal = token === undefined ? null : await principalFromToken(token, deps);
        if (principal === null || principal.role === 'telesurveillance' || !(await ticketPhotoInScope(deps.pool, scopeOf(principal), ref))) {
          throw new NotFoundError(FILE_NOT_FOUND);
        }
        maxAge = FILE_LINK_TTL_SECONDS;
      }
      if (!(await deps.blobs.exists(ref))) throw new NotFoundError(FILE_NOT_FOUND);
      return reply
        .header('content-type', type)
        // Private (a shared cache must not serve it to someone else), and no longer than the link lives.
        .header('cache-control', `private, max-age=${maxAge}`)
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(deps.blobs.pathOf(ref)));
    },
  );
}
