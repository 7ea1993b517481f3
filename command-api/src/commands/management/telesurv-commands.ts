import { ForbiddenError, MANAGEMENT_MESSAGES as M, ValidationError } from '@fsm/contracts';
import { listAgences, type AgenceScope } from '@fsm/projections';
import type { CommandCaller, EditBasis } from '../execute.js';
import { runUserCommand } from '../user-commands.js';

const OWN_AGENCE_ONLY = 'Vous ne pouvez agir que sur votre propre agence.';

/*
 * Creating, editing and deleting télésurveillance accounts share the account
 * handlers of ../user-commands.ts (credentials and e-mail reservation).
 */

/**
 * Replaces the account's agencies (§4). Every id must be a live agency. A
 * caller limited to some agencies (not admin_plus) changes only those: the
 * assignments to other agencies, which it cannot see, are kept as they were:
 * `current` is the account at `basis`'s version, and the save lands on that
 * version or not at all (else a concurrent change of those would be undone).
 */
export async function handleSetTelesurvAgences(
  caller: CommandCaller,
  input: { userId: string; agences: readonly string[]; current: readonly string[]; scope: AgenceScope; basis: EditBasis },
) {
  const live = new Set((await listAgences(caller.db, 'all')).map((agence) => agence.id));
  if (input.agences.some((id) => !live.has(id))) throw new ValidationError(M.telesurvAgenceInvalid);
  let agences = [...input.agences];
  if (input.scope !== 'all') {
    const scope = input.scope;
    if (agences.some((id) => !scope.includes(id))) throw new ForbiddenError(OWN_AGENCE_ONLY);
    agences = [...input.current.filter((id) => !scope.includes(id)), ...agences];
  }
  return runUserCommand(
    caller,
    input.userId,
    { type: 'SetTelesurvAgences', data: { userId: input.userId, agences, updatedAt: caller.now.toISOString() } },
    input.basis,
  );
}
