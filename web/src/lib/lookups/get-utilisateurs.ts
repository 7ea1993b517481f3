import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toUtilisateur, type UtilisateurOption } from './lookup-types';

/** GET /api/utilisateurs: technicians for the filters, the take-in-charge and the wizard. */
async function getUtilisateurs(signal?: AbortSignal): Promise<UtilisateurOption[]> {
  const answer = await apiClient.get<unknown>('/api/utilisateurs', { signal });
  // Remote-surveillance accounts never work on a ticket.
  return readRows(answer, toUtilisateur)
    .filter((u) => u.role !== 'telesurveillance')
    .sort(byName);
}

const utilisateursQuery = () =>
  queryOptions({
    queryKey: lookupKeys.utilisateurs.list(),
    queryFn: ({ signal }) => getUtilisateurs(signal),
    staleTime: 5 * 60_000,
  });

export function useUtilisateurs(enabled = true) {
  return useQuery({ ...utilisateursQuery(), enabled });
}
