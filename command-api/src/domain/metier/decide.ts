import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ValidationError,
  metierBodySchema,
  metierReorderBodySchema,
  parseManagementBody,
  type MetierBodyInput,
  type MetierEvent,
  type MetierReorderBodyInput,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveMetiers, metiersInitialState, type MetierEntry, type MetiersState } from './metiers.js';

/*
 * Order of checks: the trade exists (404), fits its state (409), then the
 * input (400). Whether installations still use a trade comes in as a flag from
 * the installations read model. The HO_stats toggle is an UpdateMetier.
 */

type CreateMetier = { type: 'CreateMetier'; data: { metierId: string; fields: MetierBodyInput; createdAt: string } };
type UpdateMetier = { type: 'UpdateMetier'; data: { metierId: string; fields: MetierBodyInput; updatedAt: string } };
type DeleteMetier = { type: 'DeleteMetier'; data: { metierId: string; usedByInstallations: boolean; deletedAt: string } };
/** The rows as PUT /api/metiers/reorder sends them. */
type ReorderMetiers = { type: 'ReorderMetiers'; data: { items: MetierReorderBodyInput; reorderedAt: string } };

export type MetierCommand = CreateMetier | UpdateMetier | DeleteMetier | ReorderMetiers;

function requireActive(state: MetiersState, metierId: string): MetierEntry {
  const metier = state.metiers[metierId];
  if (metier?.status !== 'active') throw new NotFoundError(M.metierNotFound);
  return metier;
}

// Two trades differing only by case, accents' composition or spaces would be the same row to a user.
function nameKey(nom: string): string {
  return nom.normalize('NFC').toLocaleLowerCase('fr').replace(/\s+/g, ' ');
}

function refuseTakenName(state: MetiersState, nom: string, metierId: string): void {
  const taken = Object.values(state.metiers).some(
    (metier) => metier.status === 'active' && metier.metierId !== metierId && nameKey(metier.nom) === nameKey(nom),
  );
  if (taken) throw new ValidationError(M.metierNomTaken);
}

function createMetier(command: CreateMetier, state: MetiersState): MetierEvent[] {
  const { metierId, fields, createdAt } = command.data;
  if (state.metiers[metierId]) throw new IllegalStateError(M.metierExists);
  const { nom, ordre, delai_inter, HO_stats } = parseManagementBody(metierBodySchema, fields);
  refuseTakenName(state, nom, metierId);
  return [{ type: 'MetierCreated', data: { metierId, nom, ordre, delai_inter, HO_stats, createdAt } }];
}

function updateMetier(command: UpdateMetier, state: MetiersState): MetierEvent[] {
  const { metierId, fields, updatedAt } = command.data;
  const metier = requireActive(state, metierId);
  const { nom, ordre, delai_inter, HO_stats } = parseManagementBody(metierBodySchema, fields);
  refuseTakenName(state, nom, metierId);
  if (nom === metier.nom && ordre === metier.ordre && delai_inter === metier.delai_inter && HO_stats === metier.HO_stats) return [];
  return [{ type: 'MetierUpdated', data: { metierId, nom, ordre, delai_inter, HO_stats, updatedAt } }];
}

function deleteMetier(command: DeleteMetier, state: MetiersState): MetierEvent[] {
  const { metierId, usedByInstallations, deletedAt } = command.data;
  requireActive(state, metierId);
  if (usedByInstallations) throw new IllegalStateError(M.metierInUse);
  return [{ type: 'MetierDeleted', data: { metierId, deletedAt } }];
}

/** Every listed trade must exist; only ranks that change are recorded. */
function reorderMetiers(command: ReorderMetiers, state: MetiersState): MetierEvent[] {
  const { items, reorderedAt } = command.data;
  const rows = parseManagementBody(metierReorderBodySchema, items);
  const changed = rows.filter((row) => requireActive(state, row.id).ordre !== row.ordre);
  if (changed.length === 0) return [];
  return [{ type: 'MetiersReordered', data: { items: changed.map((row) => ({ metierId: row.id, ordre: row.ordre })), reorderedAt } }];
}

function decideMetiers(command: MetierCommand, state: MetiersState): MetierEvent[] {
  switch (command.type) {
    case 'CreateMetier':
      return createMetier(command, state);
    case 'UpdateMetier':
      return updateMetier(command, state);
    case 'DeleteMetier':
      return deleteMetier(command, state);
    case 'ReorderMetiers':
      return reorderMetiers(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const metiersDecider: Decider<MetierCommand, MetiersState, MetierEvent> = {
  decide: decideMetiers,
  evolve: evolveMetiers,
  initialState: metiersInitialState,
};
