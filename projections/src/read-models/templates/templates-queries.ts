import { findsRow, type Queryable } from '../queryable.js';

/** A template as GET /api/templates answers it (spec §3). */
export interface TemplateRow {
  id: string;
  name: string;
  content_html: string;
  css: string;
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

const SELECT = 'SELECT id, name, content_html, css, last_revision AS version FROM rm.templates';

/** Live templates by name. */
export async function listTemplates(db: Queryable): Promise<TemplateRow[]> {
  const { rows } = await db.query<TemplateRow>(`${SELECT} WHERE NOT deleted ORDER BY lower(name), id`);
  return rows;
}

export async function findTemplate(db: Queryable, id: string): Promise<TemplateRow | null> {
  const { rows } = await db.query<TemplateRow>(`${SELECT} WHERE id = $1 AND NOT deleted`, [id]);
  return rows[0] ?? null;
}

/** Whether a live agency uses the template for its reports (refuses deleting it). Reads rm.agences. */
export async function isTemplateAssigned(db: Queryable, templateId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.agences WHERE id_template = $1 AND NOT deleted LIMIT 1`, [templateId]);
}
