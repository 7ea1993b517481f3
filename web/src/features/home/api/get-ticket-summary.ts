import {
  STATS_WINDOW_DAYS,
  defaultStatsWindow,
  isWithinStatsWindow,
  meanClosingTimeLabel,
  performanceIndicator,
  ticketQuoteState,
  type PerformanceIndicator,
  type Ticket,
} from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiClient } from '../../../lib/api-client';
import { getClosedTickets } from '../../tickets/api/get-closed-tickets';
import { getOpenTickets } from '../../tickets/api/get-open-tickets';
import { ticketKeys } from '../../tickets/api/ticket-keys';

/**
 * The home summary (spec §2 "Home summary"). Everything about its shape lives
 * in this file: `GET /api/tickets/summary` is read when the server has it
 * (answer shape below); when it answers 400, 404 or 405 (not built yet) the same
 * figures are derived from `GET /api/tickets` and `GET /api/tickets/clos`.
 *
 * Assumed answer of GET /api/tickets/summary (snake_case or camelCase, flat or
 * nested under `counts` / `stats`):
 *   { counts: { clos, urgent, intervention, ouvert, en_cours, devis_attente, clos_devis_attente },
 *     stats: { created, closed, mean_closing_label, performance: { pct, count, total } } }
 */
interface TicketSummaryCounts {
  clos: number;
  urgent: number;
  intervention: number;
  ouvert: number;
  en_cours: number;
  devis_attente: number;
  clos_devis_attente: number;
}

export interface TicketSummary {
  counts: TicketSummaryCounts;
  /** The last 30 days (29 days ago through today, Paris days). */
  stats: {
    windowDays: number;
    created: number | null;
    closed: number | null;
    meanClosingLabel: string;
    performance: PerformanceIndicator | null;
  };
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function num(...values: unknown[]): number | null {
  for (const v of values) {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  }
  return null;
}

/** Reads the server's answer; null when it does not carry the tile counts. */
function readSummaryAnswer(answer: unknown): TicketSummary | null {
  const root = obj(answer);
  if (!root) return null;
  const c = obj(root.counts) ?? root;
  const counts = {
    clos: num(c.clos),
    urgent: num(c.urgent),
    intervention: num(c.intervention),
    ouvert: num(c.ouvert),
    en_cours: num(c.en_cours, c.enCours),
    devis_attente: num(c.devis_attente, c.devisAttente),
    clos_devis_attente: num(c.clos_devis_attente, c.closDevisAttente),
  };
  if (Object.values(counts).some((v) => v === null)) return null;
  const s = obj(root.stats) ?? root;
  const perf = obj(s.performance) ?? obj(root.performance);
  const label = [s.mean_closing_label, s.meanClosingLabel, s.mean_closing_time, root.mean_closing_label, root.meanClosingLabel].find(
    (v): v is string => typeof v === 'string',
  );
  return {
    counts: counts as TicketSummaryCounts,
    stats: {
      windowDays: STATS_WINDOW_DAYS,
      created: num(s.created, s.created_30d, s.tickets_crees, s.crees),
      closed: num(s.closed, s.closed_30d, s.tickets_clos, s.clos_30d),
      meanClosingLabel: label ?? '—',
      performance: perf
        ? { pct: num(perf.pct), count: num(perf.count) ?? 0, total: num(perf.total) ?? 0 }
        : null,
    },
  };
}

/** The same figures from the two ticket lists, when the server has no summary route. */
function deriveSummary(open: readonly Ticket[], closed: readonly Ticket[], now: Date): TicketSummary {
  const window = defaultStatsWindow(now);
  const inWindow = (instant: string | null) => instant !== null && isWithinStatsWindow(instant, window);
  const closedInWindow = closed.filter((t) => inWindow(t.clos_at));
  return {
    counts: {
      clos: closed.length,
      urgent: open.filter((t) => t.urgent).length,
      intervention: open.filter((t) => t.statut === 'intervention').length,
      ouvert: open.filter((t) => t.statut === 'ouvert').length,
      en_cours: open.filter((t) => t.statut === 'en_cours').length,
      devis_attente: open.filter((t) => ticketQuoteState(t) === 'pending').length,
      clos_devis_attente: closed.filter((t) => ticketQuoteState(t) === 'pending').length,
    },
    stats: {
      windowDays: STATS_WINDOW_DAYS,
      created: [...open, ...closed].filter((t) => inWindow(t.created_at)).length,
      closed: closedInWindow.length,
      meanClosingLabel: meanClosingTimeLabel(closedInWindow.map((t) => ({ createdAt: t.created_at, closAt: t.clos_at }))),
      performance: performanceIndicator(
        closedInWindow.map((t) => ({ createdAt: t.created_at, closAt: t.clos_at, echeance: t.echeance })),
      ),
    },
  };
}

async function deriveFromLists(signal?: AbortSignal): Promise<TicketSummary> {
  const now = new Date();
  const window = defaultStatsWindow(now);
  const noFilter = { client_id: '', site_id: '', installation_id: '', technicien_id: '', metier_id: '', devis_attente: false };
  const [open, closed] = await Promise.all([
    getOpenTickets(signal),
    getClosedTickets({ ...noFilter, date_debut: window.from, date_fin: window.to }, signal),
  ]);
  return deriveSummary(open, closed, now);
}

async function getTicketSummary(signal?: AbortSignal): Promise<TicketSummary> {
  try {
    const answer = await apiClient.get<unknown>('/api/tickets/summary', { signal });
    const summary = readSummaryAnswer(answer);
    if (summary) return summary;
  } catch (error) {
    // Not built yet: 404/405, or 400 when `/api/tickets/:id` reads "summary" as an id.
    if (!(error instanceof ApiError && [400, 404, 405].includes(error.status))) throw error;
  }
  return deriveFromLists(signal);
}

const ticketSummaryQuery = () =>
  queryOptions({ queryKey: ticketKeys.summary(), queryFn: ({ signal }) => getTicketSummary(signal) });

export function useTicketSummary() {
  return useQuery(ticketSummaryQuery());
}
