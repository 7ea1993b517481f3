export interface ClientPageParams {
  page: number;
  search: string;
}

/**
 * Query keys of the clients screen. Roots sit under the stream categories'
 * roots (`['clients']`, `['interlocuteurs']`) that app/live-invalidators.ts
 * invalidates, so changes by other users refresh the list, a client's sites
 * with their installations, and its contacts. `all → lists → list(params)`
 * and `all → details → sites(clientId)`.
 */
export const clientKeys = {
  all: ['clients', 'gestion'] as const,
  lists: () => [...clientKeys.all, 'list'] as const,
  list: (params: ClientPageParams) => [...clientKeys.lists(), params] as const,
  details: () => [...clientKeys.all, 'detail'] as const,
  sites: (clientId: string) => [...clientKeys.details(), clientId, 'sites'] as const,
  contacts: {
    all: ['interlocuteurs', 'gestion'] as const,
    byClient: (clientId: string) => [...clientKeys.contacts.all, 'client', clientId] as const,
  },
};
