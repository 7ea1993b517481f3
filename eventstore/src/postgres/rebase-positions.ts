import type pg from 'pg';
import { isPositionPair } from '../positions.js';
import { formatPostgresPosition, parsePostgresPosition } from './positions.js';
import { assertSchemaName } from './schema.js';

/*
 * After a pg_dump is restored onto another server, the events keep the
 * transaction ids of the server that wrote them, while the new server's
 * counter is lower: readers (bounded by pg_snapshot_xmin) see nothing, and new
 * appends sort before the restored ones. The re-base gives every stored event
 * one transaction id that every server treats as in the past, renumbers the
 * global positions so that their new order is the old read order, and maps
 * every stored position (checkpoints) onto the new numbering.
 */

/**
 * '3' is FirstNormalTransactionId: the lowest id a transaction can ever get,
 * on any server. initdb alone runs hundreds of transactions, so the horizon of
 * any server we can restore onto is above it, and every later append (and the
 * append function's order check, which compares with pg_current_xact_id()) is
 * newer than it. 0, 1 and 2 are reserved ids (invalid, bootstrap, frozen).
 */
export const REBASED_TRANSACTION_ID = '3';

/**
 * Where positions are stored outside the log, found by convention: a text
 * column named `position` holds one position; a jsonb column whose name ends in
 * `_positions` holds an object whose values are positions. Found rather than
 * listed, so a table added later is re-based too; a value that is not a
 * position makes the whole re-base fail (nothing is changed) rather than be
 * left pointing into the old numbering.
 */
interface PositionColumn {
  schema: string;
  table: string;
  column: string;
  kind: 'text' | 'map';
}

export interface RebaseResult {
  events: number;
  /** Events whose stored position changed (0 on a second run). */
  eventsRenumbered: number;
  /** Stored positions that changed, per `schema.table.column`. */
  positionsChanged: Record<string, number>;
}

export class RebaseRefusedError extends Error {}

/** Other sessions on the database: a running role would keep reading or writing the old numbering. */
export async function otherSessions(client: Pick<pg.ClientBase, 'query'>): Promise<string[]> {
  const { rows } = await client.query<{ who: string }>(
    `SELECT coalesce(nullif(application_name, ''), usename::text, 'pid ' || pid) || ' (pid ' || pid || ')' AS who
       FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
      ORDER BY pid`,
  );
  return rows.map((row) => row.who);
}

async function positionColumns(client: pg.ClientBase, storeSchema: string): Promise<PositionColumn[]> {
  const { rows } = await client.query<{ table_schema: string; table_name: string; column_name: string; data_type: string }>(
    `SELECT c.table_schema, c.table_name, c.column_name, c.data_type
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema', $1)
        AND ((c.column_name = 'position' AND c.data_type = 'text')
          OR (c.column_name LIKE '%\\_positions' AND c.data_type = 'jsonb'))
      ORDER BY 1, 2, 3`,
    [storeSchema],
  );
  return rows.map((row) => ({
    schema: row.table_schema,
    table: row.table_name,
    column: row.column_name,
    kind: row.data_type === 'jsonb' ? 'map' : 'text',
  }));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Re-bases the log of `schema` and every stored position, in one transaction.
 * Idempotent: on a re-based log the new numbering is the old one. Refuses while
 * another session is connected to the database (stop every role first).
 */
export async function rebasePositions(pool: pg.Pool, options: { schema?: string } = {}): Promise<RebaseResult> {
  const schema = options.schema ?? 'es';
  assertSchemaName(schema);
  const s = quote(schema);
  const client = await pool.connect();
  let broken = false;
  try {
    const { rows: log } = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [`${s}.events`]);
    // With KurrentDB as the event store the checkpoints hold KurrentDB positions, which a Postgres move does not change.
    if (!log[0]?.found) throw new RebaseRefusedError(`aucun journal d'événements dans le schéma ${schema} de cette base : rien à recaler (avec KurrentDB, les positions ne dépendent pas du serveur Postgres)`);
    const others = await otherSessions(client);
    if (others.length > 0) {
      throw new RebaseRefusedError(`d'autres sessions sont connectées à la base ; arrêtez d'abord command-api, projections et workers : ${others.join(', ')}`);
    }
    await client.query('BEGIN');
    // A role started meanwhile waits for the commit instead of reading half a re-base.
    await client.query(`LOCK TABLE ${s}.events IN ACCESS EXCLUSIVE MODE`);
    await client.query(
      `CREATE TEMP TABLE rebase_map ON COMMIT DROP AS
         SELECT transaction_id AS old_transaction_id, global_position AS old_global_position,
                row_number() OVER (ORDER BY transaction_id, global_position) AS new_global_position
           FROM ${s}.events`,
    );
    await client.query('CREATE UNIQUE INDEX ON rebase_map (old_transaction_id, old_global_position)');
    await client.query('ANALYZE rebase_map');
    const { rows: countRows } = await client.query<{ events: string; renumbered: string }>(
      `SELECT count(*)::text AS events,
              count(*) FILTER (WHERE old_transaction_id <> $1::xid8 OR old_global_position <> new_global_position)::text AS renumbered
         FROM rebase_map`,
      [REBASED_TRANSACTION_ID],
    );
    const events = Number(countRows[0]?.events ?? 0);
    const eventsRenumbered = Number(countRows[0]?.renumbered ?? 0);

    const positionsChanged: Record<string, number> = {};
    // Last event at or before an old position, in the new numbering; before every event: (3, 0), which reads from the start.
    const mapPosition = async (position: string, where: string): Promise<string> => {
      if (!isPositionPair(position)) throw new RebaseRefusedError(`${where} contient ${JSON.stringify(position)}, qui n'est pas une position du journal Postgres`);
      const old = parsePostgresPosition(position);
      const { rows } = await client.query<{ new_global_position: string }>(
        `SELECT new_global_position::text FROM rebase_map
          WHERE (old_transaction_id, old_global_position) <= ($1::xid8, $2::bigint)
          ORDER BY old_transaction_id DESC, old_global_position DESC LIMIT 1`,
        [old.transactionId, old.globalPosition],
      );
      return formatPostgresPosition(REBASED_TRANSACTION_ID, rows[0]?.new_global_position ?? '0');
    };

    const columns = await positionColumns(client, schema);
    for (const table of new Set(columns.map((column) => `${quote(column.schema)}.${quote(column.table)}`))) {
      await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    }
    // Checked again under the locks: a role that connected since may already hold a checkpoint in the old numbering.
    const late = await otherSessions(client);
    if (late.length > 0) throw new RebaseRefusedError(`une session s'est connectée entre-temps ; arrêtez d'abord command-api, projections et workers : ${late.join(', ')}`);

    for (const column of columns) {
      const table = `${quote(column.schema)}.${quote(column.table)}`;
      const where = `${column.schema}.${column.table}.${column.column}`;
      const { rows } = await client.query<{ ctid: string; value: unknown }>(
        `SELECT ctid::text AS ctid, ${quote(column.column)} AS value FROM ${table} WHERE ${quote(column.column)} IS NOT NULL FOR UPDATE`,
      );
      let changed = 0;
      for (const row of rows) {
        let next: unknown;
        if (column.kind === 'text') {
          next = await mapPosition(row.value as string, where);
        } else {
          if (typeof row.value !== 'object' || row.value === null || Array.isArray(row.value)) {
            throw new RebaseRefusedError(`${where} contient ${JSON.stringify(row.value)}, qui n'est pas un objet de positions`);
          }
          const entries = await Promise.all(
            Object.entries(row.value as Record<string, unknown>).map(async ([key, value]) => {
              if (typeof value !== 'string') throw new RebaseRefusedError(`${where} contient ${JSON.stringify(value)} sous ${key}, qui n'est pas une position`);
              return [key, await mapPosition(value, where)] as const;
            }),
          );
          next = Object.fromEntries(entries);
        }
        if (JSON.stringify(next) === JSON.stringify(row.value)) continue;
        changed += 1;
        await client.query(`UPDATE ${table} SET ${quote(column.column)} = $1${column.kind === 'map' ? '::jsonb' : ''} WHERE ctid = $2::tid`, [
          column.kind === 'map' ? JSON.stringify(next) : next,
          row.ctid,
        ]);
      }
      positionsChanged[where] = changed;
    }

    if (eventsRenumbered > 0) {
      // GENERATED ALWAYS refuses explicit values; the primary key is checked row by
      // row, so the numbers go through the negatives to never meet one still in place.
      await client.query(`ALTER TABLE ${s}.events ALTER COLUMN global_position SET GENERATED BY DEFAULT`);
      await client.query(
        `UPDATE ${s}.events e SET global_position = -m.new_global_position, transaction_id = '${REBASED_TRANSACTION_ID}'::xid8
           FROM rebase_map m
          WHERE e.transaction_id = m.old_transaction_id AND e.global_position = m.old_global_position`,
      );
      await client.query(`UPDATE ${s}.events SET global_position = -global_position`);
      await client.query(`ALTER TABLE ${s}.events ALTER COLUMN global_position SET GENERATED ALWAYS`);
    }
    // The next append follows the last event; on an empty log it starts at 1.
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, 'global_position'), greatest(coalesce(max(global_position), 0), 1), max(global_position) IS NOT NULL) FROM ${s}.events`,
      [`${schema}.events`],
    );
    await client.query('COMMIT');
    return { events, eventsRenumbered, positionsChanged };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
