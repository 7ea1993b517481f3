import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  clientEventSchema,
  clientStreamId,
  resolveScopedAgenceId,
  type ClientBody,
  type ClientEvent,
} from '@fsm/contracts';
import { findAgence, hasOpenTickets } from '@fsm/projections';
import { clientDecider } from '../../domain/client/index.js';
import { basisOf, commandHandler, type CommandResult } from '../execute.js';
import { requireClient, type ManagementCaller } from './client-scope.js';

/** Runs a command on the aggregate's stream. */
const runClientCommand = commandHandler({ decider: clientDecider, streamOf: clientStreamId, events: clientEventSchema });

/** The body of POST/PUT /api/clients; non admin_plus users may leave out the agency (theirs is used, §5). */
export type ClientFields = Omit<ClientBody, 'agence_id'> & { agence_id?: string | null | undefined };

/**
 * The agency a client lands in: admin_plus picks one that exists; everybody
 * else gets their own (another one is refused by resolveScopedAgenceId).
 */
async function agenceOf(caller: ManagementCaller, requested: string | null | undefined): Promise<string> {
  const agenceId = resolveScopedAgenceId(caller.user, requested);
  if (!(await findAgence(caller.db, agenceId))) throw new NotFoundError(M.agenceNotFound);
  return agenceId;
}

export async function handleCreateClient(caller: ManagementCaller, input: { clientId: string; fields: ClientFields }): Promise<CommandResult<ClientEvent>> {
  const agenceId = await agenceOf(caller, input.fields.agence_id);
  return runClientCommand(
    caller,
    input.clientId,
    { type: 'CreateClient', data: { clientId: input.clientId, fields: { ...input.fields, agence_id: agenceId }, createdAt: caller.now.toISOString() } },
  );
}

/**
 * Without an agency in the body, a client stays where it is. `version`: the
 * one the edit was made on (docs/management-domain.md, "Versions").
 */
export async function handleUpdateClient(
  caller: ManagementCaller,
  input: { clientId: string; fields: ClientFields; version?: number | undefined },
): Promise<CommandResult<ClientEvent>> {
  const current = await requireClient(caller, input.clientId);
  const basis = basisOf(current, input.version, clientStreamId(input.clientId));
  const agenceId = await agenceOf(caller, input.fields.agence_id ?? current.agence_id);
  return runClientCommand(
    caller,
    input.clientId,
    { type: 'UpdateClient', data: { clientId: input.clientId, fields: { ...input.fields, agence_id: agenceId }, updatedAt: caller.now.toISOString() } },
    basis,
  );
}

export async function handleDeleteClient(caller: ManagementCaller, input: { clientId: string; version?: number | undefined }): Promise<CommandResult<ClientEvent>> {
  const current = await requireClient(caller, input.clientId);
  const basis = basisOf(current, input.version, clientStreamId(input.clientId));
  const openTickets = await hasOpenTickets(caller.db, { clientId: input.clientId });
  return runClientCommand(
    caller,
    input.clientId,
    { type: 'DeleteClient', data: { clientId: input.clientId, hasOpenTickets: openTickets, deletedAt: caller.now.toISOString() } },
    basis,
  );
}
