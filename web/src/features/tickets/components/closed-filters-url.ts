import { CLOSED_SEARCH_TEXT_MAX, closedTicketsQuerySchema, defaultClosedTicketsRange } from '@fsm/contracts';
import type { ClosedTicketsFilters } from '../api/ticket-keys';

export function defaultClosedFilters(devisAttente: boolean): ClosedTicketsFilters {
  return {
    ...defaultClosedTicketsRange(new Date()),
    client_id: '',
    site_id: '',
    installation_id: '',
    technicien_id: '',
    metier_id: '',
    devis_attente: devisAttente,
    q: '',
  };
}

// ─── The closed search in the URL (issue 32, item 9) ─────────────────────────
//
// Every filter of the closed view lives in the query string, so a reload or a
// shared link shows the same search: `statut=clos` and `devis_attente=1` keep
// the spec's meaning; the dates appear only when they differ from the default
// range (an emptied date is `date_debut=`, "any"); ids and the text `q` when
// set. A hand-edited value that does not parse falls back to the default.

// Each value is checked by the closed search's own field schema (contracts), as the API will.
const FIELDS = closedTicketsQuerySchema.shape;
export const CLOSED_ID_KEYS = ['client_id', 'site_id', 'installation_id', 'technicien_id', 'metier_id'] as const;

export function closedFiltersFromUrl(params: URLSearchParams, devisAttente: boolean): ClosedTicketsFilters {
  const filters = defaultClosedFilters(devisAttente);
  for (const key of ['date_debut', 'date_fin'] as const) {
    const value = params.get(key);
    if (value !== null && (value === '' || FIELDS[key].safeParse(value).success)) filters[key] = value;
  }
  for (const key of CLOSED_ID_KEYS) {
    const value = params.get(key) ?? '';
    if (FIELDS[key].safeParse(value).success) filters[key] = value;
  }
  filters.q = (params.get('q') ?? '').slice(0, CLOSED_SEARCH_TEXT_MAX);
  return filters;
}

export function closedFiltersToUrl(filters: ClosedTicketsFilters): URLSearchParams {
  const defaults = defaultClosedFilters(false);
  const out = new URLSearchParams({ statut: 'clos' });
  if (filters.devis_attente) out.set('devis_attente', '1');
  for (const key of ['date_debut', 'date_fin'] as const) if (filters[key] !== defaults[key]) out.set(key, filters[key]);
  for (const key of CLOSED_ID_KEYS) if (filters[key]) out.set(key, filters[key]);
  if (filters.q) out.set('q', filters.q);
  return out;
}
