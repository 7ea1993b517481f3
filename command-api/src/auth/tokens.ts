import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { UnauthorizedError } from '@fsm/contracts';

export const SESSION_EXPIRED = 'Session expirée';

export interface TokenClaims {
  /** User id. */
  sub: string;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Throws UnauthorizedError('Session expirée') for a bad, forged or expired token. */
  verify(token: string): Promise<TokenClaims>;
}

/**
 * HS256 bearer tokens with an expiry. They carry only the user id: role,
 * agency and permissions are read fresh on each request, so a revoked
 * permission or a deleted user takes effect at once.
 */
export function createTokenService(options: { secret: string; ttlHours: number; now?: () => Date }): TokenService {
  const key = new TextEncoder().encode(options.secret);
  const now = options.now ?? (() => new Date());
  const issuer = 'fsm-tickets';
  return {
    async sign(claims) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer(issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + Math.round(options.ttlHours * 3600))
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer,
          algorithms: ['HS256'],
          currentDate: now(),
        });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new UnauthorizedError(SESSION_EXPIRED);
        return { sub: payload.sub };
      } catch (error) {
        if (error instanceof UnauthorizedError) throw error;
        if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError(SESSION_EXPIRED);
        throw error;
      }
    },
  };
}

/** The token of an `Authorization: Bearer ...` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
