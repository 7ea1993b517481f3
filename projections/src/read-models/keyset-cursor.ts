import { createHash } from 'node:crypto';
import { PAGING_MESSAGES, ValidationError } from '@fsm/contracts';
import type { AgenceScope } from './queryable.js';

/*
 * The opaque `cursor` of the paged lists (issue #19): base64url of
 * `{ f, k }`, `k` the last row's sort key (its id last) and `f` a fingerprint
 * of the list, scope and filters it was made for, so a cursor carried over to
 * other filters, another list or another user's scope is refused rather than
 * read against the wrong rows. A cursor grants nothing: every page is still
 * limited to the caller's scope by its WHERE clause; a forged one can only
 * start a page at another place of the caller's own list.
 */

/** One component of a sort key and how it must look. */
export type KeyPart = 'rank' | 'instant' | 'uuid';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** keysetInstantSql's output: UTC, microseconds, so the next page starts exactly after the row, whatever the session's settings. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A timestamptz as the cursor keeps it (see INSTANT). */
export function keysetInstantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** A real instant Postgres reads back (the regex lets 2025-13-45 or year 0 through). */
function isInstant(value: string): boolean {
  if (!INSTANT.test(value) || value.startsWith('0000')) return false;
  const milliseconds = `${value.slice(0, 23)}Z`;
  const date = new Date(milliseconds);
  return !Number.isNaN(date.getTime()) && date.toISOString() === milliseconds;
}

function invalid(): ValidationError {
  return new ValidationError(PAGING_MESSAGES.invalidCursor);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** The list, scope and filters a cursor belongs to, as a short digest. */
export function listFingerprint(list: string, scope: AgenceScope, filters: object): string {
  const scoped = scope === 'all' ? 'all' : [...scope].sort();
  return createHash('sha256')
    .update(JSON.stringify([list, scoped, canonical(filters)]))
    .digest('base64url')
    .slice(0, 22);
}

function encodeCursor(fingerprint: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ f: fingerprint, k: key }), 'utf8').toString('base64url');
}

/** The sort key a cursor carries, checked against the list it is used on; a French 400 otherwise. */
export function decodeCursor(cursor: string, fingerprint: string, parts: readonly KeyPart[]): (string | number)[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (decoded === null || typeof decoded !== 'object') throw invalid();
  const { f, k } = decoded as { f?: unknown; k?: unknown };
  if (f !== fingerprint || !Array.isArray(k) || k.length !== parts.length) throw invalid();
  // The same bytes back: a cursor is only ever what encodeCursor wrote.
  if (encodeCursor(fingerprint, k as (string | number)[]) !== cursor) throw invalid();
  parts.forEach((part, i) => {
    const value: unknown = k[i];
    const ok =
      part === 'rank'
        ? Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 9
        : typeof value === 'string' && (part === 'uuid' ? UUID.test(value) : isInstant(value));
    if (!ok) throw invalid();
  });
  return k as (string | number)[];
}

/** A page asked for: how many rows and after which (the raw cursor; undefined for the first page). */
export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/**
 * The rows of a page read with `limit + 1`: the page, and the cursor of its
 * last row when there is more. `keyOf` reads the sort key the query added
 * (and removes those helper columns so the rows are the answer's objects).
 */
export function pageOf<Row>(rows: Row[], limit: number, fingerprint: string, keyOf: (row: Row) => (string | number)[]): { rows: Row[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const keys = page.map(keyOf);
  const last = keys[keys.length - 1];
  return { rows: page, next_cursor: more && last !== undefined ? encodeCursor(fingerprint, last) : null };
}
