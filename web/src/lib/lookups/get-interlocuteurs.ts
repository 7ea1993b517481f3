import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys, type InterlocuteurLevel } from './lookup-keys';
import { byName, readRows, toInterlocuteur, type InterlocuteurOption } from './lookup-types';

/**
 * Contacts at one level (spec §7): /api/interlocuteurs/site-only/{siteId},
 * /api/interlocuteurs/installation/{id}, and the spec's shorthand "/site/{id},
 * /client/{id}" read as /api/interlocuteurs/site/{id} and /api/interlocuteurs/client/{id}.
 */
function interlocuteurPath(level: InterlocuteurLevel, id: string): string {
  return `/api/interlocuteurs/${level}/${encodeURIComponent(id)}`;
}

async function getInterlocuteurs(level: InterlocuteurLevel, id: string, signal?: AbortSignal): Promise<InterlocuteurOption[]> {
  const answer = await apiClient.get<unknown>(interlocuteurPath(level, id), { signal });
  return readRows(answer, toInterlocuteur).sort(byName);
}

const interlocuteursQuery = (level: InterlocuteurLevel, id: string) =>
  queryOptions({
    queryKey: lookupKeys.interlocuteurs.at(level, id),
    queryFn: ({ signal }) => getInterlocuteurs(level, id, signal),
    staleTime: 60_000,
  });

export function useInterlocuteurs(level: InterlocuteurLevel, id: string | null) {
  return useQuery({ ...interlocuteursQuery(level, id ?? ''), enabled: Boolean(id) });
}

/** Merged and de-duplicated by id, first occurrence kept (spec §7, manual form). */
export function mergeInterlocuteurs(...lists: (readonly InterlocuteurOption[] | undefined)[]): InterlocuteurOption[] {
  const seen = new Map<string, InterlocuteurOption>();
  for (const list of lists) {
    for (const item of list ?? []) if (!seen.has(item.id)) seen.set(item.id, item);
  }
  return [...seen.values()].sort(byName);
}

/**
 * The most specific non-empty level (telesurveillance form, ticket detail):
 * the installation's contacts, else the site's, else the client's.
 */
async function getMostSpecificInterlocuteurs(
  levels: { installationId?: string | null; siteId?: string | null; clientId?: string | null },
  signal?: AbortSignal,
): Promise<InterlocuteurOption[]> {
  const chain: [InterlocuteurLevel, string | null | undefined][] = [
    ['installation', levels.installationId],
    ['site', levels.siteId],
    ['client', levels.clientId],
  ];
  for (const [level, id] of chain) {
    if (!id) continue;
    const found = await getInterlocuteurs(level, id, signal);
    if (found.length > 0) return found;
  }
  return [];
}

const mostSpecificInterlocuteursQuery = (levels: {
  installationId?: string | null;
  siteId?: string | null;
  clientId?: string | null;
}) =>
  queryOptions({
    queryKey: [
      ...lookupKeys.interlocuteurs.all,
      'most-specific',
      levels.installationId ?? null,
      levels.siteId ?? null,
      levels.clientId ?? null,
    ] as const,
    queryFn: ({ signal }) => getMostSpecificInterlocuteurs(levels, signal),
    staleTime: 60_000,
  });

export function useMostSpecificInterlocuteurs(levels: {
  installationId?: string | null;
  siteId?: string | null;
  clientId?: string | null;
}) {
  return useQuery({
    ...mostSpecificInterlocuteursQuery(levels),
    enabled: Boolean(levels.installationId || levels.siteId || levels.clientId),
  });
}
