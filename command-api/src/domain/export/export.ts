import type { ExportCompletedData, ExportEvent, ExportRequestedData } from '@fsm/contracts';

/** An export as its stream tells it: asked for, then done (its file) or failed, as the workers recorded. */
export type ExportState =
  | { status: 'none' }
  | { status: 'requested'; request: ExportRequestedData; completed: ExportCompletedData | null; failed: boolean };

export const initialState: ExportState = { status: 'none' };

export function evolve(state: ExportState, event: ExportEvent): ExportState {
  if (event.type === 'ExportRequested') return { status: 'requested', request: event.data, completed: null, failed: false };
  if (state.status === 'none') return state;
  if (event.type === 'ExportCompleted') return { ...state, completed: event.data };
  return { ...state, failed: true };
}
