import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

/**
 * DELETE /api/telesurv/{id} → `{ success, error }`; the account's sign-in goes
 * with it. A 403 is the server refusing to delete an account shared with other
 * agencies: its message is shown, the session stays.
 */
async function deleteTelesurvAccount(id: string): Promise<void> {
  assertSuccess(await apiClient.delete<unknown>(`/api/telesurv/${encodeURIComponent(id)}`, { forbiddenIsError: true }));
}

export function useDeleteTelesurvAccount() {
  const queryClient = useQueryClient();
  // Settled, not only succeeded: a refusal may mean the account is now shared, which the list then shows.
  return useMutation({ mutationFn: deleteTelesurvAccount, onSettled: () => queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() }) });
}
