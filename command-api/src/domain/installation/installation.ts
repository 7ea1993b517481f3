import type { InstallationEvent } from '@fsm/contracts';

/** The installation aggregate (`installation-<id>`). A deleted one keeps its facts so its id cannot be reused. */
interface InstallationFacts {
  installationId: string;
  siteId: string;
  nom: string;
  metierId: string;
  description: string;
  delai: number;
  astreinte: 0 | 1;
}

export type InstallationState =
  | { status: 'nonexistent' }
  | (InstallationFacts & { status: 'active' })
  | (InstallationFacts & { status: 'deleted' });

export const installationInitialState: InstallationState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveInstallation(state: InstallationState, event: InstallationEvent): InstallationState {
  switch (event.type) {
    case 'InstallationCreated': {
      if (state.status !== 'nonexistent') return state;
      const { installationId, siteId, nom, metierId, description, delai, astreinte } = event.data;
      return { status: 'active', installationId, siteId, nom, metierId, description, delai, astreinte };
    }
    case 'InstallationUpdated': {
      if (state.status !== 'active') return state;
      const { siteId, nom, metierId, description, delai, astreinte } = event.data;
      return { ...state, siteId, nom, metierId, description, delai, astreinte };
    }
    case 'InstallationDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
