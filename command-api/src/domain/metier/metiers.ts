import type { MetierEvent } from '@fsm/contracts';

/**
 * The trades catalogue, one stream (`metiers-catalogue`): a reorder touches
 * every trade at once and names must stay unique, both decided on one state.
 * Deleted trades stay in the state so their ids cannot be reused.
 */
export interface MetierEntry {
  metierId: string;
  status: 'active' | 'deleted';
  nom: string;
  ordre: number | null;
  delai_inter: number | null;
  HO_stats: 0 | 1;
}

export type MetiersState = { status: 'catalogue'; metiers: Readonly<Record<string, MetierEntry>> };

export const metiersInitialState: MetiersState = { status: 'catalogue', metiers: {} };

function withEntry(state: MetiersState, entry: MetierEntry): MetiersState {
  return { ...state, metiers: { ...state.metiers, [entry.metierId]: entry } };
}

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveMetiers(state: MetiersState, event: MetierEvent): MetiersState {
  switch (event.type) {
    case 'MetierCreated': {
      const { metierId, nom, ordre, delai_inter, HO_stats } = event.data;
      if (state.metiers[metierId]) return state;
      return withEntry(state, { metierId, status: 'active', nom, ordre, delai_inter, HO_stats });
    }
    case 'MetierUpdated': {
      const { metierId, nom, ordre, delai_inter, HO_stats } = event.data;
      const current = state.metiers[metierId];
      if (current?.status !== 'active') return state;
      return withEntry(state, { ...current, nom, ordre, delai_inter, HO_stats });
    }
    case 'MetierDeleted': {
      const current = state.metiers[event.data.metierId];
      if (current?.status !== 'active') return state;
      return withEntry(state, { ...current, status: 'deleted' });
    }
    case 'MetiersReordered':
      return event.data.items.reduce((next, { metierId, ordre }) => {
        const current = next.metiers[metierId];
        return current?.status === 'active' ? withEntry(next, { ...current, ordre }) : next;
      }, state);
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
