import type { TicketListSearch } from '@fsm/contracts';

/** The closed search's filters (its panel and the pending-quote box), all sent to the server. */
export interface ClosedTicketsFilters {
  date_debut: string;
  date_fin: string;
  client_id: string;
  site_id: string;
  installation_id: string;
  technicien_id: string;
  metier_id: string;
  devis_attente: boolean;
  /** The closed search's text (issue 32: `q`, searched by the server); absent or empty, no text. */
  q?: string;
}

/** The open list's server-side filters: the chip (`statut` or `urgent`) and the pending-quote box. */
export type OpenTicketsPageFilters = Pick<TicketListSearch, 'statut' | 'urgent' | 'devis_attente' | 'en_retard'>;

/** The closed tickets a text typed on the open board matches (issue 32): the text and the request-date range asked. */
export interface ClosedMatchesSearch {
  q: string;
  date_debut?: string | undefined;
  date_fin?: string | undefined;
}

/**
 * Query keys of everything ticket-shaped: lists, details and what hangs off a
 * detail, and the home summary. `all → lists → list(...)` and
 * `all → details → detail(id) → interventions/history`, so a live message about
 * one ticket refetches the lists and that detail, not every detail in cache.
 */
export const ticketKeys = {
  all: ['tickets'] as const,
  lists: () => [...ticketKeys.all, 'list'] as const,
  openList: () => [...ticketKeys.lists(), 'open'] as const,
  /**
   * The screens' paged lists. Not under `lists()`: invalidating an infinite
   * query refetches every loaded page, so a live change patches the pages it
   * concerns instead (refresh-ticket-pages.ts).
   */
  pages: () => [...ticketKeys.all, 'pages'] as const,
  openPages: (search: OpenTicketsPageFilters) => [...ticketKeys.pages(), 'open', search] as const,
  closedPages: (filters: ClosedTicketsFilters) => [...ticketKeys.pages(), 'closed', filters] as const,
  /** Under lists(): a live change to any ticket refetches it like the other lists. */
  closedMatches: (search: ClosedMatchesSearch) => [...ticketKeys.lists(), 'closed-matches', search] as const,
  summary: () => [...ticketKeys.all, 'summary'] as const,
  details: () => [...ticketKeys.all, 'detail'] as const,
  detail: (id: string) => [...ticketKeys.details(), id] as const,
  interventions: (id: string) => [...ticketKeys.detail(id), 'interventions'] as const,
  history: (id: string) => [...ticketKeys.detail(id), 'history'] as const,
  /** Its reports and their e-mails: under the detail, so a report's live change (which invalidates details) refetches it. */
  reports: (id: string) => [...ticketKeys.detail(id), 'reports'] as const,
  /** A report's download link (file-bound, short-lived): refreshed on its own clock, not by ticket changes. */
  reportLink: (filename: string) => [...ticketKeys.all, 'report-link', filename] as const,
};
