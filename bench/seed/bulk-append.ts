import type pg from 'pg';
import { appendStatement, type ExpectedRevision, type NewEvent } from '@fsm/eventstore';
import type { PlannedEvent } from './history.js';

/**
 * Writes a chronological slice of the log through the event store's own
 * append function (`es.append_to_stream`, the one every command calls), one
 * call per stream with that stream's exact expected revision, all calls of a
 * slice in ONE statement and transaction — a multi-stream append. Payloads
 * are built by the adapter's `appendStatement`, so ids, types, data and
 * metadata are stored exactly as a command would store them.
 *
 * Inside a slice the events of one stream are one call, and streams come in
 * the order of their first event: a ticket's `ChronoAllocated` still precedes
 * its `TicketOpened`, and each stream's own order is the order of its events.
 * Metadata carries `originalRecordedAt` (as the copy tool does) so audit
 * screens and `recordedAt`-based read models see the simulated dates, not
 * the seeding day.
 */
export class BulkAppender {
  private readonly revisions = new Map<string, number>();
  private inFlight: Promise<void> = Promise.resolve();
  appended = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema = 'es',
  ) {}

  /** Builds the statement now (revisions are decided here, in log order) and sends it after the previous one. */
  append(events: readonly PlannedEvent[]): Promise<void> {
    const groups = new Map<string, PlannedEvent[]>();
    for (const event of events) {
      const group = groups.get(event.stream);
      if (group) group.push(event);
      else groups.set(event.stream, [event]);
    }
    const streams: string[] = [];
    const expected: string[] = [];
    const payloads: string[] = [];
    for (const [stream, group] of groups) {
      const current = this.revisions.get(stream) ?? -1;
      const expectedRevision: ExpectedRevision = current === -1 ? 'no_stream' : current;
      const newEvents: NewEvent[] = group.map((event) => ({
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: {
          userId: event.actor?.id ?? null,
          userName: event.actor ? `${event.actor.prenom} ${event.actor.nom}` : null,
          correlationId: event.correlationId,
          causationId: null,
          originalRecordedAt: new Date(event.at).toISOString(),
        },
      }));
      const statement = appendStatement(this.schema, stream, newEvents, expectedRevision);
      streams.push(stream);
      expected.push(statement.values[1]);
      payloads.push(statement.values[2]);
      if (group[group.length - 1]!.last) this.revisions.delete(stream);
      else this.revisions.set(stream, current + group.length);
    }
    const count = events.length;
    const previous = this.inFlight;
    const run = previous.then(async () => {
      const { rows } = await this.pool.query<{ stream_id: string; out_status: string; out_version: string }>(
        `SELECT u.stream_id, r.out_status, r.out_version
           FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(stream_id, expected, events, n)
           CROSS JOIN LATERAL "${this.schema}".append_to_stream(u.stream_id, u.expected, u.events::jsonb) r`,
        [streams, expected, payloads],
      );
      const failed = rows.find((row) => row.out_status !== 'ok');
      if (failed) throw new Error(`append refusé pour ${failed.stream_id} : ${failed.out_status} (révision ${failed.out_version})`);
      if (rows.length !== streams.length) throw new Error(`append : ${rows.length} réponses pour ${streams.length} flux`);
      this.appended += count;
    });
    // Failures surface through the next append or drain(); never as an unhandled rejection in between.
    run.catch(() => undefined);
    this.inFlight = run;
    return previous;
  }

  /** Waits for the last slice. */
  async drain(): Promise<void> {
    await this.inFlight;
  }
}
