import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

interface UpdateTelesurvInput {
  id: string;
  /**
   * An empty or absent password keeps the current one (docs/api-additions.md).
   * `version`: the account's as listed; a stale one is refused (409).
   */
  body: { nom: string; email: string; telephone: string | null; motdepasse?: string; version?: number | undefined };
}

/**
 * PUT /api/telesurv/{id} → `{ success, error }`. A 403 is the server refusing
 * a password reset on an account shared with other agencies (it may have
 * become so since the list was read): its message is shown, the session stays.
 */
async function updateTelesurvAccount({ id, body }: UpdateTelesurvInput): Promise<void> {
  assertSuccess(await apiClient.put<unknown>(`/api/telesurv/${encodeURIComponent(id)}`, body, { forbiddenIsError: true }));
}

export function useUpdateTelesurvAccount() {
  const queryClient = useQueryClient();
  // Settled, not only succeeded: a refusal may mean the account is now shared, which the list then shows.
  return useMutation({ mutationFn: updateTelesurvAccount, onSettled: () => queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() }) });
}
