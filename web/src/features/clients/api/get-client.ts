import { clientsResponseSchema, type Client } from '@fsm/contracts';
import { apiClient } from '../../../lib/api-client';

/**
 * One client as it is now, null once deleted: GET /api/clients (every client
 * of one's scope; the API has no single-client read). Only for reloading a
 * fiche after a conflicting save, which is rare.
 */
export async function getClient(id: string): Promise<Client | null> {
  const answer = await apiClient.get<unknown>('/api/clients');
  return clientsResponseSchema.parse(answer).find((client) => client.id === id) ?? null;
}
