import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

interface SetTelesurvAgencesInput {
  accountId: string;
  agences: string[];
  /** The account's version when its agencies were read: a set changed since is refused (409), not overwritten. */
  version?: number | undefined;
}

/** PUT /api/telesurv/{id}/agences `{ agences: [ids], version }`: the whole set is replaced (§4). */
async function setTelesurvAgences({ accountId, agences, version }: SetTelesurvAgencesInput): Promise<void> {
  assertSuccess(await apiClient.put<unknown>(`/api/telesurv/${encodeURIComponent(accountId)}/agences`, { agences, version }));
}

export function useSetTelesurvAgences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTelesurvAgences,
    onSuccess: (_data, { accountId }) => {
      void queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: telesurvKeys.agences(accountId) });
    },
  });
}
