import { userSchema, type User } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

const usersSchema = userSchema.array();

/** GET /api/utilisateurs: with users.view, the staff of one's scope with their details; by name. */
async function getUsers(signal?: AbortSignal): Promise<User[]> {
  const answer = await apiClient.get<unknown>('/api/utilisateurs', { signal });
  return usersSchema
    .parse(answer)
    .sort((a, b) => a.nom.localeCompare(b.nom, 'fr') || a.prenom.localeCompare(b.prenom, 'fr'));
}

export const usersQuery = () => queryOptions({ queryKey: userKeys.list(), queryFn: ({ signal }) => getUsers(signal) });

export function useUsers() {
  return useQuery(usersQuery());
}
