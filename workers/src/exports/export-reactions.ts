import type { Reaction } from '../reactor.js';
import { PRODUCE_EXPORT_JOB } from './export-processor.js';

/** One job per ExportRequested; the export's id is that event's id, and so is the job's. */
const exportOnRequest: Reaction = {
  name: 'exportOnRequest',
  handles: ['ExportRequested'],
  jobsFor(event) {
    if (!event.streamId.startsWith('export-')) return [];
    return [{ queue: 'exports', name: PRODUCE_EXPORT_JOB, jobId: `export-${event.id}`, data: { exportId: event.id } }];
  },
};

export const exportReactions: readonly Reaction[] = [exportOnRequest];
