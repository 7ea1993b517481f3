import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

export interface UpdateTelesurvInput {
  id: string;
  /** An empty or absent password keeps the current one (docs/api-additions.md). */
  body: { nom: string; email: string; telephone: string | null; motdepasse?: string };
}

/** PUT /api/telesurv/{id} → `{ success, error }`. */
export async function updateTelesurvAccount({ id, body }: UpdateTelesurvInput): Promise<void> {
  assertSuccess(await apiClient.put<unknown>(`/api/telesurv/${encodeURIComponent(id)}`, body));
}

export function useUpdateTelesurvAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateTelesurvAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() }) });
}
