import { clientSchema, type Client, type EditVersion } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';
import type { ClientBodyOut } from './create-client';

interface UpdateClientInput {
  id: string;
  /** With the `version` the form was loaded at: a stale one is refused with 409. */
  body: ClientBodyOut & EditVersion;
}

/** PUT /api/clients/{id} → the client after the change. */
async function updateClient({ id, body }: UpdateClientInput): Promise<Client> {
  return clientSchema.parse(await apiClient.put<unknown>(`/api/clients/${encodeURIComponent(id)}`, body));
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateClient, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.lists() }) });
}
