import type { AgenceEvent, AgenceHoraire } from '@fsm/contracts';

/**
 * The agency aggregate (`agence-<id>`): what decide needs to refuse a command
 * and to tell a real change from a repeated save. A deleted agency keeps its
 * facts so a recreate with the same id is refused rather than resurrected.
 */
export interface AgenceFacts {
  agenceId: string;
  nom: string;
  adresse: string;
  cp_postal: string;
  ville: string;
  telephone: string;
  templateId: string | null;
  horaires: readonly AgenceHoraire[];
}

export type AgenceState =
  | { status: 'nonexistent' }
  | (AgenceFacts & { status: 'active' })
  | (AgenceFacts & { status: 'deleted' });

export const agenceInitialState: AgenceState = { status: 'nonexistent' };

/** Events that do not fit the state (only a tampered log has them) leave it unchanged. */
export function evolveAgence(state: AgenceState, event: AgenceEvent): AgenceState {
  switch (event.type) {
    case 'AgenceCreated': {
      if (state.status !== 'nonexistent') return state;
      const { agenceId, nom, adresse, cp_postal, ville, telephone, templateId } = event.data;
      return { status: 'active', agenceId, nom, adresse, cp_postal, ville, telephone, templateId, horaires: [] };
    }
    case 'AgenceUpdated': {
      if (state.status !== 'active') return state;
      const { nom, adresse, cp_postal, ville, telephone, templateId } = event.data;
      return { ...state, nom, adresse, cp_postal, ville, telephone, templateId };
    }
    case 'AgenceHorairesSet':
      return state.status === 'active' ? { ...state, horaires: event.data.horaires } : state;
    case 'AgenceDeleted':
      return state.status === 'active' ? { ...state, status: 'deleted' } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
