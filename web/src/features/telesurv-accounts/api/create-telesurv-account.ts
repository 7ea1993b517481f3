import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { telesurvKeys } from './telesurv-keys';

interface CreateTelesurvBody {
  nom: string;
  email: string;
  telephone: string | null;
  motdepasse: string;
}

/** POST /api/telesurv `{ nom, email, telephone, motdepasse }`; the answer's `error` is read (§7). */
async function createTelesurvAccount(body: CreateTelesurvBody): Promise<void> {
  assertSuccess(await apiClient.post<unknown>('/api/telesurv', body));
}

export function useCreateTelesurvAccount() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTelesurvAccount, onSuccess: () => queryClient.invalidateQueries({ queryKey: telesurvKeys.lists() }) });
}
