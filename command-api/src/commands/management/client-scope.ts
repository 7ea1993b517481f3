import { MANAGEMENT_MESSAGES as M, NotFoundError, type SessionUser } from '@fsm/contracts';
import {
  findClient,
  findInstallation,
  findSite,
  type AgenceScope,
  type ClientRow,
  type InstallationFacts,
  type SiteFacts,
} from '@fsm/projections';
import type { CommandCaller } from '../execute.js';

/**
 * A client-management handler's caller: the request's caller with the
 * role, agency and scope that decide where a write may land. Routes build it
 * from the request (`callerOf`).
 */
export interface ManagementCaller extends CommandCaller {
  /** Role and agency decide where a write lands (resolveScopedAgenceId). */
  user: Pick<SessionUser, 'role' | 'agence_id'>;
  /** Agencies whose data the caller may change; anything else is "not found". */
  scope: AgenceScope;
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
