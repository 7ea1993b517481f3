import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  parseManagementBody,
  siteBodySchema,
  type SiteBodyInput,
  type SiteEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveSite, siteInitialState, type SiteState } from './site.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). Whether the
 * client exists and is in the caller's agency is the handler's check; open
 * tickets arrive as a flag.
 */

type CreateSite = { type: 'CreateSite'; data: { siteId: string; fields: SiteBodyInput; createdAt: string } };
type UpdateSite = { type: 'UpdateSite'; data: { siteId: string; fields: SiteBodyInput; updatedAt: string } };
type DeleteSite = { type: 'DeleteSite'; data: { siteId: string; hasOpenTickets: boolean; deletedAt: string } };

export type SiteCommand = CreateSite | UpdateSite | DeleteSite;

function requireActive(state: SiteState) {
  if (state.status !== 'active') throw new NotFoundError(M.siteNotFound);
  return state;
}

function factsOf(fields: SiteBodyInput) {
  const { client_id, nom, adresse, ville, code_postal } = parseManagementBody(siteBodySchema, fields);
  return { clientId: client_id, nom, adresse, ville, code_postal };
}

function createSite(command: CreateSite, state: SiteState): SiteEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.siteExists);
  const { siteId, fields, createdAt } = command.data;
  return [{ type: 'SiteCreated', data: { siteId, ...factsOf(fields), createdAt } }];
}

function updateSite(command: UpdateSite, state: SiteState): SiteEvent[] {
  const site = requireActive(state);
  const { siteId, fields, updatedAt } = command.data;
  const next = factsOf(fields);
  const { clientId, nom, adresse, ville, code_postal } = site;
  if (JSON.stringify(next) === JSON.stringify({ clientId, nom, adresse, ville, code_postal })) return [];
  return [{ type: 'SiteUpdated', data: { siteId, ...next, updatedAt } }];
}

/** Its installations go with it in the read models (no event per child). */
function deleteSite(command: DeleteSite, state: SiteState): SiteEvent[] {
  requireActive(state);
  const { siteId, hasOpenTickets, deletedAt } = command.data;
  if (hasOpenTickets) throw new IllegalStateError(M.siteHasOpenTickets);
  return [{ type: 'SiteDeleted', data: { siteId, deletedAt } }];
}

function decideSite(command: SiteCommand, state: SiteState): SiteEvent[] {
  switch (command.type) {
    case 'CreateSite':
      return createSite(command, state);
    case 'UpdateSite':
      return updateSite(command, state);
    case 'DeleteSite':
      return deleteSite(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const siteDecider: Decider<SiteCommand, SiteState, SiteEvent> = {
  decide: decideSite,
  evolve: evolveSite,
  initialState: siteInitialState,
};
