import { templateSchema, type EditVersion, type Template, type TemplateBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { templateKeys } from './template-keys';

interface UpdateTemplateInput {
  id: string;
  /** With the `version` the template was loaded or last saved at: a stale one is refused with 409. */
  body: TemplateBody & EditVersion;
}

/** PUT /api/templates/{id} → the template as stored (what the server's sanitiser kept). */
async function updateTemplate({ id, body }: UpdateTemplateInput): Promise<Template> {
  return templateSchema.parse(await apiClient.put<unknown>(`/api/templates/${encodeURIComponent(id)}`, body));
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }) });
}
