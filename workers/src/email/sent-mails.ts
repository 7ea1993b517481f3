import type pg from 'pg';
import { JOBS_SCHEMA } from '../reactor.js';

/*
 * Job bookkeeping (not a projection): one row per (request event, recipient)
 * says whether that e-mail left. A session advisory lock, not a transaction,
 * guards the send, because an open transaction would hold back the event
 * store's snapshot horizon (and so every subscriber) for as long as the SMTP
 * server takes.
 *
 * The one window left: the SMTP server accepted the message and the process
 * died before the row said 'sent'. The retry then sends again (at least once
 * rather than maybe never), with the same Message-ID.
 */

export type SentMailState = { status: 'sent'; messageId: string } | { status: 'failed'; error: string } | { status: 'claimed'; claim: SentMailClaim };

export interface SentMailClaim {
  markSent(messageId: string, transport: string): Promise<void>;
  markFailed(error: string): Promise<void>;
  /** Gives the send back (transient failure): the next attempt claims it again. */
  release(): Promise<void>;
}

export class SendInProgressError extends Error {
  constructor() {
    super('this e-mail is being sent by another worker');
  }
}

export async function migrateSentMails(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${JOBS_SCHEMA}`).catch(ignoreDuplicate);
  await pool
    .query(
      `CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.sent_mails (
         request_event_id uuid NOT NULL,
         recipient text NOT NULL,
         status text NOT NULL,
         message_id text,
         transport text,
         error text,
         attempts int NOT NULL DEFAULT 0,
         first_attempt_at timestamptz NOT NULL DEFAULT now(),
         updated_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (request_event_id, recipient)
       )`,
    )
    .catch(ignoreDuplicate);
}

export async function claimSentMail(pool: pg.Pool, requestEventId: string, recipient: string): Promise<SentMailState> {
  const client = await pool.connect();
  const lockKey = `fsm:mail:${requestEventId}:${recipient}`;
  let locked = false;
  try {
    const { rows: lock } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [lockKey]);
    locked = lock[0]?.locked === true;
    if (!locked) throw new SendInProgressError();
    const { rows } = await client.query<{ status: string; message_id: string | null; error: string | null }>(
      `INSERT INTO ${JOBS_SCHEMA}.sent_mails (request_event_id, recipient, status, attempts) VALUES ($1, $2, 'sending', 1)
       ON CONFLICT (request_event_id, recipient) DO UPDATE SET attempts = ${JOBS_SCHEMA}.sent_mails.attempts + 1, updated_at = now()
       RETURNING status, message_id, error`,
      [requestEventId, recipient],
    );
    const row = rows[0]!;
    if (row.status === 'sent' || row.status === 'failed') {
      await unlock();
      return row.status === 'sent' ? { status: 'sent', messageId: row.message_id ?? '' } : { status: 'failed', error: row.error ?? '' };
    }
  } catch (error) {
    if (locked) await unlock().catch(() => undefined);
    else client.release();
    throw error;
  }

  async function unlock(): Promise<void> {
    try {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]);
      client.release();
    } catch (error) {
      client.release(true);
      throw error;
    }
  }

  const update = async (sql: string, params: unknown[]) => {
    try {
      await client.query(sql, [requestEventId, recipient, ...params]);
    } finally {
      await unlock();
    }
  };
  return {
    status: 'claimed',
    claim: {
      markSent: (messageId, transport) =>
        update(`UPDATE ${JOBS_SCHEMA}.sent_mails SET status = 'sent', message_id = $3, transport = $4, error = NULL, updated_at = now() WHERE request_event_id = $1 AND recipient = $2`, [messageId, transport]),
      markFailed: (error) =>
        update(`UPDATE ${JOBS_SCHEMA}.sent_mails SET status = 'failed', error = $3, updated_at = now() WHERE request_event_id = $1 AND recipient = $2`, [error]),
      release: () => update(`UPDATE ${JOBS_SCHEMA}.sent_mails SET status = 'retry', updated_at = now() WHERE request_event_id = $1 AND recipient = $2`, []),
    },
  };
}

function ignoreDuplicate(error: { code?: string }): void {
  if (error.code !== '23505' && error.code !== '42P06' && error.code !== '42P07') throw error;
}
