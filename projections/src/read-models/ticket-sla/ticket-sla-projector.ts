import type { RecordedEvent } from '@fsm/eventstore';
import type { Projector } from '../../projector.js';
import { UNSETTLED } from './ticket-sla-days.js';
import { onTicketBatch, slaTable } from './ticket-sla-fold.js';
import { onHoraires, onMetier } from './ticket-sla-reevaluation.js';

/**
 * Per ticket, the SLA figures of the statistics (docs/sla.md §8): the
 * deadline under its trade's clock, counted hours to arrival and to closing,
 * and the settled `sla_ok` / `devis_ok` flags. The stats, the CSV and the
 * home summary read this table; they never fold the log.
 *
 * The row keeps the facts the figures come from (taken from the ticket's own
 * events, not from rm.tickets, so the order of projectors does not matter),
 * and the figures are recomputed from them whenever an input changes:
 * - a ticket event that changes a fact re-evaluates that ticket;
 * - MetierCreated/MetierUpdated changing a trade's HO_stats re-evaluates the
 *   tickets of that trade (its clock changed);
 * - AgenceHorairesSet changing an agency's week re-evaluates that agency's
 *   tickets. Opening hours are not an input of the clock today (§5 excludes
 *   whole days), so this finds nothing to change and writes nothing; it is
 *   there so the read model follows every calendar input the issue names.
 * The trade clocks and agency weeks the projector last saw are kept in its own
 * small tables, so it can tell a real change from a rename.
 *
 * Idempotent: ticket rows are guarded by the ticket stream's revision, trade
 * and agency rows by their stream's revision, and a re-evaluation is a pure
 * function of stored facts that writes only rows whose figures differ.
 */
export const ticketSlaProjector: Projector = {
  name: 'ticket_sla',
  version: 2,
  handles: ['TicketOpened', 'TicketClosed', 'ReinterventionRecorded', 'QuoteValidated', 'MetierCreated', 'MetierUpdated', 'AgenceHorairesSet'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.ticket_sla (
      ticket_id uuid PRIMARY KEY,
      agence_id uuid NOT NULL,
      metier_id uuid,
      -- Facts, from the ticket's events.
      created_at timestamptz NOT NULL,
      delai double precision,
      echeance timestamptz,
      first_arrive_at timestamptz,
      clos_at timestamptz,
      devis smallint NOT NULL DEFAULT 0,
      date_devis timestamptz,
      devis_registered_at timestamptz,
      -- Figures, from the facts and the trade's clock.
      calendar_time boolean NOT NULL DEFAULT false,
      sla_deadline timestamptz,
      hours_to_arrival double precision,
      hours_to_closing double precision,
      sla_ok boolean,
      devis_due_at timestamptz,
      devis_ok boolean,
      last_revision int NOT NULL
    );
    -- Stats by agency (and re-evaluation of an agency), by window, newest first.
    CREATE INDEX IF NOT EXISTS ticket_sla_agence_created ON rm.ticket_sla (agence_id, created_at DESC, ticket_id DESC);
    -- Métier filter, and re-evaluation of a trade's tickets.
    CREATE INDEX IF NOT EXISTS ticket_sla_metier_created ON rm.ticket_sla (metier_id, created_at DESC, ticket_id DESC);
    -- Per agency, trade and Paris day of the request: the tickets, the closed ones and the settled
    -- flags, kept with every row write, so a window's totals add up days, not tickets (ticket-sla-days.ts).
    CREATE TABLE IF NOT EXISTS rm.ticket_sla_days (
      agence_id uuid NOT NULL,
      metier_id uuid,
      day date NOT NULL,
      tickets int NOT NULL,
      closed int NOT NULL,
      judged int NOT NULL,
      ok int NOT NULL,
      devis_eligible int NOT NULL,
      devis_ok int NOT NULL,
      CONSTRAINT ticket_sla_days_key UNIQUE NULLS NOT DISTINCT (agence_id, metier_id, day)
    );
    CREATE TABLE IF NOT EXISTS rm.ticket_sla_metiers (
      id uuid PRIMARY KEY,
      ho_stats smallint NOT NULL,
      last_revision int NOT NULL
    );
    CREATE TABLE IF NOT EXISTS rm.ticket_sla_agences (
      id uuid PRIMARY KEY,
      horaires jsonb NOT NULL,
      last_revision int NOT NULL
    );`,
  // Only the screens read these (apply reads rm.ticket_sla by ticket, and by trade or agency to re-evaluate).
  queryIndexesSql: `
    -- Stats across agencies (admin_plus, stats-global).
    CREATE INDEX IF NOT EXISTS ticket_sla_created ON rm.ticket_sla (created_at DESC, ticket_id DESC);
    -- Home summary: tickets closed within the window.
    CREATE INDEX IF NOT EXISTS ticket_sla_agence_closed ON rm.ticket_sla (agence_id, clos_at) WHERE clos_at IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ticket_sla_closed ON rm.ticket_sla (clos_at) WHERE clos_at IS NOT NULL;
    -- Flags that still depend on \`now\` (no arrival yet, a quote not registered yet): the stats
    -- summary counts these rows one by one and takes the others from rm.ticket_sla_days.
    CREATE INDEX IF NOT EXISTS ticket_sla_unsettled ON rm.ticket_sla (created_at) WHERE ${UNSETTLED};
    CREATE INDEX IF NOT EXISTS ticket_sla_days_day ON rm.ticket_sla_days (day);`,
  async apply(tx, events, replay) {
    // Trade and agency events re-evaluate many tickets: they stay one at a
    // time, and the ticket events before them are written first. They rewrite
    // rows in SQL, so a replay's cached rows are dropped and not used here.
    if (replay && events.some((recorded) => REEVALUATING.has(recorded.type))) {
      replay.rows.forget(slaTable.table);
      replay = undefined;
    }
    const changed = new Set<string>();
    let ticketEvents: RecordedEvent[] = [];
    const flush = async () => {
      for (const id of await onTicketBatch(tx, ticketEvents, replay)) changed.add(id);
      ticketEvents = [];
    };
    for (const recorded of events) {
      if (REEVALUATING.has(recorded.type)) {
        await flush();
        const ids = recorded.type === 'AgenceHorairesSet' ? await onHoraires(tx, recorded) : await onMetier(tx, recorded);
        for (const id of ids) changed.add(id);
      } else {
        ticketEvents.push(recorded);
      }
    }
    await flush();
    return [...changed];
  },
};

/** The events that re-evaluate every ticket of a trade or an agency. */
const REEVALUATING: ReadonlySet<string> = new Set(['MetierCreated', 'MetierUpdated', 'AgenceHorairesSet']);
