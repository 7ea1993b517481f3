import { interlocuteurSchema, type EditVersion, type Interlocuteur, type InterlocuteurBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

interface UpdateInterlocuteurInput {
  id: string;
  /** With the `version` the form was loaded at: a stale one is refused with 409. */
  body: InterlocuteurBody & EditVersion;
}

/** PUT /api/interlocuteurs/{id}; the affectations sent replace the previous ones. */
async function updateInterlocuteur({ id, body }: UpdateInterlocuteurInput): Promise<Interlocuteur> {
  return interlocuteurSchema.parse(await apiClient.put<unknown>(`/api/interlocuteurs/${encodeURIComponent(id)}`, body));
}

export function useUpdateInterlocuteur() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInterlocuteur,
    onSuccess: (contact) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts.byClient(contact.client_id) }),
  });
}
