import { addCalendarDays, startOfParisDayMs, type CalendarDay, type StatsTicketItem } from '@fsm/contracts';
import { orderedScopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { keysetInstantSql } from '../keyset-cursor.js';

/*
 * What the statistics' queries share: the tickets a window and its filters
 * select, their flags as of `now`, and one page of their rows.
 */

/** GET /api/stats/tickets filters, the window already filled in (Paris days, both included). */
export interface StatsTicketsFilters {
  from: CalendarDay;
  to: CalendarDay;
  metier_id?: string | undefined;
  agence_id?: string | undefined;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * Flags as of `now` (the parameter named below): a settled flag is stored; a
 * pending one (no arrival, no registered quote) is N/A until its deadline has
 * passed and false after — exactly slaOk / devisOk with that `now`.
 */
export function flagColumns(nowParam: string): string {
  return `COALESCE(s.sla_ok, CASE WHEN s.sla_deadline < ${nowParam} THEN false END) AS sla_ok,
    COALESCE(s.devis_ok, CASE WHEN s.devis_due_at < ${nowParam} THEN false END) AS devis_ok`;
}

export interface StatsRow {
  id: string;
  num_chrono: string;
  client_nom: string | null;
  site_nom: string | null;
  installation_nom: string | null;
  technicien_prenom: string | null;
  technicien_nom: string | null;
  created_at: Date;
  clos_at: Date | null;
  sla_ok: boolean | null;
  devis_ok: boolean | null;
  interventions_count: number;
  /** created_at as keysetInstantSql writes it (UTC, microseconds kept): the keyset cursor. */
  cursor_created_at: string;
}

export function toItem(row: StatsRow): StatsTicketItem {
  return {
    id: row.id,
    num_chrono: row.num_chrono,
    client_nom: row.client_nom,
    site_nom: row.site_nom,
    installation_nom: row.installation_nom,
    technicien_prenom: row.technicien_prenom,
    technicien_nom: row.technicien_nom,
    created_at: row.created_at.toISOString(),
    clos_at: row.clos_at === null ? null : row.clos_at.toISOString(),
    sla_ok: row.sla_ok,
    devis_ok: row.devis_ok,
    interventions_count: row.interventions_count,
  };
}

/** [start of `from`, start of the day after `to`) in Paris, as instants. */
export function windowBounds(window: { from: CalendarDay; to: CalendarDay }): [Date, Date] {
  return [new Date(startOfParisDayMs(window.from)), new Date(startOfParisDayMs(addCalendarDays(window.to, 1)))];
}

export interface Cursor {
  createdAt: string;
  id: string;
}

/** What a keyset page needs of its rows: the ticket and its created_at as keysetInstantSql writes it (microseconds kept). */
export interface PageRow {
  id: string;
  cursor_created_at: string;
}

/**
 * Which tickets the statistics cover, `$1` being `now` (the flags' clock) when
 * one is given (a count needs none); null when a filter id is malformed (no rows).
 */
export interface StatsSelection {
  where: string;
  params: unknown[];
}

export function statsSelection(scope: AgenceScope, filters: StatsTicketsFilters, now: Date | null, after: Cursor | null): StatsSelection | null {
  for (const id of [filters.metier_id, filters.agence_id]) if (id !== undefined && !GUID.test(id)) return null;
  const params: unknown[] = now === null ? [] : [now];
  params.push(...windowBounds(filters));
  let where = `s.created_at >= $${params.length - 1} AND s.created_at < $${params.length}${orderedScopeClause(scope, 's.agence_id', params)}`;
  if (filters.agence_id !== undefined) {
    params.push(filters.agence_id);
    where += ` AND s.agence_id = $${params.length}`;
  }
  if (filters.metier_id !== undefined) {
    params.push(filters.metier_id);
    where += ` AND s.metier_id = $${params.length}`;
  }
  if (after !== null) {
    params.push(after.createdAt, after.id);
    where += ` AND (s.created_at, s.ticket_id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  }
  return { where, params };
}

export const STATS_FROM = 'rm.ticket_sla s JOIN rm.tickets t ON t.id = s.ticket_id';
export const STATS_ORDER = 's.created_at DESC, s.ticket_id DESC';
export const INTERVENTIONS_COUNT = `(t.interventions_supp_count + CASE WHEN t.statut = 'clos' THEN 1 ELSE 0 END)::int`;

export function limitClause(limit: number, params: unknown[]): string {
  params.push(limit);
  return ` LIMIT $${params.length}`;
}

/** One page of tickets requested within the window, newest first. */
export async function selectStatsRows(
  db: Queryable,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  after: Cursor | null,
  limit: number,
): Promise<StatsRow[]> {
  const selection = statsSelection(scope, filters, now, after);
  if (selection === null) return [];
  const { where, params } = selection;
  const sql = `SELECT s.ticket_id AS id, t.num_chrono, t.client_nom, t.site_nom, t.installation_nom, t.technicien_prenom, t.technicien_nom,
      s.created_at, s.clos_at, ${flagColumns('$1::timestamptz')},
      ${INTERVENTIONS_COUNT} AS interventions_count,
      ${keysetInstantSql('s.created_at')} AS cursor_created_at
    FROM ${STATS_FROM}
    WHERE ${where}
    ORDER BY ${STATS_ORDER}${limitClause(limit, params)}`;
  const { rows } = await db.query<StatsRow>(sql, params);
  return rows;
}
