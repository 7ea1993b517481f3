import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  clientBodySchema,
  parseManagementBody,
  type ClientBodyInput,
  type ClientEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { clientInitialState, evolveClient, type ClientState } from './client.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). The agency
 * scope (non admin_plus users write to their own agency) and the open-ticket
 * count are the handler's, from the session and the read models; the latter
 * arrives as a flag so the rule is decided, and tested, here.
 */

type CreateClient = { type: 'CreateClient'; data: { clientId: string; fields: ClientBodyInput; createdAt: string } };
type UpdateClient = { type: 'UpdateClient'; data: { clientId: string; fields: ClientBodyInput; updatedAt: string } };
type DeleteClient = { type: 'DeleteClient'; data: { clientId: string; hasOpenTickets: boolean; deletedAt: string } };

export type ClientCommand = CreateClient | UpdateClient | DeleteClient;

function requireActive(state: ClientState) {
  if (state.status !== 'active') throw new NotFoundError(M.clientNotFound);
  return state;
}

function factsOf(fields: ClientBodyInput) {
  const { nom, adresse, ville, code_postal, agence_id } = parseManagementBody(clientBodySchema, fields);
  return { nom, adresse, ville, code_postal, agenceId: agence_id };
}

function createClient(command: CreateClient, state: ClientState): ClientEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.clientExists);
  const { clientId, fields, createdAt } = command.data;
  return [{ type: 'ClientCreated', data: { clientId, ...factsOf(fields), createdAt } }];
}

function updateClient(command: UpdateClient, state: ClientState): ClientEvent[] {
  const client = requireActive(state);
  const { clientId, fields, updatedAt } = command.data;
  const next = factsOf(fields);
  const { nom, adresse, ville, code_postal, agenceId } = client;
  if (JSON.stringify(next) === JSON.stringify({ nom, adresse, ville, code_postal, agenceId })) return [];
  return [{ type: 'ClientUpdated', data: { clientId, ...next, updatedAt } }];
}

/** Sites, installations and contacts go with the client in the read models (no event per child). */
function deleteClient(command: DeleteClient, state: ClientState): ClientEvent[] {
  requireActive(state);
  const { clientId, hasOpenTickets, deletedAt } = command.data;
  if (hasOpenTickets) throw new IllegalStateError(M.clientHasOpenTickets);
  return [{ type: 'ClientDeleted', data: { clientId, deletedAt } }];
}

function decideClient(command: ClientCommand, state: ClientState): ClientEvent[] {
  switch (command.type) {
    case 'CreateClient':
      return createClient(command, state);
    case 'UpdateClient':
      return updateClient(command, state);
    case 'DeleteClient':
      return deleteClient(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const clientDecider: Decider<ClientCommand, ClientState, ClientEvent> = {
  decide: decideClient,
  evolve: evolveClient,
  initialState: clientInitialState,
};
