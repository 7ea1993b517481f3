import { clientSchema, type Client } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

export interface ClientBodyOut {
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
  /** Required for admin_plus; others may leave it out (their own agency is used). */
  agence_id?: string;
}

/** POST /api/clients → the client as the list shows it. */
async function createClient(body: ClientBodyOut): Promise<Client> {
  return clientSchema.parse(await apiClient.post<unknown>('/api/clients', body));
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createClient, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.lists() }) });
}
