import { createHash, createHmac, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { DOWNLOAD_LINK_TTL_SECONDS, UnauthorizedError } from '@fsm/contracts';

export const SESSION_EXPIRED = 'Session expirée';
export const DOWNLOAD_LINK_EXPIRED = 'Lien de téléchargement expiré. Merci de le générer à nouveau.';
export const DOWNLOAD_LINK_INVALID = 'Lien de téléchargement invalide.';

/** How long a download link lives (the screens refresh the links they show). */
export const DOWNLOAD_TOKEN_TTL_SECONDS = DOWNLOAD_LINK_TTL_SECONDS;

export interface TokenClaims {
  /** User id. */
  sub: string;
  /**
   * The account's credential version when the token was issued (auth.credentials.token_version).
   * A password change bumps it, which revokes every older token. Absent = 0.
   */
  ver?: number | undefined;
}

/** A verified session token's claims, with its expiry (seconds since the epoch). */
export interface VerifiedToken extends TokenClaims {
  exp: number;
}

export interface DownloadClaims {
  /** Who asked for the link: the download re-checks their scope. */
  sub: string;
  /** The one file the link opens. */
  file: string;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Throws UnauthorizedError('Session expirée') for a bad, forged or expired token. */
  verify(token: string): Promise<VerifiedToken>;
  /** A short-lived token bound to one file, for a link the browser opens (`?token=`). */
  signDownload(claims: DownloadClaims): Promise<string>;
  /**
   * The claims of a download token; null when the token is not one (a session
   * token, garbage); UnauthorizedError when it is one but has expired.
   */
  verifyDownload(token: string): Promise<DownloadClaims | null>;
  /**
   * A 32-byte key derived from the token secret for one purpose only (photo
   * links, live positions): what one purpose signs or seals, no other accepts.
   */
  derivedKey(purpose: string): Buffer;
}

const ISSUER = 'fsm-tickets';
const DOWNLOAD_AUDIENCE = 'report-download';

/**
 * HS256 bearer tokens with an expiry. They carry only the user id and the
 * credential version: role, agency and permissions are read fresh on each
 * request, so a revoked permission or a deleted user takes effect at once.
 * Download tokens are signed with a key derived for that purpose only, so
 * neither kind can stand in for the other.
 */
export function createTokenService(options: { secret: string; ttlHours: number; now?: () => Date }): TokenService {
  const key = new TextEncoder().encode(options.secret);
  const downloadKey = createHmac('sha256', options.secret).update('fsm:report-download-token').digest();
  const now = options.now ?? (() => new Date());
  const seconds = () => Math.floor(now().getTime() / 1000);
  return {
    async sign(claims) {
      const issuedAt = seconds();
      return new SignJWT(claims.ver ? { ver: claims.ver } : {})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        // Unique per sign-in, so ending one session (revoked by hash) never ends a twin issued the same second.
        .setJti(randomUUID())
        .setIssuer(ISSUER)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + Math.round(options.ttlHours * 3600))
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'], currentDate: now() });
        if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new UnauthorizedError(SESSION_EXPIRED);
        const ver = payload.ver;
        if (ver !== undefined && (typeof ver !== 'number' || !Number.isInteger(ver))) throw new UnauthorizedError(SESSION_EXPIRED);
        // jose checked exp against the clock; a token without one is not ours.
        if (typeof payload.exp !== 'number') throw new UnauthorizedError(SESSION_EXPIRED);
        return ver === undefined ? { sub: payload.sub, exp: payload.exp } : { sub: payload.sub, ver, exp: payload.exp };
      } catch (error) {
        if (error instanceof UnauthorizedError) throw error;
        if (error instanceof joseErrors.JOSEError) throw new UnauthorizedError(SESSION_EXPIRED);
        throw error;
      }
    },
    async signDownload(claims) {
      const issuedAt = seconds();
      return new SignJWT({ file: claims.file })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(DOWNLOAD_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + DOWNLOAD_TOKEN_TTL_SECONDS)
        .sign(downloadKey);
    },
    derivedKey(purpose) {
      return createHmac('sha256', options.secret).update(`fsm:${purpose}`).digest();
    },
    async verifyDownload(token) {
      try {
        const { payload } = await jwtVerify(token, downloadKey, { issuer: ISSUER, audience: DOWNLOAD_AUDIENCE, algorithms: ['HS256'], currentDate: now() });
        if (typeof payload.sub !== 'string' || typeof payload.file !== 'string') return null;
        return { sub: payload.sub, file: payload.file };
      } catch (error) {
        // Signed by us for downloads, but too old: say so rather than "invalid".
        if (error instanceof joseErrors.JWTExpired) throw new UnauthorizedError(DOWNLOAD_LINK_EXPIRED);
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/**
 * What the revocation list stores of a token: its SHA-256, so the list holds no
 * usable credential and works for every token ever issued (no id claim needed).
 */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The token of an `Authorization: Bearer ...` header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
