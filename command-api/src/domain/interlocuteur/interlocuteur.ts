import type { InterlocuteurEvent } from '@fsm/contracts';

/** The contact aggregate (`interlocuteur-<id>`). A deleted one keeps its facts so its id cannot be reused. */
export interface InterlocuteurFacts {
  interlocuteurId: string;
  clientId: string;
  nom: string;
  prenom: string;
  fonction: string | null;
  telephone: string | null;
  email: string | null;
  siteIds: readonly string[];
  installationIds: readonly string[];
}

export type InterlocuteurState =
  | { status: 'nonexistent' }
  | (InterlocuteurFacts & { status: 'active' })
  | (InterlocuteurFacts & { status: 'deleted' });

export const interlocuteurInitialState: InterlocuteurState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveInterlocuteur(state: InterlocuteurState, event: InterlocuteurEvent): InterlocuteurState {
  switch (event.type) {
    case 'InterlocuteurCreated': {
      if (state.status !== 'nonexistent') return state;
      const { createdAt: _createdAt, ...facts } = event.data;
      return { status: 'active', ...facts };
    }
    case 'InterlocuteurUpdated': {
      if (state.status !== 'active') return state;
      const { updatedAt: _updatedAt, interlocuteurId: _id, ...facts } = event.data;
      return { ...state, ...facts };
    }
    case 'InterlocuteurDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
