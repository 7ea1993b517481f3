import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  agenceBodySchema,
  agenceHorairesBodySchema,
  defaultAgenceHoraires,
  parseManagementBody,
  type AgenceBodyInput,
  type AgenceEvent,
  type AgenceHoraire,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { agenceInitialState, evolveAgence, type AgenceFacts, type AgenceState } from './agence.js';

/*
 * Checks run in a fixed order: the agency exists (404), the command fits its
 * state (409), then the input (400). Inputs were parsed by the route already;
 * parsing again here keeps the spec's rules for every caller (seed, import).
 * Cross-aggregate facts (clients or users still attached) come in as flags
 * computed by the handler from the read models.
 */

type CreateAgence = { type: 'CreateAgence'; data: { agenceId: string; fields: AgenceBodyInput; createdAt: string } };
/** `fields.id_template` absent keeps the current template; null unassigns it. */
type UpdateAgence = { type: 'UpdateAgence'; data: { agenceId: string; fields: AgenceBodyInput; updatedAt: string } };
type DeleteAgence = {
  type: 'DeleteAgence';
  data: { agenceId: string; hasClients: boolean; hasUsers: boolean; deletedAt: string };
};
/** The week as PUT /api/agences/{id}/horaires sends it. */
type SetAgenceHoraires = { type: 'SetAgenceHoraires'; data: { agenceId: string; horaires: unknown; updatedAt: string } };

export type AgenceCommand = CreateAgence | UpdateAgence | DeleteAgence | SetAgenceHoraires;

type ActiveAgence = Extract<AgenceState, { status: 'active' }>;

function requireActive(state: AgenceState): ActiveAgence {
  if (state.status !== 'active') throw new NotFoundError(M.agenceNotFound);
  return state;
}

type AgenceDescription = Omit<AgenceFacts, 'agenceId' | 'horaires'>;

function descriptionOf(facts: AgenceDescription): AgenceDescription {
  const { nom, adresse, cp_postal, ville, telephone, templateId } = facts;
  return { nom, adresse, cp_postal, ville, telephone, templateId };
}

// Field by field: a week read back from a jsonb column has its keys reordered.
function sameWeek(a: readonly AgenceHoraire[], b: readonly AgenceHoraire[]): boolean {
  const keys = ['day_of_week', 'morning_open', 'morning_close', 'afternoon_open', 'afternoon_close'] as const;
  return a.length === b.length && a.every((day, index) => keys.every((key) => day[key] === b[index]?.[key]));
}

function createAgence(command: CreateAgence, state: AgenceState): AgenceEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.agenceExists);
  const { agenceId, fields, createdAt } = command.data;
  const { id_template, ...body } = parseManagementBody(agenceBodySchema, fields);
  // A new agency is open with the default hours, so SLA deadlines make sense from day one.
  return [
    { type: 'AgenceCreated', data: { agenceId, ...body, templateId: id_template ?? null, createdAt } },
    { type: 'AgenceHorairesSet', data: { agenceId, horaires: defaultAgenceHoraires(), updatedAt: createdAt } },
  ];
}

function updateAgence(command: UpdateAgence, state: AgenceState): AgenceEvent[] {
  const agence = requireActive(state);
  const { agenceId, fields, updatedAt } = command.data;
  const { id_template, ...body } = parseManagementBody(agenceBodySchema, fields);
  const next = descriptionOf({ ...body, templateId: id_template === undefined ? agence.templateId : id_template });
  if (JSON.stringify(next) === JSON.stringify(descriptionOf(agence))) return [];
  return [{ type: 'AgenceUpdated', data: { agenceId, ...next, updatedAt } }];
}

function deleteAgence(command: DeleteAgence, state: AgenceState): AgenceEvent[] {
  requireActive(state);
  const { agenceId, hasClients, hasUsers, deletedAt } = command.data;
  if (hasClients) throw new IllegalStateError(M.agenceHasClients);
  if (hasUsers) throw new IllegalStateError(M.agenceHasUsers);
  return [{ type: 'AgenceDeleted', data: { agenceId, deletedAt } }];
}

function setAgenceHoraires(command: SetAgenceHoraires, state: AgenceState): AgenceEvent[] {
  const agence = requireActive(state);
  const { agenceId, horaires, updatedAt } = command.data;
  const week = parseManagementBody(agenceHorairesBodySchema, horaires);
  if (sameWeek(week, agence.horaires)) return [];
  return [{ type: 'AgenceHorairesSet', data: { agenceId, horaires: week, updatedAt } }];
}

function decideAgence(command: AgenceCommand, state: AgenceState): AgenceEvent[] {
  switch (command.type) {
    case 'CreateAgence':
      return createAgence(command, state);
    case 'UpdateAgence':
      return updateAgence(command, state);
    case 'DeleteAgence':
      return deleteAgence(command, state);
    case 'SetAgenceHoraires':
      return setAgenceHoraires(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const agenceDecider: Decider<AgenceCommand, AgenceState, AgenceEvent> = {
  decide: decideAgence,
  evolve: evolveAgence,
  initialState: agenceInitialState,
};
