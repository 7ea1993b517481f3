import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Hashed by the build (web/vite.config.ts): a new content gets a new name, so a year and `immutable` are safe. */
const HASHED_ASSETS_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** index.html, the favicon: kept by the browser, but asked again (ETag, 304) before each use, so a deployment shows at once. */
const UNHASHED_CACHE_CONTROL = 'no-cache';

const ASSETS_DIR = 'assets';

/**
 * The built web UI (`web/dist`), when there is one: its files with the brotli or
 * gzip copy the build made beside each (`preCompressed`, chosen from
 * Accept-Encoding, `Vary: Accept-Encoding`), the hashed files under /assets
 * cached for a year, everything else revalidated; the client-side routes
 * (/tickets/42, /clients...) get index.html. Unknown /api paths, /ws and
 * missing /assets files stay 404 JSON: a chunk of an older deployment must
 * fail as a chunk (the router's error screen), not run index.html as a script.
 * Registered last: its not-found handler is the app's.
 */
export async function registerWebUi(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const serveWeb = webRoot !== undefined && existsSync(join(webRoot, 'index.html'));
  if (serveWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // The compressed copies are served in place of their file, never under their own name.
      globIgnore: ['**/*.br', '**/*.gz'],
      // Set below, per file: send's default (max-age=0) is what issue 32 item 7 complained about.
      cacheControl: false,
      setHeaders: (reply, path) => {
        const inAssets = relative(webRoot, path).split(sep)[0] === ASSETS_DIR;
        reply.header('cache-control', inAssets ? HASHED_ASSETS_CACHE_CONTROL : UNHASHED_CACHE_CONTROL);
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isAppRoute = !path.startsWith('/api/') && !path.startsWith('/ws') && !path.startsWith(`/${ASSETS_DIR}/`);
    if (serveWeb && request.method === 'GET' && isAppRoute) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Ressource introuvable.', code: 'NOT_FOUND' });
  });
}
