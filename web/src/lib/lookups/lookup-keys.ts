/**
 * Query keys of the look-up lists (clients, sites, installations, users,
 * métiers, contacts, agencies) that feed pickers and filters. Roots match the
 * stream categories' entries in `app/live-invalidators.ts`.
 */
export const lookupKeys = {
  clients: {
    all: ['clients'] as const,
    list: () => [...lookupKeys.clients.all, 'list'] as const,
    byAgence: (agenceId: string) => [...lookupKeys.clients.all, 'by-agence', agenceId] as const,
  },
  sites: {
    all: ['sites'] as const,
    byClient: (clientId: string) => [...lookupKeys.sites.all, 'client', clientId] as const,
    installations: (siteId: string) => [...lookupKeys.sites.all, 'detail', siteId, 'installations'] as const,
  },
  utilisateurs: {
    all: ['utilisateurs'] as const,
    list: () => [...lookupKeys.utilisateurs.all, 'list'] as const,
  },
  metiers: {
    all: ['metiers'] as const,
  },
  interlocuteurs: {
    all: ['interlocuteurs'] as const,
    at: (level: InterlocuteurLevel, id: string) => [...lookupKeys.interlocuteurs.all, level, id] as const,
  },
  agences: {
    all: ['agences'] as const,
    mine: () => [...lookupKeys.agences.all, 'telesurv-me'] as const,
  },
};

export type InterlocuteurLevel = 'site-only' | 'installation' | 'site' | 'client';
