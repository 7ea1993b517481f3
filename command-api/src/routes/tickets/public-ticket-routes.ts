import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fastifyRateLimit from '@fastify/rate-limit';
import {
  NotFoundError,
  publicQrKeyAnswerSchema,
  publicQrKeyParamsSchema,
  publicTicketCreateBodySchema,
  publicTicketCreateResponseSchema,
  TICKET_MESSAGES as M,
  TooManyRequestsError,
  ValidationError,
  parseManagementBody,
} from '@fsm/contracts';
import { findQrCodeByKey } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { commandCaller } from '../../commands/command-context.js';
import { handleOpenTicket } from '../../commands/tickets/open-ticket.js';
import { createCaptchaService } from '../../commands/tickets/public-captcha.js';
import { readMultipartForm } from '../../files/uploads.js';
import { actorOf } from '../actor.js';
import { addressRateLimit } from '../../http/rate-limits.js';
import { captchaChallengeAnswerSchema } from './ticket-route-schemas.js';

/** Per IP and minute. The captcha is fetched on each form load, so it gets more room than the submission. */
export const PUBLIC_RATE_LIMIT = { createPerMinute: 10, captchaPerMinute: 30, keyCheckPerMinute: 30 } as const;

/** The code behind a QR key when it leads to a live installation; null for an unknown key, or one whose installation is gone. */
async function liveInstallationOfKey(deps: AppDeps, rawKey: string): Promise<string | null> {
  const key = rawKey.trim();
  if (key === '' || key.length > 200) return null;
  const code = await findQrCodeByKey(deps.pool, key);
  return code?.live_installation_id ?? null;
}

function tooManyPublicRequests(ttlMs: number): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new TooManyRequestsError(`Trop de demandes depuis votre connexion. Merci de réessayer dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`);
}

/**
 * The anonymous breakdown request reached from a QR code (spec §2 /ticket):
 * GET /api/public/qr-keys/{key}, GET /api/public/captcha and
 * POST /api/public/ticket-create. Rate-limited per
 * client address in their own encapsulated scope, so login and files are not
 * affected. When Redis cannot count, they answer 503: this is the only
 * anonymous way to write events and files, and its limit is what bounds a
 * flood (a captcha costs a script well under a second).
 */
export async function publicTicketRoutes(open: FastifyInstance, deps: AppDeps): Promise<void> {
  const captcha = createCaptchaService({ db: deps.pool, secret: deps.env.TOKEN_SECRET });

  await open.register(async (scope) => {
    await scope.register(
      fastifyRateLimit,
      addressRateLimit(deps.rateLimits, {
        name: 'public',
        max: PUBLIC_RATE_LIMIT.createPerMinute,
        timeWindowMs: 60_000,
        whenUncounted: 'refuse',
        tooMany: tooManyPublicRequests,
      }),
    );
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/public/captcha',
      { config: { rateLimit: { max: PUBLIC_RATE_LIMIT.captchaPerMinute, timeWindow: 60_000 } }, schema: { response: { 200: captchaChallengeAnswerSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        const { parameters, signature } = await captcha.challenge();
        return { parameters: { ...parameters }, signature };
      },
    );

    /**
     * The form checks its link on load (issue 32, item 6), so a visitor with
     * a wrong or outdated QR code reads 'Lien non valide...' before typing
     * anything. Answers only valid or not: the creation route checks again.
     */
    routes.get(
      '/api/public/qr-keys/:key',
      {
        config: { rateLimit: { max: PUBLIC_RATE_LIMIT.keyCheckPerMinute, timeWindow: 60_000 } },
        schema: { params: publicQrKeyParamsSchema, response: { 200: publicQrKeyAnswerSchema } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if ((await liveInstallationOfKey(deps, request.params.key)) === null) throw new NotFoundError(M.invalidLink);
        return { valide: true as const };
      },
    );

    /**
     * Checks, in order: the QR key leads to a live installation (400 'Lien non
     * valide...'), the fields (400 'Merci de remplir...'), the captcha (400
     * 'Échec reCAPTCHA...', a solution counts once), then the photo by content.
     */
    routes.post('/api/public/ticket-create', { schema: { response: { 201: publicTicketCreateResponseSchema } } }, async (request, reply) => {
      const form = await readMultipartForm(request);
      const installationId = await liveInstallationOfKey(deps, form.fields.key ?? '');
      if (installationId === null) throw new ValidationError(M.invalidLink);
      const body = parseManagementBody(publicTicketCreateBodySchema, form.fields);
      if (!(await captcha.verifyAndConsume(body['g-recaptcha-response']))) throw new ValidationError(M.captchaFailed);
      await handleOpenTicket(commandCaller(deps, actorOf(request)), {
        source: 'public',
        installationId,
        scope: 'all',
        requester: { nom: body.nom, prenom: body.prenom, email: body.email, telephone: body.telephone },
        probleme: body.probleme,
        photo: form.file?.bytes ?? null,
        openedAt: null,
        operateur: null,
        urgentFlag: false,
        remarqueTech: null,
        technicienId: null,
      });
      return reply.status(201).send({ success: true as const, message: M.publicSuccess });
    });
  });
}
