import type { PoolClient } from 'pg';

/** Column name → value; the names are the table's own, written in code, never taken from an event. */
type Columns = Readonly<Record<string, unknown>>;

/**
 * The writes of a read model that keeps one row per aggregate (a fiche: an
 * agency, a client, a template, a user, ...) in `rm.<table>`, keyed on `id`,
 * at the revision of one event of the aggregate's stream. Every write is
 * guarded by `last_revision`: an event delivered again, or late, changes
 * nothing. Each returns whether it wrote the row.
 */
export interface AggregateRow {
  /**
   * A creation or an update: inserts the row, or sets `columns` on it.
   * `insertOnly` columns are written by the insert only (`created_at`: an
   * update keeps the creation's).
   */
  upsert(id: string, columns: Columns, insertOnly?: Columns): Promise<boolean>;
  /** Sets `columns` on an existing row (an event that changes one fact of the fiche). */
  update(id: string, columns: Columns): Promise<boolean>;
  /** A deletion: the row stays, marked `deleted`, so queries hide it and a late event cannot bring it back. */
  markDeleted(id: string): Promise<boolean>;
}

export function aggregateRow(tx: PoolClient, table: string, revision: number): AggregateRow {
  const update = async (id: string, columns: Columns): Promise<boolean> => {
    const names = [...Object.keys(columns), 'last_revision'];
    const { rowCount } = await tx.query(
      `UPDATE rm.${table} SET ${names.map((name, i) => `${name} = $${i + 2}`).join(', ')} WHERE id = $1 AND last_revision < $${names.length + 1}`,
      [id, ...Object.values(columns), revision],
    );
    return Boolean(rowCount);
  };
  return {
    async upsert(id, columns, insertOnly = {}) {
      const names = ['id', ...Object.keys(columns), ...Object.keys(insertOnly), 'last_revision'];
      const updated = [...Object.keys(columns), 'last_revision'];
      const { rowCount } = await tx.query(
        `INSERT INTO rm.${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (id) DO UPDATE SET ${updated.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}
         WHERE rm.${table}.last_revision < EXCLUDED.last_revision`,
        [id, ...Object.values(columns), ...Object.values(insertOnly), revision],
      );
      return Boolean(rowCount);
    },
    update,
    markDeleted: (id) => update(id, { deleted: true }),
  };
}
