import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import fastifyRateLimit from '@fastify/rate-limit';
import {
  changePasswordBodySchema,
  LOGIN_MESSAGES,
  loginBodySchema,
  logoutBodySchema,
  logoutResponseSchema,
  PASSWORD_MESSAGES,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
  sessionUserSchema,
} from '@fsm/contracts';
import { findUserByEmail } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { decoyHash, passwordHashOf, revokeToken, setPassword, tokenVersionOf, verifyPassword } from '../../auth/credentials.js';
import { clearFailures, lockedFor, recordFailure } from '../../auth/login-throttle.js';
import { addressRateLimit, clientAddress } from '../../http/rate-limits.js';
import { principalOf, toSessionUser } from '../../auth/principal.js';
import { bearerToken, tokenHash, type VerifiedToken } from '../../auth/tokens.js';

const LoginResponse = z.object({ token: z.string(), user: sessionUserSchema });
/** `token` replaces the caller's: the change revoked every token issued before it. */
const SuccessResponse = z.object({ success: z.literal(true), message: z.string(), token: z.string() });

function tooManyAttempts(ms: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return new TooManyRequestsError(`Trop de tentatives de connexion. Réessayez dans ${minutes} minute${minutes > 1 ? 's' : ''}.`);
}

/**
 * Per client address and minute, on top of the per-(e-mail, address) backoff:
 * one address trying many e-mails can neither guess on a large scale nor fill
 * auth.login_failures. High enough for an office behind one NAT signing in at
 * 8 o'clock. When Redis cannot count, logins go on: the backoff (Postgres)
 * still slows every guesser, and nobody is kept out of the product by an
 * outage of the queue server.
 */
export const LOGIN_RATE_LIMIT_PER_MINUTE = 60;

/** POST /api/login: public. */
export async function loginRoute(parent: FastifyInstance, deps: AppDeps): Promise<void> {
  await parent.register(async (app) => {
    await app.register(
      fastifyRateLimit,
      addressRateLimit(deps.rateLimits, { name: 'login', max: LOGIN_RATE_LIMIT_PER_MINUTE, timeWindowMs: 60_000, whenUncounted: 'allow', tooMany: tooManyAttempts }),
    );
    await loginHandler(app, deps);
  });
}

async function loginHandler(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post('/api/login', { schema: { body: loginBodySchema, response: { 200: LoginResponse } } }, async (request) => {
    const { email, motdepasse } = request.body;
    const now = deps.clock();
    const source = clientAddress(request);
    const locked = await lockedFor(deps.pool, email, source, now);
    if (locked > 0) throw tooManyAttempts(locked);
    const user = await findUserByEmail(deps.pool, email);
    const hash = user ? await passwordHashOf(deps.pool, user.id) : null;
    // Verify even without an account, so timing does not reveal which e-mails exist.
    const valid = await verifyPassword(motdepasse, hash ?? (await decoyHash()));
    if (!user || !hash || !valid) {
      await recordFailure(deps.pool, email, source, now);
      throw new UnauthorizedError(LOGIN_MESSAGES.invalidCredentials);
    }
    await clearFailures(deps.pool, email, source);
    const ver = (await tokenVersionOf(deps.pool, user.id)) ?? 0;
    return { token: await deps.tokens.sign({ sub: user.id, ver }), user: toSessionUser(user) };
  });
}

/** POST /api/utilisateurs/change-password: the signed-in user's own password. */
export async function changePasswordRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/utilisateurs/change-password', { schema: { body: changePasswordBodySchema, response: { 200: SuccessResponse } } }, async (request) => {
      const principal = principalOf(request);
      const { oldPassword, newPassword } = request.body;
      // The old password is checked like a login (same backoff per account and address):
      // a session left open must not become a way to guess it, nor to keep scrypt busy.
      const now = deps.clock();
      const source = clientAddress(request);
      const locked = await lockedFor(deps.pool, principal.email, source, now);
      if (locked > 0) throw tooManyAttempts(locked);
      const hash = await passwordHashOf(deps.pool, principal.id);
      // 400, not 401/403: the screen would otherwise end the session.
      if (!hash || !(await verifyPassword(oldPassword, hash))) {
        await recordFailure(deps.pool, principal.email, source, now);
        throw new ValidationError(PASSWORD_MESSAGES.wrongOldPassword);
      }
      await clearFailures(deps.pool, principal.email, source);
      const ver = await setPassword(deps.pool, principal.id, newPassword);
      // The account's other sessions' live sockets close now on this instance (other instances':
      // at their next check); this one's browser reconnects with the fresh token.
      deps.live.recheckUser(principal.id, bearerToken(request.headers.authorization));
      return { success: true as const, message: PASSWORD_MESSAGES.success, token: await deps.tokens.sign({ sub: principal.id, ver }) };
    });
}

/**
 * POST /api/logout (Déconnexion): ends the session of the token in the body,
 * on the server, so a copy of it (a shared PC, a log, a stolen backup) is
 * refused from now on; the account's other sessions (another browser) stay.
 * Public like login: the token is its own proof. A token that is already
 * refused (expired, forged, revoked) has no session left to end: same answer.
 */
export async function logoutRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/logout', { schema: { body: logoutBodySchema, response: { 200: logoutResponseSchema } } }, async (request) => {
      const { token } = request.body;
      let claims: VerifiedToken | null = null;
      try {
        claims = await deps.tokens.verify(token);
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
      }
      if (claims) {
        await revokeToken(deps.pool, tokenHash(token), claims.sub, new Date(claims.exp * 1000), deps.clock());
        deps.live.recheckUser(claims.sub);
      }
      return { success: true as const };
    });
}
