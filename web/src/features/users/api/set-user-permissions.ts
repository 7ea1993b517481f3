import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { userKeys } from './user-keys';

interface SetUserPermissionsInput {
  userId: string;
  permissions: string[];
  /** The version the set was read at: a set changed since is refused (409), not overwritten. */
  version?: number | undefined;
}

/** PUT /api/utilisateurs/{id}/permissions `{ permissions, version }` → `{ success, error }`; the whole set is replaced. */
async function setUserPermissions({ userId, permissions, version }: SetUserPermissionsInput): Promise<void> {
  assertSuccess(await apiClient.put<unknown>(`/api/utilisateurs/${encodeURIComponent(userId)}/permissions`, { permissions, version }));
}

export function useSetUserPermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserPermissions,
    // Read again: the answer does not carry the new version the next save needs.
    onSuccess: (_data, { userId }) => queryClient.invalidateQueries({ queryKey: userKeys.permissions(userId) }),
  });
}
