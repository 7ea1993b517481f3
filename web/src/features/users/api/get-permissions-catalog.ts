import { permissionCatalogueResponseSchema, type PermissionCatalogueEntry } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** GET /api/utilisateurs/permissions-catalog: `[{ slug, label }]` in display order. */
async function getPermissionsCatalog(signal?: AbortSignal): Promise<PermissionCatalogueEntry[]> {
  return permissionCatalogueResponseSchema.parse(await apiClient.get<unknown>('/api/utilisateurs/permissions-catalog', { signal }));
}

const permissionsCatalogQuery = () =>
  queryOptions({ queryKey: userKeys.catalog(), queryFn: ({ signal }) => getPermissionsCatalog(signal), staleTime: Infinity });

export function usePermissionsCatalog(enabled = true) {
  return useQuery({ ...permissionsCatalogQuery(), enabled });
}
