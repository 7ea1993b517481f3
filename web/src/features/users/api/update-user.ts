import { userSchema, type User } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

interface UpdateUserInput {
  id: string;
  body: {
    nom: string;
    prenom: string;
    email: string;
    telephone: string;
    role: string;
    agence_id?: string;
    /** Empty or absent keeps the password. */
    motdepasse?: string;
    /** The version the row was loaded at: a user changed since is refused (409), not overwritten. */
    version?: number | undefined;
  };
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
