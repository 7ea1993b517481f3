import { userSchema, type EditVersion, type User } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { UserBodyOut } from './create-user';
import { userKeys } from './user-keys';

interface UpdateUserInput {
  id: string;
  /** An empty or absent password keeps it; with the `version` the row was loaded at: a stale one is refused with 409. */
  body: UserBodyOut & { motdepasse?: string } & EditVersion;
}

/** PUT /api/utilisateurs/{id}; a role change resets the permissions to the role's defaults. */
async function updateUser({ id, body }: UpdateUserInput): Promise<User> {
  return userSchema.parse(await apiClient.put<unknown>(`/api/utilisateurs/${encodeURIComponent(id)}`, body));
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (_user, { id }) => {
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: userKeys.permissions(id) });
    },
  });
}
