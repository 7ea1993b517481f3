import type pg from 'pg';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,50}$/;

/** Schema names are spliced into SQL, so only plain lower-case identifiers are accepted. */
export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new TypeError(`invalid event-store schema name: ${JSON.stringify(schema)}`);
}

/** The channel other processes LISTEN on; one per schema so two stores never wake each other. */
export function notificationChannel(schema: string): string {
  return `${schema}_appended`;
}

/**
 * Key of the session advisory lock held while migrating. The two-int form is
 * used so it can never collide with single-bigint advisory locks taken
 * elsewhere (the projection runners use those).
 */
const MIGRATION_LOCK_CLASS = 0x45_53_4d_47; // "ESMG"

/**
 * The whole DDL, idempotent: every statement is IF NOT EXISTS or OR REPLACE.
 * It still runs under an advisory lock, because two concurrent
 * `CREATE OR REPLACE FUNCTION` / `CREATE ... IF NOT EXISTS` can fail with
 * "tuple concurrently updated" or a unique violation on the catalog.
 */
export function schemaDdl(schema: string): string {
  assertSchemaName(schema);
  const s = `"${schema}"`;
  return `
CREATE SCHEMA IF NOT EXISTS ${s};

CREATE TABLE IF NOT EXISTS ${s}.streams (
  stream_id text PRIMARY KEY,
  category  text   NOT NULL,
  -- Revision of the last event in the stream (0-based).
  version   bigint NOT NULL
);

-- The log's identity (issue 32): drawn once per database, names what lives
-- outside it for it alone (the job queues' Redis keys). Not an event: it is
-- neither read, copied nor counted with the log.
CREATE TABLE IF NOT EXISTS ${s}.log_identity (
  singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
  log_id     uuid        NOT NULL DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO ${s}.log_identity (singleton) VALUES (true) ON CONFLICT DO NOTHING;

CREATE TABLE IF NOT EXISTS ${s}.events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  stream_id       text        NOT NULL REFERENCES ${s}.streams (stream_id),
  stream_version  bigint      NOT NULL,
  event_id        uuid        NOT NULL UNIQUE,
  type            text        NOT NULL,
  data            jsonb       NOT NULL,
  metadata        jsonb       NOT NULL,
  -- The writing transaction: subscribers only read below the oldest
  -- transaction still running, so a late commit can never be skipped.
  transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (stream_id, stream_version)
);

-- Subscription order and the visibility bound.
CREATE INDEX IF NOT EXISTS events_transaction_position_idx
  ON ${s}.events (transaction_id, global_position);

-- Category filters (category = the stream id up to its first '-').
CREATE INDEX IF NOT EXISTS events_category_transaction_position_idx
  ON ${s}.events (split_part(stream_id, '-', 1), transaction_id, global_position);

${appendFunctionDdl(s)}
`;
}

/**
 * The append, in one round trip. Every write path is a compare-and-set on the
 * stream row: the insert of a new stream (ON CONFLICT DO NOTHING, no row = it
 * existed) or \`UPDATE ... WHERE version = <expected>\` (no row = it moved).
 *
 * Why 'any' and 'stream_exists' also compare-and-set on the version they just
 * read rather than \`version = version + n\`: a blind increment that waited on
 * another writer's row lock would write after it with an older transaction id,
 * and subscribers (ordered by transaction id) would then see the stream out of
 * order. A compare-and-set only succeeds when its statement snapshot already
 * saw the previous writer committed, so its transaction id is newer. When the
 * compare-and-set loses, the function answers 'retry' and the adapter calls it
 * again in a fresh transaction.
 *
 * Idempotency: if the event ids are already stored, contiguous, in this order,
 * in this stream and where the expected revision put them, the first result is
 * returned and nothing is written. Checked before writing and again after a
 * lost compare-and-set (a concurrent copy of the same append may have won).
 *
 * Returns status 'ok' | 'conflict' | 'retry'; out_version is the revision of
 * the last event on 'ok' and the stream's current revision otherwise (-1 when
 * it does not exist).
 */
function appendFunctionDdl(s: string): string {
  return `
CREATE OR REPLACE FUNCTION ${s}.stored_append(
  p_stream_id text,
  p_expected  text,
  p_ids       uuid[],
  OUT out_status text,
  OUT out_version bigint,
  OUT out_transaction_id xid8,
  OUT out_global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_found    bigint;
  v_offsets  bigint;
  v_same     boolean;
  v_first    bigint;
  v_last     bigint;
BEGIN
  SELECT count(e.event_id),
         count(DISTINCT e.stream_version - i.n),
         coalesce(bool_and(e.stream_id = p_stream_id), false),
         min(e.stream_version),
         max(e.stream_version)
    INTO v_found, v_offsets, v_same, v_first, v_last
    FROM unnest(p_ids) WITH ORDINALITY AS i(id, n)
    LEFT JOIN ${s}.events e ON e.event_id = i.id;

  IF v_found = 0 THEN
    out_status := 'none';
    RETURN;
  END IF;

  IF v_found = cardinality(p_ids) AND v_offsets = 1 AND v_same
     AND (p_expected IN ('any', 'stream_exists')
          OR (p_expected = 'no_stream' AND v_first = 0)
          OR (p_expected ~ '^[0-9]+$' AND v_first = p_expected::bigint + 1)) THEN
    SELECT 'ok', e.stream_version, e.transaction_id, e.global_position
      INTO out_status, out_version, out_transaction_id, out_global_position
      FROM ${s}.events e
     WHERE e.stream_id = p_stream_id AND e.stream_version = v_last;
    RETURN;
  END IF;

  out_status := 'mismatch';
END;
$fn$;

CREATE OR REPLACE FUNCTION ${s}.append_to_stream(
  p_stream_id text,
  p_expected  text,
  p_events    jsonb,
  OUT out_status text,
  OUT out_version bigint,
  OUT out_transaction_id xid8,
  OUT out_global_position bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count    int := jsonb_array_length(p_events);
  v_ids      uuid[];
  v_current  bigint;
  v_first    bigint;
  v_won      boolean;
  v_retry    boolean := false;
  v_previous record;
BEGIN
  IF v_count = 0 THEN
    RAISE EXCEPTION 'nothing to append to %', p_stream_id USING ERRCODE = '22023';
  END IF;

  v_ids := ARRAY(SELECT (x.e ->> 'id')::uuid
                   FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(e, n)
                  ORDER BY x.n);

  SELECT * INTO v_previous FROM ${s}.stored_append(p_stream_id, p_expected, v_ids);
  IF v_previous.out_status = 'ok' THEN
    out_status := 'ok';
    out_version := v_previous.out_version;
    out_transaction_id := v_previous.out_transaction_id;
    out_global_position := v_previous.out_global_position;
    RETURN;
  END IF;

  IF v_previous.out_status = 'mismatch' THEN
    -- Some of these ids are stored, but not as this append would store them.
    v_won := false;
  ELSIF p_expected = 'no_stream' THEN
    INSERT INTO ${s}.streams (stream_id, category, version)
    VALUES (p_stream_id, split_part(p_stream_id, '-', 1), v_count - 1)
    ON CONFLICT (stream_id) DO NOTHING;
    v_won := FOUND;
    v_first := 0;
  ELSIF p_expected IN ('any', 'stream_exists') THEN
    SELECT version INTO v_current FROM ${s}.streams WHERE stream_id = p_stream_id;
    IF NOT FOUND THEN
      IF p_expected = 'stream_exists' THEN
        v_won := false;
      ELSE
        INSERT INTO ${s}.streams (stream_id, category, version)
        VALUES (p_stream_id, split_part(p_stream_id, '-', 1), v_count - 1)
        ON CONFLICT (stream_id) DO NOTHING;
        v_won := FOUND;
        v_retry := NOT v_won;
        v_first := 0;
      END IF;
    ELSE
      UPDATE ${s}.streams SET version = v_current + v_count
       WHERE stream_id = p_stream_id AND version = v_current;
      v_won := FOUND;
      v_retry := NOT v_won;
      v_first := v_current + 1;
    END IF;
  ELSIF p_expected ~ '^[0-9]+$' THEN
    UPDATE ${s}.streams SET version = p_expected::bigint + v_count
     WHERE stream_id = p_stream_id AND version = p_expected::bigint;
    v_won := FOUND;
    v_first := p_expected::bigint + 1;
  ELSE
    RAISE EXCEPTION 'unknown expected revision %', p_expected USING ERRCODE = '22023';
  END IF;

  IF NOT v_won THEN
    -- A concurrent copy of this very append may be what beat us.
    SELECT * INTO v_previous FROM ${s}.stored_append(p_stream_id, p_expected, v_ids);
    IF v_previous.out_status = 'ok' THEN
      out_status := 'ok';
      out_version := v_previous.out_version;
      out_transaction_id := v_previous.out_transaction_id;
      out_global_position := v_previous.out_global_position;
      RETURN;
    END IF;
    out_status := CASE WHEN v_retry AND v_previous.out_status = 'none' THEN 'retry' ELSE 'conflict' END;
    out_version := coalesce((SELECT version FROM ${s}.streams WHERE stream_id = p_stream_id), -1);
    RETURN;
  END IF;

  -- Per-stream order rests on this transaction's id being newer than that of
  -- the stream's previous event, which holds when the append is the first
  -- write of its transaction. A transaction that took its id earlier (an
  -- earlier write, in the same transaction, than a concurrent append to this
  -- stream) would be read by subscribers before that previous event: refuse.
  IF v_first > 0 AND (SELECT e.transaction_id FROM ${s}.events e
                       WHERE e.stream_id = p_stream_id AND e.stream_version = v_first - 1) > pg_current_xact_id() THEN
    RAISE EXCEPTION 'append_to_stream: transaction % took its id before revision % of % was written by a newer one; append in a transaction that writes nothing before it',
      pg_current_xact_id(), v_first - 1, p_stream_id
      USING ERRCODE = '55000';
  END IF;

  -- ORDER BY makes the identity column hand out positions in batch order.
  WITH inserted AS (
    INSERT INTO ${s}.events (stream_id, stream_version, event_id, type, data, metadata)
    SELECT p_stream_id, v_first + x.n - 1, (x.e ->> 'id')::uuid, x.e ->> 'type',
           coalesce(x.e -> 'data', 'null'::jsonb), coalesce(x.e -> 'metadata', '{}'::jsonb)
      FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(e, n)
     ORDER BY x.n
    RETURNING global_position
  )
  SELECT max(global_position) INTO out_global_position FROM inserted;

  out_status := 'ok';
  out_version := v_first + v_count - 1;
  out_transaction_id := pg_current_xact_id();
END;
$fn$;
`;
}

/** Runs the DDL under a session advisory lock, so several processes may start at once. */
export async function migrateSchema(pool: pg.Pool, schema: string): Promise<void> {
  const ddl = schemaDdl(schema);
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    try {
      await client.query(ddl);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // A connection that failed mid-migration may still hold the lock: drop it.
    client.release(broken);
  }
}
