import type { ExportEvent, ExportRequestedData } from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolve, initialState, type ExportState } from './export.js';

/** Ask the workers for a file; the API resolved its scope, filters and name from the caller's rights. */
interface RequestExport {
  type: 'RequestExport';
  data: ExportRequestedData;
}

export type ExportCommand = RequestExport;

/** An export asked for twice (the same id) is the same export: nothing more to append. */
function requestExport(command: RequestExport, state: ExportState): ExportEvent[] {
  if (state.status !== 'none') return [];
  return [{ type: 'ExportRequested', data: command.data }];
}

function decide(command: ExportCommand, state: ExportState): ExportEvent[] {
  switch (command.type) {
    case 'RequestExport':
      return requestExport(command, state);
    default: {
      const unknown: never = command.type;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const exportDecider: Decider<ExportCommand, ExportState, ExportEvent> = { decide, evolve, initialState };
