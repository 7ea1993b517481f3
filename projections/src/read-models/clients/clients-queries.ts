import { CLIENTS_PAGE_SIZE } from '@fsm/contracts';
import { findsRow, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/** A client as GET /api/clients answers it (spec §3). */
export interface ClientRow {
  id: string;
  nom: string;
  adresse: string;
  ville: string;
  code_postal: string;
  agence_id: string;
  agence_nom: string | null;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

export interface ClientListOptions {
  /** Case-insensitive substring of the name; blank means no filter. */
  search?: string | null;
  /** 1-based; below 1 counts as 1. Without it, every matching client is returned. */
  page?: number | null;
  /** Defaults to CLIENTS_PAGE_SIZE (10) when a page is asked for. */
  pageSize?: number | null;
}

export interface ClientPage {
  rows: ClientRow[];
  /** Every matching client, all pages together. */
  total: number;
}

const SELECT = `SELECT c.id, c.nom, c.adresse, c.ville, c.code_postal, c.agence_id, a.nom AS agence_nom, c.last_revision AS version
  FROM rm.clients c LEFT JOIN rm.agences a ON a.id = c.agence_id`;
const ORDER = 'ORDER BY lower(c.nom), c.id';

/**
 * The clients list: live clients in scope, by name, optionally searched and
 * paginated (10 a page on the clients screen). `total` counts every match.
 */
export async function listClients(db: Queryable, scope: AgenceScope, options: ClientListOptions = {}): Promise<ClientPage> {
  const params: unknown[] = [];
  let where = `WHERE NOT c.deleted${scopeClause(scope, 'c.agence_id', params)}`;
  const search = options.search?.trim();
  if (search) {
    params.push(search);
    where += ` AND strpos(lower(c.nom), lower($${params.length})) > 0`;
  }
  if (options.page === undefined || options.page === null) {
    const { rows } = await db.query<ClientRow>(`${SELECT} ${where} ${ORDER}`, params);
    return { rows, total: rows.length };
  }
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? CLIENTS_PAGE_SIZE));
  const page = Math.max(1, Math.floor(options.page));
  const { rows: counted } = await db.query<{ total: string }>(`SELECT count(*) AS total FROM rm.clients c ${where}`, params);
  const { rows } = await db.query<ClientRow>(`${SELECT} ${where} ${ORDER} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`, params);
  return { rows, total: Number(counted[0]?.total ?? 0) };
}

/** GET /api/clients/by-agence/{agenceId}: that agency's live clients, empty when it is out of scope. */
export async function listClientsByAgence(db: Queryable, agenceId: string, scope: AgenceScope = 'all'): Promise<ClientRow[]> {
  const params: unknown[] = [agenceId];
  const { rows } = await db.query<ClientRow>(`${SELECT} WHERE c.agence_id = $1 AND NOT c.deleted${scopeClause(scope, 'c.agence_id', params)} ${ORDER}`, params);
  return rows;
}

/** A live client, or null when unknown, deleted or (with a scope) in another agency. */
export async function findClient(db: Queryable, id: string, scope: AgenceScope = 'all'): Promise<ClientRow | null> {
  const params: unknown[] = [id];
  const { rows } = await db.query<ClientRow>(`${SELECT} WHERE c.id = $1 AND NOT c.deleted${scopeClause(scope, 'c.agence_id', params)}`, params);
  return rows[0] ?? null;
}

/** Whether any live client still belongs to the agency (refuses deleting it). */
export async function agenceHasClients(db: Queryable, agenceId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.clients WHERE agence_id = $1 AND NOT deleted LIMIT 1`, [agenceId]);
}
