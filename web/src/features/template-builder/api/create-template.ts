import { managementCreatedResponseSchema, type TemplateBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { templateKeys } from './template-keys';

/** POST /api/templates `{ name, content_html, css }` → `{ id, version }`: the new template becomes a saved one (§4). */
async function createTemplate(body: TemplateBody): Promise<{ id: string; version?: number | undefined }> {
  return managementCreatedResponseSchema.parse(await apiClient.post<unknown>('/api/templates', body));
}

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createTemplate, onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.lists() }) });
}
