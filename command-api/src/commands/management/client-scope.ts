import { MANAGEMENT_MESSAGES as M, NotFoundError, type SessionUser } from '@fsm/contracts';
import {
  findClient,
  findInstallation,
  findSite,
  type AgenceScope,
  type ClientRow,
  type InstallationFacts,
  type Queryable,
  type SiteFacts,
} from '@fsm/projections';
import type { Actor, CommandContext } from '../execute.js';

/**
 * What a client-management handler needs besides its input: where to append,
 * where to read flags and scope from, who acts, and when. Routes build it from
 * the request (`callerOf`); the seed and the tests could build it by hand.
 */
export interface ManagementCaller {
  context: CommandContext;
  db: Queryable;
  actor: Actor;
  /** Role and agency decide where a write lands (resolveScopedAgenceId). */
  user: Pick<SessionUser, 'role' | 'agence_id'>;
  /** Agencies whose data the caller may change; anything else is "not found". */
  scope: AgenceScope;
  now: Date;
}

/*
 * Lookups that answer 404 for an unknown id and for another agency's id alike,
 * so an id changed in a URL or a body does not reveal that it exists.
 */

export async function requireClient(caller: Pick<ManagementCaller, 'db' | 'scope'>, clientId: string): Promise<ClientRow> {
  const client = await findClient(caller.db, clientId, caller.scope);
  if (!client) throw new NotFoundError(M.clientNotFound);
  return client;
}

export async function requireSite(caller: Pick<ManagementCaller, 'db' | 'scope'>, siteId: string): Promise<SiteFacts> {
  const site = await findSite(caller.db, siteId, caller.scope);
  if (!site) throw new NotFoundError(M.siteNotFound);
  return site;
}

export async function requireInstallation(caller: Pick<ManagementCaller, 'db' | 'scope'>, installationId: string): Promise<InstallationFacts> {
  const installation = await findInstallation(caller.db, installationId, caller.scope);
  if (!installation) throw new NotFoundError(M.installationNotFound);
  return installation;
}
