/**
 * Query keys of the agencies screen. The root sits under `['agences']`, the
 * root the `agence` stream category invalidates (app/live-invalidators.ts),
 * so another user's change refreshes these lists too.
 */
export const agenceKeys = {
  all: ['agences', 'gestion'] as const,
  lists: () => [...agenceKeys.all, 'list'] as const,
  list: () => [...agenceKeys.lists(), 'all'] as const,
  details: () => [...agenceKeys.all, 'detail'] as const,
  detail: (id: string) => [...agenceKeys.details(), id] as const,
  horaires: (id: string) => [...agenceKeys.detail(id), 'horaires'] as const,
};
