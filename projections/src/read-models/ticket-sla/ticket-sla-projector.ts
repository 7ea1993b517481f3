import { agenceEventSchema, metierEventSchema, parisInstantMs } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import type { Projector, Replay } from '../../projector.js';
import { domainEvent } from '../domain-event.js';
import { foldAndWrite, instantMicros, type FoldedRow, type FoldedTable } from '../folded-rows.js';
import { quoteAfterVisit, ticketFact, type TicketFact } from '../tickets/tickets-fold.js';
import { evaluateTicketSla, sameFigures, type TicketSlaFigures } from './ticket-sla-evaluation.js';
import { DayCounts, UNSETTLED, type DayFacts } from './ticket-sla-days.js';

/** HO_stats of a ticket whose trade is unknown or absent: a new trade's default (metierBodySchema). */
const DEFAULT_HO_STATS = 0;

/** Tickets re-evaluated per round trip when a trade or an agency changes. */
const REEVALUATION_CHUNK = 500;

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

// ─── Ticket events: fold the facts, then evaluate the figures ────────────────

/** A row of rm.ticket_sla as the fold sees it (instants as ISO-8601 text). */
interface SlaRow {
  [column: string]: string | number | boolean | null;
  ticket_id: string;
  agence_id: string;
  metier_id: string | null;
  created_at: string;
  delai: number | null;
  echeance: string | null;
  first_arrive_at: string | null;
  clos_at: string | null;
  devis: number;
  date_devis: string | null;
  devis_registered_at: string | null;
  calendar_time: boolean;
  sla_deadline: string | null;
  hours_to_arrival: number | null;
  hours_to_closing: number | null;
  sla_ok: boolean | null;
  devis_due_at: string | null;
  devis_ok: boolean | null;
  last_revision: number;
}

const slaTable: FoldedTable<SlaRow> = {
  table: 'rm.ticket_sla',
  key: 'ticket_id',
  revision: 'last_revision',
  columns: {
    ticket_id: 'uuid',
    agence_id: 'uuid',
    metier_id: 'uuid',
    created_at: 'timestamptz',
    delai: 'float8',
    echeance: 'timestamptz',
    first_arrive_at: 'timestamptz',
    clos_at: 'timestamptz',
    devis: 'smallint',
    date_devis: 'timestamptz',
    devis_registered_at: 'timestamptz',
    calendar_time: 'boolean',
    sla_deadline: 'timestamptz',
    hours_to_arrival: 'float8',
    hours_to_closing: 'float8',
    sla_ok: 'boolean',
    devis_due_at: 'timestamptz',
    devis_ok: 'boolean',
    last_revision: 'int',
  },
};

/** The earlier of two instants held as text; null stands for "none yet". */
function earliest(a: string | null, b: string): string {
  return a === null || instantMicros(b) < instantMicros(a) ? b : a;
}

/**
 * The SLA facts after one ticket event. Taking in charge and reports change
 * no SLA fact (nor the revision: revisions only grow, so the guard needs no
 * bump for them).
 */
function evolveSlaRow(row: SlaRow | null, { ticketId, revision, event }: TicketFact): SlaRow | null {
  if (event.type === 'TicketOpened') {
    if (row !== null) return row;
    const d = event.data;
    return {
      ticket_id: ticketId,
      agence_id: d.agenceId,
      metier_id: d.metier?.id ?? null,
      created_at: d.openedAt,
      delai: d.delai,
      echeance: d.echeance,
      first_arrive_at: null,
      clos_at: null,
      devis: 0,
      date_devis: null,
      devis_registered_at: null,
      calendar_time: false,
      sla_deadline: null,
      hours_to_arrival: null,
      hours_to_closing: null,
      sla_ok: null,
      devis_due_at: null,
      devis_ok: null,
      last_revision: revision,
    };
  }
  if (row === null) return null;
  switch (event.type) {
    case 'TicketClosed':
    case 'ReinterventionRecorded':
      return {
        ...row,
        first_arrive_at: earliest(row.first_arrive_at, event.data.arriveAt),
        clos_at: event.type === 'TicketClosed' ? event.data.closedAt : row.clos_at,
        ...quoteAfterVisit(row, event.data),
        last_revision: revision,
      };
    case 'QuoteValidated':
      return { ...row, devis_registered_at: new Date(parisInstantMs(event.data.dateEnregistrementDevis)).toISOString(), last_revision: revision };
    default:
      return row;
  }
}

const dateOf = (text: string | null) => (text === null ? null : new Date(Date.parse(text)));

/**
 * The ticket events of a batch: the facts folded per ticket (folded-rows.ts),
 * then each changed ticket's figures evaluated under its trade's clock, and
 * one row write each. Trade clocks cannot change within the share (trade
 * events are applied on their own, see `apply`).
 */
async function onTicketBatch(tx: PoolClient, events: readonly RecordedEvent[], replay: Replay | undefined): Promise<string[]> {
  const evaluate = async (rows: Map<string, FoldedRow<SlaRow>>): Promise<SlaRow[]> => {
    const metiers = [...new Set([...rows.values()].flatMap(({ after }) => (after.metier_id === null ? [] : [after.metier_id])))];
    const clocks = new Map<string, number>();
    if (metiers.length > 0) {
      const { rows: stored } = await tx.query<{ id: string; ho_stats: number }>(`SELECT id, ho_stats FROM rm.ticket_sla_metiers WHERE id = ANY($1::uuid[])`, [metiers]);
      for (const { id, ho_stats } of stored) clocks.set(id, ho_stats);
    }
    return [...rows.values()].map(({ after: row }): SlaRow => {
      const figures = evaluateTicketSla({
        createdAt: dateOf(row.created_at)!,
        delai: row.delai,
        firstArriveAt: dateOf(row.first_arrive_at),
        closAt: dateOf(row.clos_at),
        devis: row.devis,
        dateDevis: dateOf(row.date_devis),
        devisRegisteredAt: dateOf(row.devis_registered_at),
        hoStats: (row.metier_id === null ? DEFAULT_HO_STATS : (clocks.get(row.metier_id) ?? DEFAULT_HO_STATS)) === 1 ? 1 : 0,
      });
      return {
        ...row,
        calendar_time: figures.calendarTime,
        sla_deadline: figures.slaDeadline?.toISOString() ?? null,
        hours_to_arrival: figures.hoursToArrival,
        hours_to_closing: figures.hoursToClosing,
        sla_ok: figures.slaOk,
        devis_due_at: figures.devisDueAt?.toISOString() ?? null,
        devis_ok: figures.devisOk,
      };
    });
  };
  const { rows, written: evaluated } = await foldAndWrite(tx, slaTable, events.map(ticketFact), (fact) => fact.ticketId, (fact) => fact.revision, evolveSlaRow, {
    cache: replay?.rows,
    finish: evaluate,
  });
  const days = new DayCounts();
  for (const [index, { before }] of [...rows.values()].entries()) {
    if (before !== null) days.add(-1, dayFacts(before));
    days.add(1, dayFacts(evaluated[index]!));
  }
  await days.write(tx);
  return [...rows.keys()];
}

/** What a row adds to its day's counts. */
function dayFacts(row: SlaRow): DayFacts {
  return {
    agenceId: row.agence_id,
    metierId: row.metier_id,
    createdAt: new Date(Date.parse(row.created_at)),
    closed: row.clos_at !== null,
    slaOk: row.sla_ok,
    devisOk: row.devis_ok,
  };
}

// ─── Trade clocks and agency weeks ───────────────────────────────────────────

async function onMetier(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(metierEventSchema, recorded);
  if (event.type !== 'MetierCreated' && event.type !== 'MetierUpdated') return [];
  const { metierId, HO_stats } = event.data;
  const { rows } = await tx.query<{ ho_stats: number; last_revision: number }>(
    `SELECT ho_stats, last_revision FROM rm.ticket_sla_metiers WHERE id = $1 FOR UPDATE`,
    [metierId],
  );
  const previous = rows[0];
  if (previous && previous.last_revision >= recorded.revision) return [];
  await tx.query(
    `INSERT INTO rm.ticket_sla_metiers (id, ho_stats, last_revision) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET ho_stats = $2, last_revision = $3`,
    [metierId, HO_stats, recorded.revision],
  );
  // A rename, a new delay or a new rank leaves the clock as it was.
  if ((previous?.ho_stats ?? DEFAULT_HO_STATS) === HO_stats) return [];
  return reevaluate(tx, 'metier_id', metierId);
}

async function onHoraires(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(agenceEventSchema, recorded);
  if (event.type !== 'AgenceHorairesSet') return [];
  const { agenceId, horaires } = event.data;
  const { rows } = await tx.query<{ same: boolean; last_revision: number }>(
    `SELECT horaires = $2::jsonb AS same, last_revision FROM rm.ticket_sla_agences WHERE id = $1 FOR UPDATE`,
    [agenceId, JSON.stringify(horaires)],
  );
  const previous = rows[0];
  if (previous && previous.last_revision >= recorded.revision) return [];
  await tx.query(
    `INSERT INTO rm.ticket_sla_agences (id, horaires, last_revision) VALUES ($1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET horaires = $2, last_revision = $3`,
    [agenceId, JSON.stringify(horaires), recorded.revision],
  );
  if (previous?.same) return [];
  return reevaluate(tx, 'agence_id', agenceId);
}

// ─── Re-evaluation ───────────────────────────────────────────────────────────

/** A ticket's SLA figures as rm.ticket_sla stores them. */
export interface StoredSlaFigures {
  calendar_time: boolean;
  sla_deadline: Date | null;
  hours_to_arrival: number | null;
  hours_to_closing: number | null;
  sla_ok: boolean | null;
  devis_due_at: Date | null;
  devis_ok: boolean | null;
}

/** The columns of StoredSlaFigures. */
export const SLA_FIGURE_COLUMNS = ['calendar_time', 'sla_deadline', 'hours_to_arrival', 'hours_to_closing', 'sla_ok', 'devis_due_at', 'devis_ok'] as const;

/** A row of rm.ticket_sla: the ticket's inputs of the figures, and the figures. */
export interface TicketSlaRow extends StoredSlaFigures {
  ticket_id: string;
  agence_id: string;
  metier_id: string | null;
  created_at: Date;
  delai: number | null;
  first_arrive_at: Date | null;
  clos_at: Date | null;
  devis: number;
  date_devis: Date | null;
  devis_registered_at: Date | null;
}

interface StoredRow extends TicketSlaRow {
  ho_stats: number;
}

function storedFigures(row: StoredRow): TicketSlaFigures {
  return {
    calendarTime: row.calendar_time,
    slaDeadline: row.sla_deadline,
    hoursToArrival: row.hours_to_arrival,
    hoursToClosing: row.hours_to_closing,
    slaOk: row.sla_ok,
    devisDueAt: row.devis_due_at,
    devisOk: row.devis_ok,
  };
}

const STORED_COLUMNS = `s.ticket_id, s.agence_id, s.metier_id, s.created_at, s.delai, s.first_arrive_at, s.clos_at, s.devis, s.date_devis, s.devis_registered_at,
              COALESCE(m.ho_stats, ${DEFAULT_HO_STATS})::int AS ho_stats,
              ${SLA_FIGURE_COLUMNS.map((column) => `s.${column}`).join(', ')}`;

/** Evaluates each stored row and writes the figures that differ; returns their ids. */
async function writeChangedFigures(tx: PoolClient, rows: readonly StoredRow[]): Promise<string[]> {
  const updates: { id: string; figures: TicketSlaFigures; row: StoredRow }[] = [];
  for (const row of rows) {
    const figures = evaluateTicketSla({
      createdAt: row.created_at,
      delai: row.delai,
      firstArriveAt: row.first_arrive_at,
      closAt: row.clos_at,
      devis: row.devis,
      dateDevis: row.date_devis,
      devisRegisteredAt: row.devis_registered_at,
      hoStats: row.ho_stats === 1 ? 1 : 0,
    });
    if (!sameFigures(storedFigures(row), figures)) updates.push({ id: row.ticket_id, figures, row });
  }
  const days = new DayCounts();
  for (const { figures, row } of updates) {
    const facts = { agenceId: row.agence_id, metierId: row.metier_id, createdAt: row.created_at, closed: row.clos_at !== null };
    days.add(-1, { ...facts, slaOk: row.sla_ok, devisOk: row.devis_ok });
    days.add(1, { ...facts, slaOk: figures.slaOk, devisOk: figures.devisOk });
  }
  await days.write(tx);
  if (updates.length > 0) {
    await tx.query(
      `UPDATE rm.ticket_sla s SET calendar_time = u.calendar_time, sla_deadline = u.sla_deadline,
         hours_to_arrival = u.hours_to_arrival, hours_to_closing = u.hours_to_closing, sla_ok = u.sla_ok,
         devis_due_at = u.devis_due_at, devis_ok = u.devis_ok
       FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::float8[], $5::float8[], $6::boolean[], $7::timestamptz[], $8::boolean[])
         AS u(ticket_id, calendar_time, sla_deadline, hours_to_arrival, hours_to_closing, sla_ok, devis_due_at, devis_ok)
       WHERE s.ticket_id = u.ticket_id`,
      [
        updates.map((u) => u.id),
        updates.map((u) => u.figures.calendarTime),
        updates.map((u) => u.figures.slaDeadline?.toISOString() ?? null),
        updates.map((u) => u.figures.hoursToArrival),
        updates.map((u) => u.figures.hoursToClosing),
        updates.map((u) => u.figures.slaOk),
        updates.map((u) => u.figures.devisDueAt?.toISOString() ?? null),
        updates.map((u) => u.figures.devisOk),
      ],
    );
  }
  return updates.map((u) => u.id);
}

/**
 * Recomputes the figures of every ticket where `column = value`, a chunk at a
 * time (a trade may have many tickets), and writes those that differ.
 * Returns the ids whose rows changed.
 */
async function reevaluate(tx: PoolClient, column: 'metier_id' | 'agence_id', value: string): Promise<string[]> {
  const changedIds: string[] = [];
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await tx.query<StoredRow>(
      `SELECT ${STORED_COLUMNS}
       FROM rm.ticket_sla s LEFT JOIN rm.ticket_sla_metiers m ON m.id = s.metier_id
       WHERE s.${column} = $1 AND s.ticket_id > $2
       ORDER BY s.ticket_id
       LIMIT ${REEVALUATION_CHUNK}`,
      [value, after],
    );
    changedIds.push(...(await writeChangedFigures(tx, rows)));
    const last = rows[rows.length - 1];
    if (!last || rows.length < REEVALUATION_CHUNK) return changedIds;
    after = last.ticket_id;
  }
}
