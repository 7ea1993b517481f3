import type { ClientEvent } from '@fsm/contracts';

/** The client aggregate (`client-<id>`). A deleted client keeps its facts so its id cannot be reused. */
interface ClientFacts {
  clientId: string;
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
  agenceId: string;
}

export type ClientState = { status: 'nonexistent' } | (ClientFacts & { status: 'active' }) | (ClientFacts & { status: 'deleted' });

export const clientInitialState: ClientState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveClient(state: ClientState, event: ClientEvent): ClientState {
  switch (event.type) {
    case 'ClientCreated': {
      if (state.status !== 'nonexistent') return state;
      const { clientId, nom, adresse, ville, code_postal, agenceId } = event.data;
      return { status: 'active', clientId, nom, adresse, ville, code_postal, agenceId };
    }
    case 'ClientUpdated': {
      if (state.status !== 'active') return state;
      const { nom, adresse, ville, code_postal, agenceId } = event.data;
      return { ...state, nom, adresse, ville, code_postal, agenceId };
    }
    case 'ClientDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
