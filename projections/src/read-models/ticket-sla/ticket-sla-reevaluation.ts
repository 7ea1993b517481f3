import { agenceEventSchema, metierEventSchema } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import { domainEvent } from '../domain-event.js';
import { DEFAULT_HO_STATS, evaluateTicketSla, sameFigures, type TicketSlaFigures } from './ticket-sla-evaluation.js';
import { DayCounts } from './ticket-sla-days.js';

/** Tickets re-evaluated per round trip when a trade or an agency changes. */
const REEVALUATION_CHUNK = 500;

// ─── Trade clocks and agency weeks ───────────────────────────────────────────

export async function onMetier(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
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

export async function onHoraires(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
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
