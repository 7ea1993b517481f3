import { ConcurrencyError, StreamNotFoundError } from '../errors.js';
import type { EventStore, NewEvent, Position, RecordedEvent } from '../port.js';

/**
 * Metadata key under which a copied event keeps the time its source store
 * recorded it. Stores write their own `recordedAt` on append; reads report this
 * one instead when present (see `metadataFromStore`), so audit trails and
 * reports keep the original dates after a move to another store.
 */
export const ORIGINAL_RECORDED_AT = 'originalRecordedAt';

export interface CopyEventsOptions {
  source: EventStore;
  target: EventStore;
  /** Exclusive start in the source log (a position printed by an earlier run); null = the beginning. */
  after?: Position | null;
  /** Events read from the source per page. */
  batchSize?: number;
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopyProgress {
  /** Events read from the source so far. */
  read: number;
  /** Events appended to the target. */
  copied: number;
  /** Events the target already had (same id, same stream, same revision): an earlier run copied them. */
  alreadyPresent: number;
  /** Source events of system streams (`$…`), never copied. */
  skippedSystem: number;
  /** Last source position handled: pass it as `after` to resume. */
  checkpoint: Position | null;
}

/** The target holds something else where a source event should go. */
export class CopyDivergenceError extends Error {
  constructor(
    readonly streamId: string,
    readonly revision: number,
    detail: string,
  ) {
    super(`the target's stream ${streamId} differs from the source at revision ${revision}: ${detail}`);
    this.name = 'CopyDivergenceError';
  }
}

const isSystem = (event: RecordedEvent) => event.streamId.startsWith('$') || event.type.startsWith('$');

function toNewEvent(event: RecordedEvent): NewEvent {
  const { recordedAt, ...metadata } = event.metadata;
  const original = typeof metadata[ORIGINAL_RECORDED_AT] === 'string' ? metadata[ORIGINAL_RECORDED_AT] : recordedAt;
  return { id: event.id, type: event.type, data: event.data, metadata: { ...metadata, [ORIGINAL_RECORDED_AT]: original } };
}

/**
 * Copies the source log into the target, in the source's global order: each
 * run of consecutive events of one stream is one append, with the expected
 * revision the stream's previous revision (`no_stream` before revision 0), so
 * ids, types, data, metadata, per-stream revisions and the global order are
 * kept. Re-running after an interruption copies nothing twice: events already
 * in the target (same ids at the same revisions) are recognised and skipped,
 * and anything else there is reported as a divergence rather than overwritten.
 *
 * Stop the writers (command-api, workers) for the final pass: events appended
 * to the source during a pass are copied by the next pass (`after` = the
 * printed checkpoint, or from the start: it is idempotent).
 */
export async function copyEvents(options: CopyEventsOptions): Promise<CopyProgress> {
  const { source, target } = options;
  const batchSize = options.batchSize ?? 500;
  const progress: CopyProgress = { read: 0, copied: 0, alreadyPresent: 0, skippedSystem: 0, checkpoint: options.after ?? null };
  /** Revision of the last event of each stream in the target, as far as this run knows. */
  const targetRevision = new Map<string, number>();

  async function currentTargetRevision(streamId: string): Promise<number> {
    const known = targetRevision.get(streamId);
    if (known !== undefined) return known;
    let revision = -1;
    try {
      const [last] = await target.readStream(streamId, { direction: 'backwards', maxCount: 1 });
      revision = last?.revision ?? -1;
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    targetRevision.set(streamId, revision);
    return revision;
  }

  async function verifyPresent(run: readonly RecordedEvent[]): Promise<void> {
    const first = run[0]!;
    const stored = await target.readStream(first.streamId, { fromRevision: first.revision, maxCount: run.length });
    run.forEach((event, i) => {
      const found = stored[i];
      if (!found || found.id !== event.id || found.revision !== event.revision) {
        throw new CopyDivergenceError(event.streamId, event.revision, `expected event ${event.id}, found ${found ? `${found.id} at ${found.revision}` : 'nothing'}`);
      }
    });
  }

  async function appendRun(run: readonly RecordedEvent[]): Promise<void> {
    const first = run[0]!;
    const last = run[run.length - 1]!;
    run.forEach((event, i) => {
      if (event.revision !== first.revision + i) throw new CopyDivergenceError(event.streamId, event.revision, 'the source stream has a gap in its revisions');
    });
    const streamId = first.streamId;
    const already = await currentTargetRevision(streamId);
    const present = run.filter((e) => e.revision <= already);
    const missing = run.filter((e) => e.revision > already);
    if (present.length > 0) {
      await verifyPresent(present);
      progress.alreadyPresent += present.length;
    }
    if (missing.length === 0) return;
    const from = missing[0]!.revision;
    if (from !== already + 1) throw new CopyDivergenceError(streamId, from, `the target stream ends at revision ${already}`);
    try {
      const result = await target.appendToStream(streamId, missing.map(toNewEvent), { expectedRevision: from === 0 ? 'no_stream' : from - 1 });
      if (result.nextExpectedRevision !== last.revision) {
        throw new CopyDivergenceError(streamId, last.revision, `the target gave revision ${result.nextExpectedRevision}`);
      }
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      throw new CopyDivergenceError(streamId, from, `someone else is writing to the target (it is at revision ${error.actual})`);
    }
    targetRevision.set(streamId, last.revision);
    progress.copied += missing.length;
  }

  for (;;) {
    const slice = await source.readAll({ from: progress.checkpoint, maxCount: batchSize });
    let run: RecordedEvent[] = [];
    for (const event of slice.events) {
      progress.read++;
      if (isSystem(event)) {
        progress.skippedSystem++;
        continue;
      }
      if (run.length > 0 && run[0]!.streamId !== event.streamId) {
        await appendRun(run);
        run = [];
      }
      run.push(event);
    }
    if (run.length > 0) await appendRun(run);
    if (slice.checkpoint !== null) progress.checkpoint = slice.checkpoint;
    options.onProgress?.({ ...progress });
    if (slice.caughtUp || slice.events.length === 0) return progress;
  }
}
