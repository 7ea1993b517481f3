import { ForbiddenError, UnauthorizedError } from '@fsm/contracts';
import type { AppDeps } from '../app-deps.js';
import { principalFromToken, principalOfUser, type Principal } from './principal.js';
import { DOWNLOAD_LINK_INVALID, bearerToken, type TokenService } from './tokens.js';

/*
 * Links a browser opens as plain URLs (report PDFs, CSV exports) carry a
 * short-lived token bound to their one file, never the session token: a URL
 * ends up in access logs, browser history and forwarded e-mails, and must not
 * open a whole session for twelve hours.
 */

/** A link for `file` (served at `path`) on behalf of `userId`, valid DOWNLOAD_TOKEN_TTL_SECONDS. */
export async function downloadLink(tokens: TokenService, userId: string, path: string, file: string): Promise<string> {
  return `${path}?token=${await tokens.signDownload({ sub: userId, file })}`;
}

/**
 * Who opens a download: a download token in the query (bound to one file:
 * another file is 403, an expired link 401), else a session token in the
 * bearer header. A session token in the query is refused (401). The route
 * checks scope after, either way.
 */
export async function downloaderOf(deps: AppDeps, queryToken: string | undefined, authorization: string | undefined, file: string): Promise<Principal> {
  if (queryToken) {
    const link = await deps.tokens.verifyDownload(queryToken);
    if (!link) throw new UnauthorizedError(DOWNLOAD_LINK_INVALID);
    if (link.file !== file) throw new ForbiddenError(DOWNLOAD_LINK_INVALID);
    return principalOfUser(link.sub, deps, null);
  }
  return principalFromToken(bearerToken(authorization), deps);
}
