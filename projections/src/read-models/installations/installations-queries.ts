import { findsRow, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/** An installation as the API answers it (spec §3). */
export interface InstallationRow {
  id: string;
  nom: string;
  id_metier: string;
  metier_nom: string | null;
  description: string;
  /** Hours allowed for a repair ('Dépannage sous {delai}h'). */
  delai: number;
  astreinte: 0 | 1;
  site_id: string;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

/**
 * A live installation with what opening a ticket, the public form and scope
 * checks need: its site (address), client, agency and métier facts.
 */
export interface InstallationFacts extends InstallationRow {
  site_nom: string;
  site_adresse: string;
  site_code_postal: string;
  site_ville: string;
  client_id: string;
  client_nom: string;
  agence_id: string;
  agence_nom: string | null;
  /** The métier's default delay in hours, null when it has none. */
  metier_delai_inter: number | null;
  /** Whether non-working days count in the statistics; null when the métier is unknown. */
  metier_ho_stats: 0 | 1 | null;
}

/** An installation is shown while neither it, its site nor its client was deleted. */
export const visibleInstallation = (alias: string) => `NOT ${alias}.deleted AND NOT ${alias}.site_deleted AND NOT ${alias}.client_deleted`;

const COLUMNS = 'i.id, i.nom, i.id_metier, i.metier_nom, i.description, i.delai, i.astreinte, i.site_id, i.last_revision AS version';
const ORDER = 'ORDER BY lower(i.nom), i.id';

/** GET /api/sites/{id}/installations: the site's live installations, by name. */
export async function listInstallationsBySite(db: Queryable, siteId: string, scope: AgenceScope = 'all'): Promise<InstallationRow[]> {
  const params: unknown[] = [siteId];
  const { rows } = await db.query<InstallationRow>(
    `SELECT ${COLUMNS} FROM rm.installations i WHERE i.site_id = $1 AND ${visibleInstallation('i')}${scopeClause(scope, 'i.agence_id', params)} ${ORDER}`,
    params,
  );
  return rows;
}

/** Every live installation of the client's live sites, by name. */
export async function listInstallationsByClient(db: Queryable, clientId: string, scope: AgenceScope = 'all'): Promise<InstallationRow[]> {
  const params: unknown[] = [clientId];
  const { rows } = await db.query<InstallationRow>(
    `SELECT ${COLUMNS} FROM rm.installations i WHERE i.client_id = $1 AND ${visibleInstallation('i')}${scopeClause(scope, 'i.agence_id', params)} ${ORDER}`,
    params,
  );
  return rows;
}

/**
 * A live installation with its site, client, agency and métier facts; null
 * when unknown, deleted, hidden with its site or client, or (with a scope) in
 * another agency.
 */
export async function findInstallation(db: Queryable, id: string, scope: AgenceScope = 'all'): Promise<InstallationFacts | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<InstallationFacts>(
    `SELECT ${COLUMNS},
            s.nom AS site_nom, s.adresse AS site_adresse, s.code_postal AS site_code_postal, s.ville AS site_ville,
            c.id AS client_id, c.nom AS client_nom, c.agence_id, a.nom AS agence_nom,
            m.delai_inter AS metier_delai_inter, m.ho_stats AS metier_ho_stats
     FROM rm.installations i
     JOIN rm.sites s ON s.id = i.site_id
     JOIN rm.clients c ON c.id = s.client_id
     LEFT JOIN rm.agences a ON a.id = c.agence_id
     LEFT JOIN rm.metiers m ON m.id = i.id_metier
     WHERE i.id = $1 AND ${visibleInstallation('i')}${scopeClause(scope, 'c.agence_id', params)}`,
    params,
  );
  return rows[0] ?? null;
}

/** Whether the site still has a live installation. */
export async function siteHasInstallations(db: Queryable, siteId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.installations i WHERE i.site_id = $1 AND ${visibleInstallation('i')} LIMIT 1`, [siteId]);
}

/**
 * Whether a live installation uses the métier (refuses deleting it).
 * Installations hidden with their deleted site or client no longer count.
 */
export async function isMetierUsed(db: Queryable, metierId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.installations i WHERE i.id_metier = $1 AND ${visibleInstallation('i')} LIMIT 1`, [metierId]);
}
