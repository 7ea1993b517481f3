import { exportEventSchema, type ExportEvent, type ExportRequestedData } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { fold } from '../decider.js';
import { IDS, T0, T1 } from '../test-support/management-decider-spec.js';
import { exportDecider } from './decide.js';

const exportId = IDS.batch;
const data: ExportRequestedData = {
  exportId,
  kind: 'qrcodes',
  scope: [IDS.agence],
  filters: {},
  asOf: T0,
  filename: 'qrcodes-2026-03-02.csv',
  requestedBy: IDS.user,
  requestedAt: T0,
};
const requested: ExportEvent = { type: 'ExportRequested', data };
const completed: ExportEvent = {
  type: 'ExportCompleted',
  data: { exportId, kind: 'qrcodes', filename: data.filename, blobRef: `${'b'.repeat(64)}.csv`, sha256: 'b'.repeat(64), bytes: 10, rows: 1, completedAt: T1 },
};
const failed: ExportEvent = { type: 'ExportFailed', data: { exportId, kind: 'qrcodes', error: 'boom', failedAt: T1 } };

const stateAfter = (...history: ExportEvent[]) => fold(exportDecider.evolve, exportDecider.initialState, history);

describe('when the export was never asked for', () => {
  it('asks for it', () => {
    const events = exportDecider.decide({ type: 'RequestExport', data }, stateAfter());
    expect(events).toEqual([requested]);
    for (const event of events) expect(exportEventSchema.parse(event)).toEqual(event);
  });
});

describe('when the export was asked for', () => {
  it('appends nothing for the same export', () => {
    expect(exportDecider.decide({ type: 'RequestExport', data }, stateAfter(requested))).toEqual([]);
  });

  it('knows its file once done, and its failure', () => {
    expect(stateAfter(requested, completed)).toEqual({ status: 'requested', request: data, completed: completed.data, failed: false });
    expect(stateAfter(requested, failed)).toEqual({ status: 'requested', request: data, completed: null, failed: true });
  });
});
