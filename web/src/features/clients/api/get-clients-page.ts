import { CLIENTS_PAGE_SIZE, clientsResponseSchema, type Client } from '@fsm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys, type ClientPageParams } from './client-keys';

export interface ClientPage {
  items: Client[];
  total: number;
  page: number;
  pageSize: number;
}

function readPage(answer: unknown): ClientPage {
  const value = (answer ?? {}) as Partial<Record<keyof ClientPage, unknown>>;
  const number = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fallback);
  return {
    items: clientsResponseSchema.parse(value.items),
    total: number(value.total, 0),
    page: number(value.page, 1),
    pageSize: number(value.pageSize, CLIENTS_PAGE_SIZE),
  };
}

/** GET /api/clients?page=&pageSize=10&search= → `{ items, total, page, pageSize }` (docs/api-additions.md). */
async function getClientsPage({ page, search }: ClientPageParams, signal?: AbortSignal): Promise<ClientPage> {
  const answer = await apiClient.get<unknown>('/api/clients', { signal, query: { page, pageSize: CLIENTS_PAGE_SIZE, search: search.trim() } });
  return readPage(answer);
}

const clientsPageQuery = (params: ClientPageParams) =>
  queryOptions({ queryKey: clientKeys.list(params), queryFn: ({ signal }) => getClientsPage(params, signal), placeholderData: keepPreviousData });

export function useClientsPage(params: ClientPageParams) {
  return useQuery(clientsPageQuery(params));
}
