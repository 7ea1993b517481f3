import { templatesResponseSchema, type Template } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { templateKeys } from './template-keys';

/** GET /api/templates → `[{ id, name, content_html, css }]` by name. */
async function getTemplates(signal?: AbortSignal): Promise<Template[]> {
  return templatesResponseSchema.parse(await apiClient.get<unknown>('/api/templates', { signal }));
}

export const templatesQuery = () => queryOptions({ queryKey: templateKeys.list(), queryFn: ({ signal }) => getTemplates(signal) });

export function useTemplates() {
  return useQuery(templatesQuery());
}
