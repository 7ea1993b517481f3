import {
  userEventSchema,
  userStreamId,
  type TelesurvAccountFieldsInput,
  type TelesurvAccountUpdateFieldsInput,
  type UserEvent,
  type UserFieldsInput,
} from '@fsm/contracts';
import { isEmailTaken } from '@fsm/projections';
import { claimEmail, claimedEmailOf, deleteCredentials, setPassword } from '../auth/credentials.js';
import { userDecider, type CreateTelesurvAccount, type CreateUser, type UserCommand } from '../domain/user/index.js';
import { commandHandler, type CommandCaller, type CommandResult, type EditBasis } from './execute.js';

/*
 * Accounts (staff users and télésurveillance accounts) are the one aggregate
 * with data outside the log: the password hash and the e-mail reservation live
 * in auth.credentials (invariant 7). These handlers keep both in step with the
 * events: credentials are written before the append and undone if it fails.
 */

/** Runs a command on an account's stream (staff users and télésurveillance accounts alike). */
export const runUserCommand = commandHandler({ decider: userDecider, streamOf: userStreamId, events: userEventSchema });

type AccountInput<Fields> = { userId: string; fields: Fields; password: string };
/** `basis`: the version of the account the edit was decided on (execute's EditBasis). */
type AccountUpdateInput<Fields> = { userId: string; fields: Fields; password?: string | undefined; basis: EditBasis };

/**
 * The password is written first (a credentials row without a user grants
 * nothing) and removed again if the event cannot be appended, so a failure
 * leaves nothing behind. The e-mail is reserved in the same row: the read
 * model says whether a live account uses it, the unique index settles a race.
 */
async function createAccount(
  caller: CommandCaller,
  input: AccountInput<{ email?: unknown }>,
  command: (emailTaken: boolean) => CreateUser | CreateTelesurvAccount,
): Promise<CommandResult<UserEvent>> {
  const { db } = caller;
  const email = String(input.fields.email ?? '');
  const takenInReadModel = await isEmailTaken(db, email);
  await setPassword(db, input.userId, input.password);
  try {
    const claimed = takenInReadModel || (await claimEmail(db, input.userId, email));
    return await runUserCommand(caller, input.userId, command(takenInReadModel || !claimed));
  } catch (error) {
    await deleteCredentials(db, input.userId).catch(() => undefined);
    throw error;
  }
}

/**
 * Edits an account; a password in the body resets it (after the event, so a
 * refused edit changes nothing). The new e-mail is reserved before the append
 * and the previous reservation put back if the append fails.
 */
async function updateAccount(
  caller: CommandCaller,
  input: AccountUpdateInput<{ email?: unknown }>,
  command: (emailTaken: boolean) => UserCommand,
): Promise<CommandResult<UserEvent>> {
  const { db } = caller;
  const email = String(input.fields.email ?? '');
  const takenInReadModel = await isEmailTaken(db, email, input.userId);
  const previous = await claimedEmailOf(db, input.userId);
  const claimed = takenInReadModel || (await claimEmail(db, input.userId, email));
  let result: CommandResult<UserEvent>;
  try {
    result = await runUserCommand(caller, input.userId, command(takenInReadModel || !claimed), input.basis);
  } catch (error) {
    if (!takenInReadModel && claimed) await claimEmail(db, input.userId, previous).catch(() => undefined);
    throw error;
  }
  if (input.password) await setPassword(db, input.userId, input.password);
  return result;
}

/** The event first: once it is appended the account cannot sign in (principals come from the read model); then the hash and the e-mail go. */
async function deleteAccount(caller: CommandCaller, userId: string, command: UserCommand, basis: EditBasis): Promise<CommandResult<UserEvent>> {
  const result = await runUserCommand(caller, userId, command, basis);
  await deleteCredentials(caller.db, userId);
  return result;
}

export function handleCreateStaffUser(caller: CommandCaller, input: AccountInput<UserFieldsInput>) {
  return createAccount(caller, input, (emailTaken) => ({
    type: 'CreateUser',
    data: { userId: input.userId, fields: input.fields, emailTaken, createdAt: caller.now.toISOString() },
  }));
}

export function handleCreateTelesurvAccount(caller: CommandCaller, input: AccountInput<TelesurvAccountFieldsInput>) {
  return createAccount(caller, input, (emailTaken) => ({
    type: 'CreateTelesurvAccount',
    data: { userId: input.userId, fields: input.fields, emailTaken, createdAt: caller.now.toISOString() },
  }));
}

export function handleUpdateStaffUser(caller: CommandCaller, input: AccountUpdateInput<UserFieldsInput>) {
  return updateAccount(caller, input, (emailTaken) => ({
    type: 'UpdateUser',
    data: { userId: input.userId, fields: input.fields, emailTaken, updatedAt: caller.now.toISOString() },
  }));
}

export function handleUpdateTelesurvAccount(caller: CommandCaller, input: AccountUpdateInput<TelesurvAccountUpdateFieldsInput>) {
  return updateAccount(caller, input, (emailTaken) => ({
    type: 'UpdateTelesurvAccount',
    data: { userId: input.userId, fields: input.fields, emailTaken, updatedAt: caller.now.toISOString() },
  }));
}

/** `deletedBy` is the caller: the decider refuses deleting oneself. */
export function handleDeleteStaffUser(caller: CommandCaller, input: { userId: string; deletedBy: string; basis: EditBasis }) {
  return deleteAccount(
    caller,
    input.userId,
    { type: 'DeleteUser', data: { userId: input.userId, deletedBy: input.deletedBy, deletedAt: caller.now.toISOString() } },
    input.basis,
  );
}

export function handleDeleteTelesurvAccount(caller: CommandCaller, input: { userId: string; basis: EditBasis }) {
  return deleteAccount(
    caller,
    input.userId,
    { type: 'DeleteTelesurvAccount', data: { userId: input.userId, deletedAt: caller.now.toISOString() } },
    input.basis,
  );
}

/**
 * The whole set; who may grant what was checked by the route
 * (forbiddenPermissionChanges) against the set of `basis`'s version, so the
 * save lands on that set or not at all.
 */
export function handleSetUserPermissions(caller: CommandCaller, input: { userId: string; permissions: readonly string[]; basis: EditBasis }) {
  return runUserCommand(
    caller,
    input.userId,
    { type: 'SetUserPermissions', data: { userId: input.userId, permissions: [...input.permissions], updatedAt: caller.now.toISOString() } },
    input.basis,
  );
}
