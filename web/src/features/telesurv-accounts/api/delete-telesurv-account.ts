import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

/** DELETE /api/telesurv/{id} → `{ success, error }`; the account's sign-in goes with it. */
export async function deleteTelesurvAccount(id: string): Promise<void> {
  assertSuccess(await apiClient.delete<unknown>(`/api/telesurv/${encodeURIComponent(id)}`));
}

export function useDeleteTelesurvAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTelesurvAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() }) });
}
