import { compareMetiers } from '@fsm/contracts';
import type { Queryable } from '../queryable.js';

/** A trade as GET /api/metiers answers it (spec §3). */
export interface MetierRow {
  id: string;
  nom: string;
  ordre: number | null;
  /** Hours, or null. */
  delai_inter: number | null;
  /** 1: non-working days are included in the statistics. */
  HO_stats: 0 | 1;
  /** Revision of the trades stream when this trade last changed: what an edit sends back as its version. */
  version: number;
}

const SELECT = `SELECT id, nom, ordre, delai_inter, ho_stats AS "HO_stats", last_revision AS version FROM rm.metiers`;

/**
 * Live trades in table order: by ordre, unnumbered last, then by name in French
 * collation (compareMetiers, whatever the database's collation), then by id.
 */
export async function listMetiers(db: Queryable): Promise<MetierRow[]> {
  const { rows } = await db.query<MetierRow>(`${SELECT} WHERE NOT deleted ORDER BY ordre NULLS LAST, lower(nom), id`);
  return rows.sort((a, b) => compareMetiers(a, b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export async function findMetier(db: Queryable, id: string): Promise<MetierRow | null> {
  const { rows } = await db.query<MetierRow>(`${SELECT} WHERE id = $1 AND NOT deleted`, [id]);
  return rows[0] ?? null;
}
