import { telesurvAccountsResponseSchema, type TelesurvAccount } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { telesurvKeys } from './telesurv-keys';

/** GET /api/telesurv → `[{ id, nom, email, telephone, agences_count }]`, by name. */
async function getTelesurvAccounts(signal?: AbortSignal): Promise<TelesurvAccount[]> {
  const answer = await apiClient.get<unknown>('/api/telesurv', { signal });
  return telesurvAccountsResponseSchema.parse(answer).sort((a, b) => a.nom.localeCompare(b.nom, 'fr'));
}

export const telesurvAccountsQuery = () => queryOptions({ queryKey: telesurvKeys.list(), queryFn: ({ signal }) => getTelesurvAccounts(signal) });

export function useTelesurvAccounts() {
  return useQuery(telesurvAccountsQuery());
}
