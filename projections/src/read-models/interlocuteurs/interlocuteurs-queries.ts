import { toInterlocuteurAffectations, type InterlocuteurAffectation } from '@fsm/contracts';
import { visibleInstallation } from '../installations/installations-queries.js';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { visibleSite } from '../sites/sites-queries.js';

export interface NamedRef {
  id: string;
  nom: string;
}

/**
 * A contact as the API answers it (spec §3). Affectations, counts and named
 * lists cover only live sites and installations, sites first, in the order
 * they were saved.
 */
export interface InterlocuteurRow {
  id: string;
  client_id: string;
  nom: string;
  prenom: string;
  fonction: string | null;
  telephone: string | null;
  email: string | null;
  affectations: InterlocuteurAffectation[];
  nb_sites: number;
  nb_installations: number;
  sites_affectes: NamedRef[];
  installations_affectees: NamedRef[];
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

/** A contact with its client's agency, for scope checks. */
export interface InterlocuteurFacts extends InterlocuteurRow {
  agence_id: string;
}

type RawRow = Omit<InterlocuteurRow, 'affectations' | 'nb_sites' | 'nb_installations'> & { agence_id: string };

/**
 * The affectations `a` to live sites (joined as `s`) or live installations
 * (as `x`), ending in an open WHERE for the caller's further conditions.
 */
const LIVE_AFFECTATIONS = {
  site: `rm.interlocuteur_affectations a JOIN rm.sites s ON s.id = a.niveau_id AND ${visibleSite('s')} WHERE a.niveau = 'site'`,
  installation: `rm.interlocuteur_affectations a JOIN rm.installations x ON x.id = a.niveau_id AND ${visibleInstallation('x')} WHERE a.niveau = 'installation'`,
};

const SELECT = `SELECT i.id, i.client_id, i.nom, i.prenom, i.fonction, i.telephone, i.email, i.last_revision AS version, c.agence_id,
    coalesce((SELECT json_agg(json_build_object('id', s.id, 'nom', s.nom) ORDER BY a.ordre)
              FROM ${LIVE_AFFECTATIONS.site} AND a.interlocuteur_id = i.id), '[]'::json) AS sites_affectes,
    coalesce((SELECT json_agg(json_build_object('id', x.id, 'nom', x.nom) ORDER BY a.ordre)
              FROM ${LIVE_AFFECTATIONS.installation} AND a.interlocuteur_id = i.id), '[]'::json) AS installations_affectees
  FROM rm.interlocuteurs i JOIN rm.clients c ON c.id = i.client_id AND NOT c.deleted`;
const ORDER = 'ORDER BY lower(i.nom), lower(i.prenom), i.id';

function toFacts(row: RawRow): InterlocuteurFacts {
  return {
    ...row,
    affectations: toInterlocuteurAffectations(
      row.sites_affectes.map((site) => site.id),
      row.installations_affectees.map((installation) => installation.id),
    ),
    nb_sites: row.sites_affectes.length,
    nb_installations: row.installations_affectees.length,
  };
}

function toRow(row: RawRow): InterlocuteurRow {
  const { agence_id: _agenceId, ...rest } = toFacts(row);
  return rest;
}

async function list(db: Queryable, filter: string, params: unknown[], scope: AgenceScope): Promise<InterlocuteurRow[]> {
  const { rows } = await db.query<RawRow>(`${SELECT} WHERE NOT i.deleted AND ${filter}${scopeClause(scope, 'c.agence_id', params)} ${ORDER}`, params);
  return rows.map(toRow);
}

/** The live contacts whose id `assigned` (a query of interlocuteur ids, reading `$1`) selects. */
function listAssigned(db: Queryable, assigned: string, id: string, scope: AgenceScope): Promise<InterlocuteurRow[]> {
  return list(db, `i.id IN (${assigned})`, [id], scope);
}

/** GET /api/interlocuteurs/client/{id}: every live contact of the client. */
export function listInterlocuteursByClient(db: Queryable, clientId: string, scope: AgenceScope = 'all'): Promise<InterlocuteurRow[]> {
  return list(db, 'i.client_id = $1', [clientId], scope);
}

/** GET /api/interlocuteurs/installation/{id}: contacts assigned to the (live) installation itself. */
export function listInterlocuteursByInstallation(db: Queryable, installationId: string, scope: AgenceScope = 'all'): Promise<InterlocuteurRow[]> {
  return listAssigned(db, `SELECT a.interlocuteur_id FROM ${LIVE_AFFECTATIONS.installation} AND a.niveau_id = $1`, installationId, scope);
}

/** GET /api/interlocuteurs/site-only/{siteId}: contacts assigned to the (live) site itself, not to its installations. */
export function listInterlocuteursBySiteOnly(db: Queryable, siteId: string, scope: AgenceScope = 'all'): Promise<InterlocuteurRow[]> {
  return listAssigned(db, `SELECT a.interlocuteur_id FROM ${LIVE_AFFECTATIONS.site} AND a.niveau_id = $1`, siteId, scope);
}

/** GET /api/interlocuteurs/site/{id}: contacts assigned to the (live) site or to any of its live installations, each once. */
export function listInterlocuteursBySite(db: Queryable, siteId: string, scope: AgenceScope = 'all'): Promise<InterlocuteurRow[]> {
  return listAssigned(
    db,
    `SELECT a.interlocuteur_id FROM ${LIVE_AFFECTATIONS.site} AND a.niveau_id = $1
     UNION
     SELECT a.interlocuteur_id FROM ${LIVE_AFFECTATIONS.installation} AND x.site_id = $1`,
    siteId,
    scope,
  );
}

/** A live contact of a live client, null when unknown, deleted or (with a scope) in another agency. */
export async function findInterlocuteur(db: Queryable, id: string, scope: AgenceScope = 'all'): Promise<InterlocuteurFacts | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<RawRow>(`${SELECT} WHERE i.id = $1 AND NOT i.deleted${scopeClause(scope, 'c.agence_id', params)}`, params);
  const row = rows[0];
  return row ? toFacts(row) : null;
}
