import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestedVersion, versionEtag } from '@fsm/contracts';

/*
 * The version a management edit was made on (docs/management-domain.md,
 * "Versions"): `If-Match: "<version>"` or the body's `version`. Absent, the
 * edit is decided on the fiche as the server reads it when the request arrives.
 */

export function editVersionOf(request: FastifyRequest, bodyVersion?: number): number | undefined {
  return requestedVersion(request.headers['if-match'], bodyVersion);
}

/** The fiche's version after a save, so a client can chain edits without reading it again. */
export function sendVersion(reply: FastifyReply, version: number): void {
  if (version >= 0) void reply.header('etag', versionEtag(version));
}
