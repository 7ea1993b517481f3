import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  interlocuteurBodySchema,
  parseManagementBody,
  type InterlocuteurBodyInput,
  type InterlocuteurEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveInterlocuteur, interlocuteurInitialState, type InterlocuteurFacts, type InterlocuteurState } from './interlocuteur.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). That the
 * affected sites and installations belong to the contact's client is the
 * handler's check, against the read models.
 */

type CreateInterlocuteur = {
  type: 'CreateInterlocuteur';
  data: { interlocuteurId: string; fields: InterlocuteurBodyInput; createdAt: string };
};
type UpdateInterlocuteur = {
  type: 'UpdateInterlocuteur';
  data: { interlocuteurId: string; fields: InterlocuteurBodyInput; updatedAt: string };
};
type DeleteInterlocuteur = { type: 'DeleteInterlocuteur'; data: { interlocuteurId: string; deletedAt: string } };

export type InterlocuteurCommand = CreateInterlocuteur | UpdateInterlocuteur | DeleteInterlocuteur;

type Description = Omit<InterlocuteurFacts, 'interlocuteurId'>;

function requireActive(state: InterlocuteurState) {
  if (state.status !== 'active') throw new NotFoundError(M.interlocuteurNotFound);
  return state;
}

function factsOf(fields: InterlocuteurBodyInput): Description {
  const body = parseManagementBody(interlocuteurBodySchema, fields);
  return {
    clientId: body.client_id,
    nom: body.nom,
    prenom: body.prenom,
    fonction: body.fonction,
    telephone: body.telephone,
    email: body.email,
    siteIds: body.affect_sites,
    installationIds: body.affect_installations,
  };
}

// Affectations are sets: a new order of the same ids is no change.
function sameDescription(a: Description, b: Description): boolean {
  const sameSet = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((id) => y.includes(id));
  return (
    a.clientId === b.clientId &&
    a.nom === b.nom &&
    a.prenom === b.prenom &&
    a.fonction === b.fonction &&
    a.telephone === b.telephone &&
    a.email === b.email &&
    sameSet(a.siteIds, b.siteIds) &&
    sameSet(a.installationIds, b.installationIds)
  );
}

function createInterlocuteur(command: CreateInterlocuteur, state: InterlocuteurState): InterlocuteurEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.interlocuteurExists);
  const { interlocuteurId, fields, createdAt } = command.data;
  const { siteIds, installationIds, ...rest } = factsOf(fields);
  return [{ type: 'InterlocuteurCreated', data: { interlocuteurId, ...rest, siteIds: [...siteIds], installationIds: [...installationIds], createdAt } }];
}

function updateInterlocuteur(command: UpdateInterlocuteur, state: InterlocuteurState): InterlocuteurEvent[] {
  const interlocuteur = requireActive(state);
  const { interlocuteurId, fields, updatedAt } = command.data;
  const next = factsOf(fields);
  if (sameDescription(next, interlocuteur)) return [];
  const { siteIds, installationIds, ...rest } = next;
  return [{ type: 'InterlocuteurUpdated', data: { interlocuteurId, ...rest, siteIds: [...siteIds], installationIds: [...installationIds], updatedAt } }];
}

function deleteInterlocuteur(command: DeleteInterlocuteur, state: InterlocuteurState): InterlocuteurEvent[] {
  requireActive(state);
  const { interlocuteurId, deletedAt } = command.data;
  return [{ type: 'InterlocuteurDeleted', data: { interlocuteurId, deletedAt } }];
}

function decideInterlocuteur(command: InterlocuteurCommand, state: InterlocuteurState): InterlocuteurEvent[] {
  switch (command.type) {
    case 'CreateInterlocuteur':
      return createInterlocuteur(command, state);
    case 'UpdateInterlocuteur':
      return updateInterlocuteur(command, state);
    case 'DeleteInterlocuteur':
      return deleteInterlocuteur(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const interlocuteurDecider: Decider<InterlocuteurCommand, InterlocuteurState, InterlocuteurEvent> = {
  decide: decideInterlocuteur,
  evolve: evolveInterlocuteur,
  initialState: interlocuteurInitialState,
};
