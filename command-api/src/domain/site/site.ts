import type { SiteEvent } from '@fsm/contracts';

/** The site aggregate (`site-<id>`). A deleted site keeps its facts so its id cannot be reused. */
interface SiteFacts {
  siteId: string;
  clientId: string;
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
}

export type SiteState = { status: 'nonexistent' } | (SiteFacts & { status: 'active' }) | (SiteFacts & { status: 'deleted' });

export const siteInitialState: SiteState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveSite(state: SiteState, event: SiteEvent): SiteState {
  switch (event.type) {
    case 'SiteCreated': {
      if (state.status !== 'nonexistent') return state;
      const { siteId, clientId, nom, adresse, ville, code_postal } = event.data;
      return { status: 'active', siteId, clientId, nom, adresse, ville, code_postal };
    }
    case 'SiteUpdated': {
      if (state.status !== 'active') return state;
      const { clientId, nom, adresse, ville, code_postal } = event.data;
      return { ...state, clientId, nom, adresse, ville, code_postal };
    }
    case 'SiteDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
