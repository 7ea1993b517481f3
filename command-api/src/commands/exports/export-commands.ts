import {
  EXPORT_MESSAGES,
  exportEventSchema,
  NotFoundError,
  defaultStatsWindow,
  exportStreamId,
  parisCalendarDay,
  parseRecorded,
  qrCodesCsvFileName,
  statsCsvFileName,
  type ExportRequestedData,
  type StatsTicketsQuery,
} from '@fsm/contracts';
import { readStreamOrEmpty, type EventStore } from '@fsm/eventstore';
import { exportDecider, type ExportState } from '../../domain/export/index.js';
import { fold } from '../../domain/decider.js';
import { commandHandler, type CommandCaller } from '../execute.js';

/*
 * Exports produced by the workers (docs/exports.md): one stream per export,
 * `export-<id>`, whose id is its ExportRequested event's id, so the workers'
 * job id derives from it and a replay never asks twice.
 */

const runExportCommand = commandHandler({ decider: exportDecider, streamOf: exportStreamId, events: exportEventSchema });

/** What the route resolved from the caller's rights: the agencies the file may cover. */
export type ExportTarget =
  | { kind: 'stats-tickets'; scope: 'all' | readonly string[]; filters: StatsTicketsQuery }
  | { kind: 'qrcodes'; agenceId: string };

/** POST /api/exports: asks the workers for the file; answers what was asked (the export's id is `exportId`). */
export async function handleRequestExport(caller: CommandCaller, input: { target: ExportTarget; requestedBy: string }): Promise<ExportRequestedData> {
  const { now } = caller;
  const exportId = caller.context.newId();
  const common = { exportId, asOf: now.toISOString(), requestedBy: input.requestedBy, requestedAt: now.toISOString() };
  const { target } = input;
  let data: ExportRequestedData;
  if (target.kind === 'stats-tickets') {
    const window = defaultStatsWindow(now);
    const query = target.filters;
    data = {
      ...common,
      kind: 'stats-tickets',
      scope: target.scope === 'all' ? 'all' : [...target.scope],
      filters: { from: query.from ?? window.from, to: query.to ?? window.to, ...(query.metier_id ? { metier_id: query.metier_id } : {}) },
      filename: statsCsvFileName(now),
    };
  } else {
    data = { ...common, kind: 'qrcodes', scope: [target.agenceId], filters: {}, filename: qrCodesCsvFileName(parisCalendarDay(now)) };
  }
  // The request event's id is the export's id.
  const withExportId = { ...caller, context: { ...caller.context, newId: () => exportId } };
  await runExportCommand(withExportId, exportId, { type: 'RequestExport', data });
  return data;
}

/** An export as its stream tells it; 404 for one never asked for. */
export async function loadExport(store: EventStore, exportId: string): Promise<Extract<ExportState, { status: 'requested' }>> {
  const history = await readStreamOrEmpty(store, exportStreamId(exportId));
  const state = fold(
    exportDecider.evolve,
    exportDecider.initialState,
    history.map((recorded) => parseRecorded(exportEventSchema, recorded)),
  );
  if (state.status === 'none') throw new NotFoundError(EXPORT_MESSAGES.notFound);
  return state;
}
