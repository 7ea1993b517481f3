import { listInstallationsByClient, type InstallationRow } from '../installations/installations-queries.js';
import { findsRow, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/** A site as the API answers it (spec §3). */
export interface SiteRow {
  id: string;
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
  client_id: string;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

/** GET /api/clients/{id}/sites: each site with its installations. */
export interface SiteWithInstallationsRow extends SiteRow {
  installations: InstallationRow[];
}

/** A live site with its client's agency, for scope checks. */
export interface SiteFacts extends SiteRow {
  agence_id: string;
  client_nom: string;
}

/** A site is shown while neither it nor its client was deleted. */
export const visibleSite = (alias: string) => `NOT ${alias}.deleted AND NOT ${alias}.client_deleted`;

const COLUMNS = 's.id, s.nom, s.adresse, s.ville, s.code_postal, s.client_id, s.last_revision AS version';

/** GET /api/sites/client/{clientId}: the client's live sites, by name. */
export async function listSitesByClient(db: Queryable, clientId: string, scope: AgenceScope = 'all'): Promise<SiteRow[]> {
  const params: unknown[] = [clientId];
  const { rows } = await db.query<SiteRow>(
    `SELECT ${COLUMNS} FROM rm.sites s WHERE s.client_id = $1 AND ${visibleSite('s')}${scopeClause(scope, 's.agence_id', params)} ORDER BY lower(s.nom), s.id`,
    params,
  );
  return rows;
}

/** GET /api/clients/{id}/sites: the client's live sites, by name, each with its live installations by name. */
export async function listSitesWithInstallations(db: Queryable, clientId: string, scope: AgenceScope = 'all'): Promise<SiteWithInstallationsRow[]> {
  const sites = await listSitesByClient(db, clientId, scope);
  if (sites.length === 0) return [];
  const bySite = new Map<string, InstallationRow[]>(sites.map((site) => [site.id, []]));
  for (const installation of await listInstallationsByClient(db, clientId, scope)) bySite.get(installation.site_id)?.push(installation);
  return sites.map((site) => ({ ...site, installations: bySite.get(site.id) ?? [] }));
}

/** A live site, or null when unknown, deleted, hidden with its client, or (with a scope) in another agency. */
export async function findSite(db: Queryable, id: string, scope: AgenceScope = 'all'): Promise<SiteFacts | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<SiteFacts>(
    `SELECT ${COLUMNS}, c.agence_id, c.nom AS client_nom
     FROM rm.sites s JOIN rm.clients c ON c.id = s.client_id
     WHERE s.id = $1 AND ${visibleSite('s')}${scopeClause(scope, 'c.agence_id', params)}`,
    params,
  );
  return rows[0] ?? null;
}

/** Whether the client still has a live site. */
export async function clientHasSites(db: Queryable, clientId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.sites s WHERE s.client_id = $1 AND ${visibleSite('s')} LIMIT 1`, [clientId]);
}
