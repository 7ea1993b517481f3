import { parse as parseQuery } from 'node:querystring';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifySchema } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  createJsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_DOCS_ACCESS, SESSION_TOKEN_MAX_LENGTH } from '@fsm/contracts';
import type { AppDeps } from './app-deps.js';
import { bearerToken } from './auth/tokens.js';
import { registerErrorHandler } from './http/error-handler.js';
import { HeavyReadSlots, registerHeavyReads } from './http/heavy-reads.js';
import { registerIdempotency } from './http/idempotency.js';
import { withCommandAnswers } from './http/openapi-command-answers.js';
import { withLogRedaction } from './http/log-redaction.js';
import { healthRoute } from './http/health-route.js';
import { registerRouteAccess } from './http/route-access-hook.js';
import { registerReadYourWrites } from './http/read-your-writes.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerTextGuard } from './http/text-guard.js';
import { registerWebUi } from './http/web-ui.js';
import { filesRoute } from './files/files-route.js';
import { changePasswordRoute, loginRoute, logoutRoute } from './routes/auth/auth-routes.js';
import { liveAccessOf } from './live/live-access.js';
import { managementRoutes } from './routes/management/index.js';
import { exportRoutes } from './routes/exports/index.js';
import { reportRoutes } from './routes/reports/index.js';
import { statsRoutes } from './routes/stats/index.js';
import { publicTicketRoutes, ticketRoutes } from './routes/tickets/index.js';


declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: readonly RouteCatalogueEntry[];
  }
}

/** A registered route and its schemas (zod, from contracts): the access tests and the hostile-input test walk these. */
export interface RouteCatalogueEntry {
  method: string;
  url: string;
  schema?: FastifySchema | undefined;
}

/** Where the OpenAPI document (`/json`, `/yaml`) and its UI are served. */
export const API_DOCS_PREFIX = '/api/docs';

export interface BuildAppOptions {
  /** A pino logger; tests run silent. */
  loggerInstance?: FastifyBaseLogger;
}

/** TRUST_PROXY as Fastify takes it: a hop count is "the first n hops" (what Fastify does with a number, which its types omit). */
function trustProxyOption(trust: boolean | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** The HTTP app as a plugin tree. Never listens: `main.ts` does. */
export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // No token or authorization header in any log line (http/log-redaction.ts).
    ...(options.loggerInstance ? { loggerInstance: withLogRedaction(options.loggerInstance) } : { logger: false }),
    // Which X-Forwarded-For hops are believed (request.ip, counted by every per-address limit): none unless configured.
    trustProxy: trustProxyOption(deps.env.TRUST_PROXY),
    bodyLimit: 12 * 1024 * 1024,
    genReqId: () => deps.newId(),
    // Node's parser, not Fastify's: it decodes bytes that are not UTF-8 to U+FFFD (refused
    // by the text guard) where Fastify's kept the raw '%ED%A0%80' and went on.
    routerOptions: { querystringParser: (query: string) => parseQuery(query) },
    // The router's own refusals (a malformed %-escape, a path parameter over maxParamLength)
    // never reach setErrorHandler: answer them in French like every other refusal.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply.code(tooLong ? 414 : 400).send({ error: tooLong ? 'Adresse trop longue.' : 'Adresse invalide.', code: 'BAD_URL' });
    },
  });
  // Every route as registered, for the permission-matrix test and the API reference.
  const routeCatalogue: RouteCatalogueEntry[] = [];
  app.decorate('routeCatalogue', routeCatalogue);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_DOCS_PREFIX)) return; // the API reference itself: not a product route
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeCatalogue.push({ method, url: route.url, schema: route.schema });
  });
  // Who may call each route: the table in contracts, enforced here for every route registered below.
  registerRouteAccess(app, deps, { skipPrefixes: [], prefixAccess: { [API_DOCS_PREFIX]: API_DOCS_ACCESS } });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerTextGuard(app);
  // A command whose read models are late answers 202 (http/read-your-writes.ts); an
  // Idempotency-Key replays a command's answer (http/idempotency.ts). In this order:
  // the answer kept for replay is the final one.
  registerReadYourWrites(app, (position) => deps.live.sealPosition(position));
  registerIdempotency(app, deps.pool);
  // Unpaged lists, statistics and inline CSV run a few at a time (http/heavy-reads.ts, issue 28).
  registerHeavyReads(app, new HeavyReadSlots({ perUser: deps.env.HEAVY_READS_PER_USER, perInstance: deps.env.HEAVY_READS_PER_INSTANCE }));
  await registerSecurityHeaders(app, { publicUrl: deps.env.PUBLIC_URL });

  // API reference (OpenAPI 3, generated from the zod route schemas): registered before
  // every route so its onRoute hook sees them all. JSON at /api/docs/json, UI at /api/docs, for admin_plus only (API_DOCS_ACCESS).
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Maintenance incendie — API', description: 'Commands and queries of the ticketing product.', version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: createJsonSchemaTransform({ skipList: ['/ws'] }),
    transformObject: withCommandAnswers(jsonSchemaTransformObject),
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX, staticCSP: true });

  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  await app.register(fastifyMultipart, { limits: { fileSize: 8 * 1024 * 1024, files: 1, fields: 40, fieldSize: 64 * 1024 } });
  app.decorateRequest('principal', null);
  await healthRoute(app, deps);

  // Public routes: no token.
  await app.register(async (open) => {
    await loginRoute(open, deps);
    await logoutRoute(open, deps); // the token to end is in the body: its own proof
    await filesRoute(open, deps);
    await publicTicketRoutes(open, deps);
    // Their download links authenticate themselves (?token=); their other routes pass the door.
    await reportRoutes(open, deps);
    await exportRoutes(open, deps); // worker-made CSV exports (docs/exports.md)
  });

  // Everything else needs a valid token: the door (registerRouteAccess above) authenticates
  // once and checks role and permission, before the body is even parsed.
  await app.register(async (secured) => {
    await changePasswordRoute(secured, deps);
    await ticketRoutes(secured, deps);
    await managementRoutes(secured, deps);
    await statsRoutes(secured, deps);
  });

  // Live updates: ids and positions only, each socket those of its user's scope (live/live-hub.ts).
  // The session token comes in the socket's first message; `?token=` (older clients) still
  // works and is masked in the logs.
  deps.live.useAccess(liveAccessOf(deps));
  const LiveQuery = z.object({ token: z.string().max(SESSION_TOKEN_MAX_LENGTH).optional(), since: z.string().max(200).optional() });
  app.withTypeProvider<ZodTypeProvider>().get('/ws', { websocket: true, schema: { querystring: LiveQuery } }, (socket, request) => {
    deps.live.accept(socket, { since: request.query.since || null, token: request.query.token ?? bearerToken(request.headers.authorization) });
  });

  // The built web UI and the client-side routes' fallback (http/web-ui.ts): last, its not-found handler is the app's.
  await registerWebUi(app, deps.webRoot);

  return app;
}
