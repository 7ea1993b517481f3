import type { AgenceHoraire } from '@fsm/contracts';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

export interface AgenceRow {
  id: string;
  nom: string;
  adresse: string;
  cp_postal: string;
  ville: string;
  telephone: string;
  id_template: string | null;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

const COLUMNS = 'id, nom, adresse, cp_postal, ville, telephone, id_template, last_revision AS version';

export async function listAgences(db: Queryable, scope: AgenceScope): Promise<AgenceRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<AgenceRow>(`SELECT ${COLUMNS} FROM rm.agences WHERE NOT deleted${scopeClause(scope, 'id', params)} ORDER BY lower(nom), id`, params);
  return rows;
}

export async function findAgence(db: Queryable, id: string): Promise<AgenceRow | null> {
  const { rows } = await db.query<AgenceRow>(`SELECT ${COLUMNS} FROM rm.agences WHERE id = $1 AND NOT deleted`, [id]);
  return rows[0] ?? null;
}

/** The five-day week, or null when the agency is unknown. */
export async function findAgenceHoraires(db: Queryable, id: string): Promise<AgenceHoraire[] | null> {
  const { rows } = await db.query<{ horaires: AgenceHoraire[] | null }>(`SELECT horaires FROM rm.agences WHERE id = $1 AND NOT deleted`, [id]);
  const row = rows[0];
  if (!row) return null;
  return row.horaires ?? [];
}
