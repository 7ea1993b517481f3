import type { Role, UserEvent } from '@fsm/contracts';

/**
 * The user aggregate (`user-<id>`): staff users and remote-surveillance
 * accounts (role telesurveillance) alike, since both sign in and both are
 * "a user" to the session. Passwords are not here: they live in the
 * credentials table, never in events.
 */
export interface UserFacts {
  userId: string;
  role: Role;
  nom: string;
  /** '' for remote-surveillance accounts. */
  prenom: string;
  email: string;
  telephone: string | null;
  /** null for remote-surveillance accounts. */
  agenceId: string | null;
  permissions: readonly string[];
  /** Agencies a remote-surveillance account acts for; empty for staff. */
  agenceIds: readonly string[];
}

export type UserState = { status: 'nonexistent' } | (UserFacts & { status: 'active' }) | (UserFacts & { status: 'deleted' });

export const userInitialState: UserState = { status: 'nonexistent' };

export function isTelesurvAccount(user: Pick<UserFacts, 'role'>): boolean {
  return user.role === 'telesurveillance';
}

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserCreated': {
      if (state.status !== 'nonexistent') return state;
      const { userId, role, nom, prenom, email, telephone, agenceId } = event.data;
      return { status: 'active', userId, role, nom, prenom, email, telephone, agenceId, permissions: [], agenceIds: [] };
    }
    case 'UserUpdated': {
      if (state.status !== 'active') return state;
      const { role, nom, prenom, email, telephone, agenceId } = event.data;
      return { ...state, role, nom, prenom, email, telephone, agenceId };
    }
    case 'UserPermissionsSet':
      return state.status === 'active' ? { ...state, permissions: event.data.permissions } : state;
    case 'TelesurvAgencesSet':
      return state.status === 'active' ? { ...state, agenceIds: event.data.agenceIds } : state;
    case 'UserDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
