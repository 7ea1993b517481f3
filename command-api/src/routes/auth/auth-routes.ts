import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import fastifyRateLimit from '@fastify/rate-limit';
import {
  ChangePasswordBodySchema,
  LOGIN_MESSAGES,
  LoginBodySchema,
  PASSWORD_MESSAGES,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
  sessionUserSchema,
} from '@fsm/contracts';
import { findUserByEmail } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { decoyHash, passwordHashOf, setPassword, tokenVersionOf, verifyPassword } from '../../auth/credentials.js';
import { clearFailures, lockedFor, recordFailure } from '../../auth/login-throttle.js';
import { principalOf, toSessionUser } from '../../auth/principal.js';

const LoginResponse = z.object({ token: z.string(), user: sessionUserSchema });
/** `token` replaces the caller's: the change revoked every token issued before it. */
const SuccessResponse = z.object({ success: z.literal(true), message: z.string(), token: z.string() });

export function tooManyAttempts(ms: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return new TooManyRequestsError(`Trop de tentatives de connexion. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`);
}

/**
 * Per IP and minute, on top of the per-e-mail backoff: one address trying many
 * e-mails can neither guess on a large scale nor fill auth.login_failures.
 * High enough for an office behind one NAT signing in at 8 o'clock.
 */
export const LOGIN_RATE_LIMIT_PER_MINUTE = 60;

/** POST /api/login: public. */
export async function loginRoute(parent: FastifyInstance, deps: AppDeps): Promise<void> {
  await parent.register(async (app) => {
    await app.register(fastifyRateLimit, {
      global: true,
      max: LOGIN_RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) => tooManyAttempts(context.ttl),
    });
    await loginHandler(app, deps);
  });
}

async function loginHandler(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post('/api/login', { schema: { body: LoginBodySchema, response: { 200: LoginResponse } } }, async (request) => {
    const { email, motdepasse } = request.body;
    const now = deps.clock();
    const locked = await lockedFor(deps.pool, email, now);
    if (locked > 0) throw tooManyAttempts(locked);
    const user = await findUserByEmail(deps.pool, email);
    const hash = user ? await passwordHashOf(deps.pool, user.id) : null;
    // Verify even without an account, so timing does not reveal which e-mails exist.
    const valid = await verifyPassword(motdepasse, hash ?? (await decoyHash()));
    if (!user || !hash || !valid) {
      await recordFailure(deps.pool, email, now);
      throw new UnauthorizedError(LOGIN_MESSAGES.invalidCredentials);
    }
    await clearFailures(deps.pool, email);
    const ver = (await tokenVersionOf(deps.pool, user.id)) ?? 0;
    return { token: await deps.tokens.sign({ sub: user.id, ver }), user: toSessionUser(user) };
  });
}

/** POST /api/utilisateurs/change-password: the signed-in user's own password. */
export async function changePasswordRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/utilisateurs/change-password', { schema: { body: ChangePasswordBodySchema, response: { 200: SuccessResponse } } }, async (request) => {
      const principal = principalOf(request);
      const { oldPassword, newPassword } = request.body;
      const hash = await passwordHashOf(deps.pool, principal.id);
      // 400, not 401/403: the screen would otherwise end the session.
      if (!hash || !(await verifyPassword(oldPassword, hash))) throw new ValidationError(PASSWORD_MESSAGES.wrongOldPassword);
      const ver = await setPassword(deps.pool, principal.id, newPassword);
      return { success: true as const, message: PASSWORD_MESSAGES.success, token: await deps.tokens.sign({ sub: principal.id, ver }) };
    });
}
