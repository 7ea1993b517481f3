import { z } from 'zod';

/**
 * `num_chrono`: the readable ticket number staff say on the phone and print on
 * reports, `AGC-2026-00042` = agency code, French calendar year of opening,
 * sequence within that code and year (5 digits, more when a year passes 99 999).
 *
 * Uniqueness: the handler allocates the sequence per (code, year), not per
 * agency id, so two agencies whose names give the same code share one counter
 * and still never produce the same number.
 */

export interface NumChronoParts {
  agencyCode: string;
  year: number;
  sequence: number;
}

export const NUM_CHRONO_PATTERN = /^([A-Z]{3})-(\d{4})-(\d{5,})$/;

/**
 * Three letters from the agency's name: accents dropped, upper case, letters
 * only, padded with X ("Lyon Est" → LYO, "Évry" → EVR, "Ay" → AYX). Agencies
 * have no code field in the spec, so the name is the only readable source.
 */
export function ticketAgencyCode(agencyName: string): string {
  const plain = agencyName.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
  // "Agence Lyon Centre" reads as LYO, not AGE: the generic word carries no information.
  const meaningful = plain.replace(/^\s*AGENCE\b[\s'’-]*(D['’]\s*|DE\s+|DU\s+|DES\s+)?/, '');
  const letters = (meaningful.replace(/[^A-Z]/g, '') || plain.replace(/[^A-Z]/g, ''));
  return letters.slice(0, 3).padEnd(3, 'X');
}

export function formatNumChrono({ agencyCode, year, sequence }: NumChronoParts): string {
  if (!/^[A-Z]{3}$/.test(agencyCode)) throw new RangeError(`agency code must be three capital letters: ${agencyCode}`);
  if (!Number.isInteger(year) || year < 1000 || year > 9999) throw new RangeError(`year out of range: ${year}`);
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError(`sequence must be a positive integer: ${sequence}`);
  return `${agencyCode}-${year}-${String(sequence).padStart(5, '0')}`;
}

export function parseNumChrono(numChrono: string): NumChronoParts | null {
  const match = NUM_CHRONO_PATTERN.exec(numChrono);
  if (!match) return null;
  const [, agencyCode, year, sequence] = match;
  if (agencyCode === undefined || year === undefined || sequence === undefined) return null;
  return { agencyCode, year: Number(year), sequence: Number(sequence) };
}

// ---------------------------------------------------------------------------
// Events of the counter
// ---------------------------------------------------------------------------

/**
 * The `num_chrono` counters (docs/ticket-lifecycle.md, docs/tickets-api.md).
 * One stream per (agency code, French calendar year), `chrono-LYO-2026`; each
 * ticket number is one `ChronoAllocated` event appended with the stream's
 * expected revision, so two concurrent openings can never draw the same
 * sequence: the loser's append fails and it draws again.
 */

export const CHRONO_STREAM_CATEGORY = 'chrono';

/** `chrono-<CODE>-<YEAR>`; the category (before the first '-') is `chrono`. */
export function chronoStreamId(agencyCode: string, year: number): string {
  return `${CHRONO_STREAM_CATEGORY}-${agencyCode}-${year}`;
}

export const chronoAllocatedDataSchema = z.object({
  /** 1 for the first ticket of the code and year, then 2, 3, ... with no reuse. */
  seq: z.int().positive(),
  /** The ticket the number was drawn for. */
  ticketId: z.string().min(1),
});

export const chronoAllocatedSchema = z.object({ type: z.literal('ChronoAllocated'), data: chronoAllocatedDataSchema });

export type ChronoAllocated = z.infer<typeof chronoAllocatedSchema>;
export type ChronoAllocatedData = ChronoAllocated['data'];
