import { interlocuteurSchema, type Interlocuteur, type InterlocuteurBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** POST /api/interlocuteurs with its affect_sites and affect_installations (the whole set). */
async function createInterlocuteur(body: InterlocuteurBody): Promise<Interlocuteur> {
  return interlocuteurSchema.parse(await apiClient.post<unknown>('/api/interlocuteurs', body));
}

export function useCreateInterlocuteur() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInterlocuteur,
    onSuccess: (contact) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts.byClient(contact.client_id) }),
  });
}
