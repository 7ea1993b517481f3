import {
  userEventSchema,
  userStreamId,
  type TelesurvAccountFieldsInput,
  type TelesurvAccountUpdateFieldsInput,
  type UserEvent,
  type UserFieldsInput,
} from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { isEmailTaken, type Queryable } from '@fsm/projections';
import { claimEmail, claimedEmailOf, deleteCredentials, setPassword } from '../auth/credentials.js';
import { userDecider, type CreateTelesurvAccount, type CreateUser, type UserCommand } from '../domain/user/index.js';
import { execute, type Actor, type CommandContext, type CommandResult, type EditBasis } from './execute.js';

/*
 * Accounts (staff users and télésurveillance accounts) are the one aggregate
 * with data outside the log: the password hash and the e-mail reservation live
 * in auth.credentials (invariant 7). These handlers keep both in step with the
 * events: credentials are written before the append and undone if it fails.
 */

export const toUserEvent = (recorded: RecordedEvent): UserEvent => userEventSchema.parse({ type: recorded.type, data: recorded.data });

type AccountInput<Fields> = { userId: string; fields: Fields; password: string; at: Date };
/** `basis`: the version of the account the edit was decided on (execute's EditBasis). */
type AccountUpdateInput<Fields> = { userId: string; fields: Fields; password?: string | undefined; at: Date; basis: EditBasis };

/**
 * The password is written first (a credentials row without a user grants
 * nothing) and removed again if the event cannot be appended, so a failure
 * leaves nothing behind. The e-mail is reserved in the same row: the read
 * model says whether a live account uses it, the unique index settles a race.
 */
async function createAccount(
  context: CommandContext,
  db: Queryable,
  actor: Actor,
  input: AccountInput<{ email?: unknown }>,
  command: (emailTaken: boolean) => CreateUser | CreateTelesurvAccount,
): Promise<CommandResult<UserEvent>> {
  const email = String(input.fields.email ?? '');
  const takenInReadModel = await isEmailTaken(db, email);
  await setPassword(db, input.userId, input.password);
  try {
    const claimed = takenInReadModel || (await claimEmail(db, input.userId, email));
    return await execute(context, userDecider, userStreamId(input.userId), command(takenInReadModel || !claimed), actor, toUserEvent);
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
  context: CommandContext,
  db: Queryable,
  actor: Actor,
  input: AccountUpdateInput<{ email?: unknown }>,
  command: (emailTaken: boolean) => UserCommand,
): Promise<CommandResult<UserEvent>> {
  const email = String(input.fields.email ?? '');
  const takenInReadModel = await isEmailTaken(db, email, input.userId);
  const previous = await claimedEmailOf(db, input.userId);
  const claimed = takenInReadModel || (await claimEmail(db, input.userId, email));
  let result: CommandResult<UserEvent>;
  try {
    result = await execute(context, userDecider, userStreamId(input.userId), command(takenInReadModel || !claimed), actor, toUserEvent, input.basis);
  } catch (error) {
    if (!takenInReadModel && claimed) await claimEmail(db, input.userId, previous).catch(() => undefined);
    throw error;
  }
  if (input.password) await setPassword(db, input.userId, input.password);
  return result;
}

/** The event first: once it is appended the account cannot sign in (principals come from the read model); then the hash and the e-mail go. */
async function deleteAccount(
  context: CommandContext,
  db: Queryable,
  actor: Actor,
  userId: string,
  command: UserCommand,
  basis: EditBasis,
): Promise<CommandResult<UserEvent>> {
  const result = await execute(context, userDecider, userStreamId(userId), command, actor, toUserEvent, basis);
  await deleteCredentials(db, userId);
  return result;
}

export function createStaffUser(context: CommandContext, db: Queryable, actor: Actor, input: AccountInput<UserFieldsInput>) {
  return createAccount(context, db, actor, input, (emailTaken) => ({
    type: 'CreateUser',
    data: { userId: input.userId, fields: input.fields, emailTaken, createdAt: input.at.toISOString() },
  }));
}

export function createTelesurvAccount(context: CommandContext, db: Queryable, actor: Actor, input: AccountInput<TelesurvAccountFieldsInput>) {
  return createAccount(context, db, actor, input, (emailTaken) => ({
    type: 'CreateTelesurvAccount',
    data: { userId: input.userId, fields: input.fields, emailTaken, createdAt: input.at.toISOString() },
  }));
}

export function updateStaffUser(context: CommandContext, db: Queryable, actor: Actor, input: AccountUpdateInput<UserFieldsInput>) {
  return updateAccount(context, db, actor, input, (emailTaken) => ({
    type: 'UpdateUser',
    data: { userId: input.userId, fields: input.fields, emailTaken, updatedAt: input.at.toISOString() },
  }));
}

export function updateTelesurvAccount(context: CommandContext, db: Queryable, actor: Actor, input: AccountUpdateInput<TelesurvAccountUpdateFieldsInput>) {
  return updateAccount(context, db, actor, input, (emailTaken) => ({
    type: 'UpdateTelesurvAccount',
    data: { userId: input.userId, fields: input.fields, emailTaken, updatedAt: input.at.toISOString() },
  }));
}

/** `deletedBy` is the caller: the decider refuses deleting oneself. */
export function deleteStaffUser(context: CommandContext, db: Queryable, actor: Actor, input: { userId: string; deletedBy: string; at: Date; basis: EditBasis }) {
  return deleteAccount(
    context,
    db,
    actor,
    input.userId,
    { type: 'DeleteUser', data: { userId: input.userId, deletedBy: input.deletedBy, deletedAt: input.at.toISOString() } },
    input.basis,
  );
}

export function deleteTelesurvAccount(context: CommandContext, db: Queryable, actor: Actor, input: { userId: string; at: Date; basis: EditBasis }) {
  return deleteAccount(
    context,
    db,
    actor,
    input.userId,
    { type: 'DeleteTelesurvAccount', data: { userId: input.userId, deletedAt: input.at.toISOString() } },
    input.basis,
  );
}

/**
 * The whole set; who may grant what was checked by the route
 * (forbiddenPermissionChanges) against the set of `basis`'s version, so the
 * save lands on that set or not at all.
 */
export function setUserPermissions(context: CommandContext, actor: Actor, input: { userId: string; permissions: readonly string[]; at: Date; basis: EditBasis }) {
  return execute(
    context,
    userDecider,
    userStreamId(input.userId),
    { type: 'SetUserPermissions', data: { userId: input.userId, permissions: [...input.permissions], updatedAt: input.at.toISOString() } },
    actor,
    toUserEvent,
    input.basis,
  );
}
