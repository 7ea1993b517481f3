import type { Queryable } from './queryable.js';

/*
 * Who may hear that a row changed. A projected batch names the ids it changed
 * (tickets, reports, clients, users...); the API's live hub pushes them to the
 * browsers, each of which may only learn about its own agencies. This looks a
 * whole batch up in one query, across every read model that returns ids.
 */

export type ChangedIdKind = 'ticket' | 'report' | 'client' | 'site' | 'installation' | 'interlocuteur' | 'qrcode' | 'user' | 'agence' | 'metier' | 'template';

export interface ChangedIdScope {
  kind: ChangedIdKind;
  /** The agencies it belongs to (a télésurveillance account: all it acts for); null for the shared catalogues (métiers, templates). */
  agences: readonly string[] | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Sites and installations carry their client's agency (copied by their projectors), as their scope checks do.
const SCOPES_SQL = `
  WITH wanted AS (SELECT DISTINCT unnest($1::uuid[]) AS id)
  SELECT t.id::text, 'ticket' AS kind, ARRAY[t.agence_id]::text[] AS agences FROM rm.tickets t JOIN wanted w ON w.id = t.id
  UNION ALL SELECT r.id::text, 'report', ARRAY[t.agence_id]::text[] FROM rm.reports r JOIN wanted w ON w.id = r.id JOIN rm.tickets t ON t.id = r.ticket_id
  UNION ALL SELECT c.id::text, 'client', ARRAY[c.agence_id]::text[] FROM rm.clients c JOIN wanted w ON w.id = c.id
  UNION ALL SELECT s.id::text, 'site', array_remove(ARRAY[s.agence_id], NULL)::text[] FROM rm.sites s JOIN wanted w ON w.id = s.id
  UNION ALL SELECT i.id::text, 'installation', array_remove(ARRAY[i.agence_id], NULL)::text[] FROM rm.installations i JOIN wanted w ON w.id = i.id
  UNION ALL SELECT l.id::text, 'interlocuteur', array_remove(ARRAY[c.agence_id], NULL)::text[]
    FROM rm.interlocuteurs l JOIN wanted w ON w.id = l.id LEFT JOIN rm.clients c ON c.id = l.client_id
  UNION ALL SELECT q.id::text, 'qrcode', ARRAY[q.agence_id]::text[] FROM rm.qrcodes q JOIN wanted w ON w.id = q.id
  UNION ALL SELECT u.id::text, 'user', array_remove(array_prepend(u.agence_id, u.telesurv_agence_ids), NULL)::text[] FROM rm.users u JOIN wanted w ON w.id = u.id
  UNION ALL SELECT a.id::text, 'agence', ARRAY[a.id]::text[] FROM rm.agences a JOIN wanted w ON w.id = a.id
  UNION ALL SELECT m.id::text, 'metier', NULL::text[] FROM rm.metiers m JOIN wanted w ON w.id = m.id
  UNION ALL SELECT p.id::text, 'template', NULL::text[] FROM rm.templates p JOIN wanted w ON w.id = p.id`;

/**
 * The scope of each id found in the read models. An id found nowhere (not a
 * uuid, a row of a read model this query does not know yet) is left out: the
 * caller must treat it as visible to nobody but the unrestricted.
 */
export async function scopesOfChangedIds(db: Queryable, ids: readonly string[]): Promise<Map<string, ChangedIdScope>> {
  const scopes = new Map<string, ChangedIdScope>();
  const wanted = ids.filter((id) => UUID.test(id));
  if (wanted.length === 0) return scopes;
  const { rows } = await db.query<{ id: string; kind: ChangedIdKind; agences: string[] | null }>(SCOPES_SQL, [wanted]);
  const found = new Map(rows.map((row) => [row.id, { kind: row.kind, agences: row.agences }]));
  // Keyed by the ids as given (Postgres answers uuids in lower case).
  for (const id of wanted) {
    const scope = found.get(id.toLowerCase());
    if (scope) scopes.set(id, scope);
  }
  return scopes;
}
