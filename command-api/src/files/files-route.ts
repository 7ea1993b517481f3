import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '@fsm/contracts';
import { isBlobRef } from '@fsm/eventstore';
import type { AppDeps } from '../app-deps.js';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  avif: 'image/avif',
};

/**
 * GET /api/files/{ref}: photos and signatures for <img> tags, which cannot
 * send a bearer token. A reference is the SHA-256 of the file, so it works as
 * an unguessable capability; PDFs are not served here (they go through the
 * report download route, which checks the token and the ticket's scope).
 */
export async function filesRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/files/:ref',
    { schema: { params: z.object({ ref: z.string().max(80) }) } },
    async (request, reply) => {
      const { ref } = request.params;
      const extension = ref.split('.').pop() ?? '';
      const type = CONTENT_TYPES[extension];
      if (!isBlobRef(ref) || !type || !(await deps.blobs.exists(ref))) throw new NotFoundError('Fichier introuvable.');
      return reply
        .header('content-type', type)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(deps.blobs.pathOf(ref)));
    },
  );
}
