import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  installationBodySchema,
  parseManagementBody,
  type InstallationBodyInput,
  type InstallationEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveInstallation, installationInitialState, type InstallationState } from './installation.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). Whether the
 * site and the métier exist is the handler's check; open tickets arrive as a
 * flag.
 */

type CreateInstallation = {
  type: 'CreateInstallation';
  data: { installationId: string; fields: InstallationBodyInput; createdAt: string };
};
type UpdateInstallation = {
  type: 'UpdateInstallation';
  data: { installationId: string; fields: InstallationBodyInput; updatedAt: string };
};
type DeleteInstallation = {
  type: 'DeleteInstallation';
  data: { installationId: string; hasOpenTickets: boolean; deletedAt: string };
};

export type InstallationCommand = CreateInstallation | UpdateInstallation | DeleteInstallation;

function requireActive(state: InstallationState) {
  if (state.status !== 'active') throw new NotFoundError(M.installationNotFound);
  return state;
}

function factsOf(fields: InstallationBodyInput) {
  const { site_id, nom, id_metier, description, delai, astreinte } = parseManagementBody(installationBodySchema, fields);
  return { siteId: site_id, nom, metierId: id_metier, description, delai, astreinte };
}

function createInstallation(command: CreateInstallation, state: InstallationState): InstallationEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.installationExists);
  const { installationId, fields, createdAt } = command.data;
  return [{ type: 'InstallationCreated', data: { installationId, ...factsOf(fields), createdAt } }];
}

function updateInstallation(command: UpdateInstallation, state: InstallationState): InstallationEvent[] {
  const installation = requireActive(state);
  const { installationId, fields, updatedAt } = command.data;
  const next = factsOf(fields);
  const { siteId, nom, metierId, description, delai, astreinte } = installation;
  if (JSON.stringify(next) === JSON.stringify({ siteId, nom, metierId, description, delai, astreinte })) return [];
  return [{ type: 'InstallationUpdated', data: { installationId, ...next, updatedAt } }];
}

/**
 * Its QR codes are left as they are: the public form finds no live
 * installation behind them, and they can be assigned elsewhere later.
 */
function deleteInstallation(command: DeleteInstallation, state: InstallationState): InstallationEvent[] {
  requireActive(state);
  const { installationId, hasOpenTickets, deletedAt } = command.data;
  if (hasOpenTickets) throw new IllegalStateError(M.installationHasOpenTickets);
  return [{ type: 'InstallationDeleted', data: { installationId, deletedAt } }];
}

function decideInstallation(command: InstallationCommand, state: InstallationState): InstallationEvent[] {
  switch (command.type) {
    case 'CreateInstallation':
      return createInstallation(command, state);
    case 'UpdateInstallation':
      return updateInstallation(command, state);
    case 'DeleteInstallation':
      return deleteInstallation(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const installationDecider: Decider<InstallationCommand, InstallationState, InstallationEvent> = {
  decide: decideInstallation,
  evolve: evolveInstallation,
  initialState: installationInitialState,
};
