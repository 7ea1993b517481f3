import { z } from 'zod';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { pageInfoShape, pagingQueryShape, refinePaging } from '../tickets/paging.js';
import { addCalendarDays, isoDayOfWeek, type CalendarDay } from '../calendar/paris-time.js';

/*
 * Objectives, gauge labels and the default window live in calendar/
 * (SLA_OBJECTIVE_PCT, DEVIS_OBJECTIVE_PCT, gaugeStatus, defaultStatsWindow,
 * summarizeStats); these are the screen's own texts and wire shapes.
 */
export const STATS_NO_DATA_MESSAGE = 'Aucune donnée pour les filtres sélectionnés.';
export const STATS_ACCESS_DENIED_MESSAGE = 'Accès refusé.';

/** A real calendar day (2026-02-30 and 7441-29-45 are refused here, not by Postgres later). */
function isCalendarDay(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && y <= 2199 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
const day = z
  .string({ error: M.statsDateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, M.statsDateInvalid)
  .refine(isCalendarDay, M.statsDateInvalid);
const optionalFilterId = z.preprocess((value) => (value === '' || value === null ? undefined : value), z.guid({ error: 'Filtre invalide.' }).optional());

/**
 * GET /api/stats/tickets query. Missing dates take the default window (the
 * handler fills them with defaultStatsWindow and its clock); Métier 'Tous' and Agence 'Toutes' are
 * sent as empty or absent.
 */
export const statsTicketsQuerySchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    metier_id: optionalFilterId,
    agence_id: optionalFilterId,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { message: M.statsRangeInverted, path: ['from'] });
export type StatsTicketsQuery = z.output<typeof statsTicketsQuerySchema>;

export const statsSummarySchema = z.object({
  /** null when there is nothing to measure. */
  sla_pct: z.number().nullable(),
  sla_ok: z.int().min(0),
  total: z.int().min(0),
  devis_pct: z.number().nullable(),
  devis_ok: z.int().min(0),
  devis_eligible: z.int().min(0),
});
export type StatsSummary = z.infer<typeof statsSummarySchema>;

export const statsTicketItemSchema = z.object({
  id: z.string(),
  num_chrono: z.string(),
  client_nom: z.string().nullable(),
  site_nom: z.string().nullable(),
  installation_nom: z.string().nullable(),
  technicien_prenom: z.string().nullable(),
  technicien_nom: z.string().nullable(),
  created_at: z.string(),
  clos_at: z.string().nullable(),
  /** null: not measurable (no deadline, still open). */
  sla_ok: z.boolean().nullable(),
  /** null: no quote expected for this ticket. */
  devis_ok: z.boolean().nullable(),
  interventions_count: z.int().min(0),
});
export type StatsTicketItem = z.infer<typeof statsTicketItemSchema>;

export const statsTicketsResponseSchema = z.object({ summary: statsSummarySchema, items: z.array(statsTicketItemSchema) });
export type StatsTicketsResponse = z.infer<typeof statsTicketsResponseSchema>;

// ─── Pages (issue #19) ───────────────────────────────────────────────────────

/** GET /api/stats/tickets query with the opt-in page (`limit`, `cursor`: tickets/paging.ts). */
export const statsTicketsPagedQuerySchema = refinePaging(statsTicketsQuerySchema.safeExtend(pagingQueryShape));
export type StatsTicketsPagedQuery = z.output<typeof statsTicketsPagedQuerySchema>;

/** One week of the Statistiques trend chart: intervention-delay compliance of the tickets opened that week (Paris). */
export const weeklySlaPointSchema = z.object({
  /** Monday of the week, yyyy-MM-dd (Paris). */
  week: z.string(),
  /** 'Sem. du 02/03'. */
  label: z.string(),
  /** Tickets of the week judged on the intervention delay (sla_ok not N/A). */
  judged: z.int().min(0),
  ok: z.int().min(0),
  /** ok / judged in percent, one decimal as the summary rounds it; null for a week with nothing judged. */
  pct: z.number().nullable(),
});
export type WeeklySlaPoint = z.infer<typeof weeklySlaPointSchema>;

/** The chart's label of the week starting on `monday` (yyyy-MM-dd): 'Sem. du dd/MM'. */
export function statsWeekLabel(monday: string): string {
  const [, m = '', d = ''] = monday.split('-');
  return `Sem. du ${d}/${m}`;
}

/** The Mondays of the weeks the trend shows for [from, to]: from the week holding `from` to the last one starting on or before `to`. */
export function statsWeekMondays(from: CalendarDay, to: CalendarDay): CalendarDay[] {
  const mondays: CalendarDay[] = [];
  if (!from || !to || from > to) return mondays;
  for (let monday = addCalendarDays(from, 1 - isoDayOfWeek(from)); monday <= to; monday = addCalendarDays(monday, 7)) mondays.push(monday);
  return mondays;
}

/**
 * `GET /api/stats/tickets?limit=` answer. `summary` and `weekly` cover the
 * whole window and filters (SQL aggregates, whatever the page) and are given
 * on the first page (no cursor), null on the next ones; `weekly` has every
 * week of the window, oldest first.
 */
export const statsTicketsPageSchema = z.object({
  summary: statsSummarySchema.nullable(),
  weekly: z.array(weeklySlaPointSchema).nullable(),
  items: z.array(statsTicketItemSchema),
  ...pageInfoShape,
});
export type StatsTicketsPage = z.infer<typeof statsTicketsPageSchema>;

/** What GET /api/stats/tickets answers: a page when `limit` is given, else the spec's `{ summary, items }`. */
export const statsTicketsAnswerSchema = z.union([statsTicketsPageSchema, statsTicketsResponseSchema]);
