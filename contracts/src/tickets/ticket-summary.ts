import { z } from 'zod';

/**
 * GET /api/tickets/summary: the home 'Résumé des tickets' (spec §2). Every
 * tile's count is the length of the list it links to, so a click never shows
 * a different number; the statistics cover the last 30 days (see
 * docs/sla.md §7 for the exact rules).
 */

const count = z.int().min(0);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Tile counts, each named after the list its tile opens. */
export const ticketSummaryTilesSchema = z.object({
  /** /tickets?statut=clos: closed tickets requested within the closed list's default range (the last 30 days). */
  clos: count,
  /** /tickets?urgent=1: non-closed urgent tickets. */
  urgent: count,
  /** /tickets?statut=intervention */
  intervention: count,
  /** /tickets?statut=ouvert */
  ouvert: count,
  /** /tickets?statut=en_cours */
  en_cours: count,
  /** /tickets?devis_attente=1: non-closed tickets whose quote is pending. */
  devis_attente: count,
  /** /tickets?statut=clos&devis_attente=1: closed tickets (same range as `clos`) whose quote is pending. */
  clos_devis_attente: count,
});
export type TicketSummaryTiles = z.infer<typeof ticketSummaryTilesSchema>;

export const ticketSummaryStatsSchema = z.object({
  /** The 30-day window, Paris days, both included. */
  from: day,
  to: day,
  /** Tickets requested (created_at) within the window. */
  created: count,
  /** Tickets closed (clos_at) within the window. */
  closed: count,
  /** Mean clos_at − created_at of the tickets closed within the window, real time; null when none. */
  mean_closing_ms: z.number().nullable(),
  /** The same, ready to show: 'Nj Nh', 'Nh', or '—'. */
  mean_closing_time: z.string(),
  /** Tickets closed within the window having an echeance: how many were closed on or before it. */
  performance: z.object({ pct: z.number().nullable(), count, total: count }),
});
export type TicketSummaryStats = z.infer<typeof ticketSummaryStatsSchema>;

export const ticketSummaryResponseSchema = z.object({ counts: ticketSummaryTilesSchema, stats: ticketSummaryStatsSchema });
export type TicketSummaryResponse = z.infer<typeof ticketSummaryResponseSchema>;
