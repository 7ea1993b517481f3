import { parisInstantMs } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import type { Replay } from '../../projector.js';
import { foldAndWrite, instantMicros, type FoldedRow, type FoldedTable } from '../folded-rows.js';
import { quoteAfterVisit, ticketFact, type TicketFact } from '../tickets/tickets-fold.js';
import { DEFAULT_HO_STATS, evaluateTicketSla } from './ticket-sla-evaluation.js';
import { DayCounts, type DayFacts } from './ticket-sla-days.js';

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

export const slaTable: FoldedTable<SlaRow> = {
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
export async function onTicketBatch(tx: PoolClient, events: readonly RecordedEvent[], replay: Replay | undefined): Promise<string[]> {
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
