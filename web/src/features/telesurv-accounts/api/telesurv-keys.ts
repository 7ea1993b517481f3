/**
 * Query keys of the remote-surveillance accounts screen. Accounts are users,
 * so the root sits under `['utilisateurs']`, which the `user` stream category
 * invalidates; an account's agencies hang off its detail.
 */
export const telesurvKeys = {
  all: ['utilisateurs', 'telesurv'] as const,
  lists: () => [...telesurvKeys.all, 'list'] as const,
  list: () => [...telesurvKeys.lists(), 'all'] as const,
  details: () => [...telesurvKeys.all, 'detail'] as const,
  agences: (id: string) => [...telesurvKeys.details(), id, 'agences'] as const,
};
