/**
 * Query keys of the trades screen, under `['metiers']`: the root the
 * `metiers` stream category (one catalogue stream) invalidates.
 */
export const metierKeys = {
  all: ['metiers', 'gestion'] as const,
  lists: () => [...metierKeys.all, 'list'] as const,
  list: () => [...metierKeys.lists(), 'all'] as const,
};
