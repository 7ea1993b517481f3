import { userSchema, type User } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** A user's fields as the create and edit forms send them. */
export interface UserBodyOut {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  role: string;
  /** Left out by users other than admin_plus: theirs is used. */
  agence_id?: string;
}

/** POST /api/utilisateurs → the user; it starts with its role's default permissions. */
async function createUser(body: UserBodyOut & { motdepasse: string }): Promise<User> {
  return userSchema.parse(await apiClient.post<unknown>('/api/utilisateurs', body));
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.lists() }) });
}
