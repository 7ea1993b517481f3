import { interlocuteursResponseSchema, type Interlocuteur } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** GET /api/interlocuteurs/client/{id}: the client's contacts with their affectations, by name. */
async function getClientInterlocuteurs(clientId: string, signal?: AbortSignal): Promise<Interlocuteur[]> {
  const answer = await apiClient.get<unknown>(`/api/interlocuteurs/client/${encodeURIComponent(clientId)}`, { signal });
  return interlocuteursResponseSchema
    .parse(answer)
    .sort((a, b) => a.nom.localeCompare(b.nom, 'fr') || a.prenom.localeCompare(b.prenom, 'fr'));
}

export const clientInterlocuteursQuery = (clientId: string) =>
  queryOptions({ queryKey: clientKeys.contacts.byClient(clientId), queryFn: ({ signal }) => getClientInterlocuteurs(clientId, signal) });

export function useClientInterlocuteurs(clientId: string) {
  return useQuery(clientInterlocuteursQuery(clientId));
}
