/**
 * Query keys of the users screen, under `['utilisateurs']`: the root the
 * `user` stream category invalidates. Permissions hang off the user's detail.
 */
export const userKeys = {
  all: ['utilisateurs', 'gestion'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: () => [...userKeys.lists(), 'all'] as const,
  agences: () => [...userKeys.all, 'agences'] as const,
  catalog: () => [...userKeys.all, 'permissions-catalog'] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: string) => [...userKeys.details(), id] as const,
  permissions: (id: string) => [...userKeys.detail(id), 'permissions'] as const,
};
