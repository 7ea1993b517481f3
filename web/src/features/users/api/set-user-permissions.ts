import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { userKeys } from './user-keys';

export interface SetUserPermissionsInput {
  userId: string;
  permissions: string[];
}

/** PUT /api/utilisateurs/{id}/permissions `{ permissions }` → `{ success, error }`; the whole set is replaced. */
export async function setUserPermissions({ userId, permissions }: SetUserPermissionsInput): Promise<void> {
  assertSuccess(await apiClient.put<unknown>(`/api/utilisateurs/${encodeURIComponent(userId)}/permissions`, { permissions }));
}

export function useSetUserPermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserPermissions,
    onSuccess: (_data, { userId, permissions }) => queryClient.setQueryData(userKeys.permissions(userId), permissions),
  });
}
