import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ValidationError,
  defaultPermissionsForRole,
  parseManagementBody,
  telesurvAccountFieldsSchema,
  telesurvAccountUpdateFieldsSchema,
  telesurvAgencesBodySchema,
  userFieldsSchema,
  userPermissionsBodySchema,
  type TelesurvAccountFieldsInput,
  type TelesurvAccountUpdateFieldsInput,
  type UserEvent,
  type UserFieldsInput,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveUser, isTelesurvAccount, userInitialState, type UserState } from './user.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). Passwords
 * never reach the decider: the handler strips `motdepasse` from the body and
 * writes the credentials table itself. Whether the e-mail is used by another
 * account comes in as `emailTaken` (from the users read model, the account
 * itself excluded). Who may grant which role or permission is the handler's
 * check (canAssignRole, forbiddenPermissionChanges).
 */

// ---------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------

export type CreateUser = { type: 'CreateUser'; data: { userId: string; fields: UserFieldsInput; emailTaken: boolean; createdAt: string } };
type UpdateUser = { type: 'UpdateUser'; data: { userId: string; fields: UserFieldsInput; emailTaken: boolean; updatedAt: string } };
/** `deletedBy` is the caller: nobody deletes their own account. */
type DeleteUser = { type: 'DeleteUser'; data: { userId: string; deletedBy: string; deletedAt: string } };
/** `permissions` as PUT /api/utilisateurs/{id}/permissions sends it. */
type SetUserPermissions = { type: 'SetUserPermissions'; data: { userId: string; permissions: unknown; updatedAt: string } };

export type CreateTelesurvAccount = {
  type: 'CreateTelesurvAccount';
  data: { userId: string; fields: TelesurvAccountFieldsInput; emailTaken: boolean; createdAt: string };
};
type UpdateTelesurvAccount = {
  type: 'UpdateTelesurvAccount';
  data: { userId: string; fields: TelesurvAccountUpdateFieldsInput; emailTaken: boolean; updatedAt: string };
};
type DeleteTelesurvAccount = { type: 'DeleteTelesurvAccount'; data: { userId: string; deletedAt: string } };
/** `agences` as PUT /api/telesurv/{id}/agences sends it: the whole set. */
type SetTelesurvAgences = { type: 'SetTelesurvAgences'; data: { userId: string; agences: unknown; updatedAt: string } };

export type UserCommand =
  | CreateUser
  | UpdateUser
  | DeleteUser
  | SetUserPermissions
  | CreateTelesurvAccount
  | UpdateTelesurvAccount
  | DeleteTelesurvAccount
  | SetTelesurvAgences;

// ---------------------------------------------------------------------------
// Shared checks
// ---------------------------------------------------------------------------

type ActiveUser = Extract<UserState, { status: 'active' }>;

/** A staff user; a remote-surveillance account is managed from its own screen. */
function requireStaff(state: UserState): ActiveUser {
  if (state.status !== 'active') throw new NotFoundError(M.userNotFound);
  if (isTelesurvAccount(state)) throw new IllegalStateError(M.userIsTelesurv);
  return state;
}

/** The telesurv routes do not see staff users at all. */
function requireTelesurv(state: UserState): ActiveUser {
  if (state.status !== 'active' || !isTelesurvAccount(state)) throw new NotFoundError(M.telesurvNotFound);
  return state;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

// ---------------------------------------------------------------------------
// Staff users
// ---------------------------------------------------------------------------

/** A new user starts with its role's default permissions, recorded as a fact of that day. */
function createUser(command: CreateUser, state: UserState): UserEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.userExists);
  const { userId, fields, emailTaken, createdAt } = command.data;
  const { role, nom, prenom, email, telephone, agence_id } = parseManagementBody(userFieldsSchema, fields);
  if (emailTaken) throw new ValidationError(M.userEmailTaken);
  return [
    { type: 'UserCreated', data: { userId, role, nom, prenom, email, telephone, agenceId: agence_id, createdAt } },
    { type: 'UserPermissionsSet', data: { userId, permissions: defaultPermissionsForRole(role), updatedAt: createdAt } },
  ];
}

/** A new role brings that role's default permissions: a promotion should not keep a technician's set. */
function updateUser(command: UpdateUser, state: UserState): UserEvent[] {
  const user = requireStaff(state);
  const { userId, fields, emailTaken, updatedAt } = command.data;
  const { role, nom, prenom, email, telephone, agence_id } = parseManagementBody(userFieldsSchema, fields);
  if (emailTaken) throw new ValidationError(M.userEmailTaken);
  const unchanged =
    role === user.role && nom === user.nom && prenom === user.prenom && email === user.email && telephone === user.telephone && agence_id === user.agenceId;
  if (unchanged) return [];
  const updated: UserEvent = { type: 'UserUpdated', data: { userId, role, nom, prenom, email, telephone, agenceId: agence_id, updatedAt } };
  if (role === user.role) return [updated];
  return [updated, { type: 'UserPermissionsSet', data: { userId, permissions: defaultPermissionsForRole(role), updatedAt } }];
}

function deleteUser(command: DeleteUser, state: UserState): UserEvent[] {
  requireStaff(state);
  const { userId, deletedBy, deletedAt } = command.data;
  if (deletedBy === userId) throw new IllegalStateError(M.userCannotDeleteSelf);
  return [{ type: 'UserDeleted', data: { userId, deletedAt } }];
}

function setUserPermissions(command: SetUserPermissions, state: UserState): UserEvent[] {
  if (state.status === 'active' && isTelesurvAccount(state)) throw new IllegalStateError(M.telesurvHasNoPermissions);
  const user = requireStaff(state);
  const { userId, permissions, updatedAt } = command.data;
  const slugs = parseManagementBody(userPermissionsBodySchema, { permissions }).permissions;
  if (sameSet(slugs, user.permissions)) return [];
  return [{ type: 'UserPermissionsSet', data: { userId, permissions: slugs, updatedAt } }];
}

// ---------------------------------------------------------------------------
// Remote-surveillance accounts
// ---------------------------------------------------------------------------

function createTelesurvAccount(command: CreateTelesurvAccount, state: UserState): UserEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.userExists);
  const { userId, fields, emailTaken, createdAt } = command.data;
  const { nom, email, telephone } = parseManagementBody(telesurvAccountFieldsSchema, fields);
  if (emailTaken) throw new ValidationError(M.userEmailTaken);
  // No permission event: the role holds none (see hasPermission), and no agency until assigned.
  return [{ type: 'UserCreated', data: { userId, role: 'telesurveillance', nom, prenom: '', email, telephone, agenceId: null, createdAt } }];
}

function updateTelesurvAccount(command: UpdateTelesurvAccount, state: UserState): UserEvent[] {
  const account = requireTelesurv(state);
  const { userId, fields, emailTaken, updatedAt } = command.data;
  const { nom, email, telephone } = parseManagementBody(telesurvAccountUpdateFieldsSchema, fields);
  if (emailTaken) throw new ValidationError(M.userEmailTaken);
  if (nom === account.nom && email === account.email && telephone === account.telephone) return [];
  return [{ type: 'UserUpdated', data: { userId, role: 'telesurveillance', nom, prenom: account.prenom, email, telephone, agenceId: null, updatedAt } }];
}

function deleteTelesurvAccount(command: DeleteTelesurvAccount, state: UserState): UserEvent[] {
  requireTelesurv(state);
  const { userId, deletedAt } = command.data;
  return [{ type: 'UserDeleted', data: { userId, deletedAt } }];
}

/** The whole set replaces the previous one (§4); the same set in another order is no change. */
function setTelesurvAgences(command: SetTelesurvAgences, state: UserState): UserEvent[] {
  const account = requireTelesurv(state);
  const { userId, agences, updatedAt } = command.data;
  const agenceIds = parseManagementBody(telesurvAgencesBodySchema, { agences }).agences;
  if (sameSet(agenceIds, account.agenceIds)) return [];
  return [{ type: 'TelesurvAgencesSet', data: { userId, agenceIds, updatedAt } }];
}

// ---------------------------------------------------------------------------

function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'CreateUser':
      return createUser(command, state);
    case 'UpdateUser':
      return updateUser(command, state);
    case 'DeleteUser':
      return deleteUser(command, state);
    case 'SetUserPermissions':
      return setUserPermissions(command, state);
    case 'CreateTelesurvAccount':
      return createTelesurvAccount(command, state);
    case 'UpdateTelesurvAccount':
      return updateTelesurvAccount(command, state);
    case 'DeleteTelesurvAccount':
      return deleteTelesurvAccount(command, state);
    case 'SetTelesurvAgences':
      return setTelesurvAgences(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  decide: decideUser,
  evolve: evolveUser,
  initialState: userInitialState,
};
