import { userEventSchema, userStreamId, type TelesurvAccountFieldsInput, type UserEvent, type UserFieldsInput } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { isEmailTaken, type Queryable } from '@fsm/projections';
import { deleteCredentials, setPassword } from '../auth/credentials.js';
import { userDecider, type CreateTelesurvAccount, type CreateUser } from '../domain/user/index.js';
import { execute, type Actor, type CommandContext, type CommandResult } from './execute.js';

export const toUserEvent = (recorded: RecordedEvent): UserEvent => userEventSchema.parse({ type: recorded.type, data: recorded.data });

type AccountInput<Fields> = { userId: string; fields: Fields; password: string; at: Date };

/**
 * The password is written first (a credentials row without a user grants
 * nothing) and removed again if the event cannot be appended, so a failure
 * leaves nothing behind.
 */
async function createAccount(
  context: CommandContext,
  db: Queryable,
  actor: Actor,
  input: AccountInput<{ email?: unknown }>,
  command: (emailTaken: boolean) => CreateUser | CreateTelesurvAccount,
): Promise<CommandResult<UserEvent>> {
  const emailTaken = await isEmailTaken(db, String(input.fields.email ?? ''));
  await setPassword(db, input.userId, input.password);
  try {
    return await execute(context, userDecider, userStreamId(input.userId), command(emailTaken), actor, toUserEvent);
  } catch (error) {
    await deleteCredentials(db, input.userId).catch(() => undefined);
    throw error;
  }
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
