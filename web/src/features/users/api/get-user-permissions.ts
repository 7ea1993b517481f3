import { userPermissionsResponseSchema, type UserPermissionsResponse } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** GET /api/utilisateurs/{id}/permissions → the user's slugs, and the user's version (sent back with the save). */
async function getUserPermissions(userId: string, signal?: AbortSignal): Promise<UserPermissionsResponse> {
  const answer = await apiClient.get<unknown>(`/api/utilisateurs/${encodeURIComponent(userId)}/permissions`, { signal });
  return userPermissionsResponseSchema.parse(answer);
}

export const userPermissionsQuery = (userId: string) =>
  queryOptions({ queryKey: userKeys.permissions(userId), queryFn: ({ signal }) => getUserPermissions(userId, signal) });

export function useUserPermissions(userId: string) {
  return useQuery(userPermissionsQuery(userId));
}
