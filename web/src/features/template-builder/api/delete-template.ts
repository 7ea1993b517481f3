import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { assertSuccess } from '../../../lib/result-answer';
import { templateKeys } from './template-keys';

/** DELETE /api/templates/{id} → `{ success }`; refused while an agency uses it. */
async function deleteTemplate(id: string): Promise<void> {
  assertSuccess(await apiClient.delete<unknown>(`/api/templates/${encodeURIComponent(id)}`));
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }) });
}
