export interface StatsFilters {
  /** yyyy-MM-dd, Paris days, both included. */
  from: string;
  to: string;
  /** '' for Métier 'Tous'. */
  metier_id: string;
  /** '' for Agence 'Toutes'. */
  agence_id: string;
}

/** Query keys of the statistics screen: one entry per applied set of filters, one per background export. */
export const statsKeys = {
  all: ['stats'] as const,
  tickets: () => [...statsKeys.all, 'tickets'] as const,
  ticketsFor: (filters: StatsFilters) => [...statsKeys.tickets(), filters] as const,
  exports: () => [...statsKeys.all, 'exports'] as const,
  export: (exportId: string) => [...statsKeys.exports(), exportId] as const,
};
