import type { ClosedTicketsFilters } from './get-closed-tickets';

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
  closedLists: () => [...ticketKeys.lists(), 'closed'] as const,
  closedList: (filters: ClosedTicketsFilters) => [...ticketKeys.closedLists(), filters] as const,
  summary: () => [...ticketKeys.all, 'summary'] as const,
  details: () => [...ticketKeys.all, 'detail'] as const,
  detail: (id: string) => [...ticketKeys.details(), id] as const,
  interventions: (id: string) => [...ticketKeys.detail(id), 'interventions'] as const,
  history: (id: string) => [...ticketKeys.detail(id), 'history'] as const,
  /** A report's download link (file-bound, short-lived): refreshed on its own clock, not by ticket changes. */
  reportLink: (filename: string) => [...ticketKeys.all, 'report-link', filename] as const,
};
