import { DEADLINE_GREEN_MAX_SHARE, DEADLINE_ORANGE_MAX_SHARE } from './ticket-constants.js';

/**
 * An intervention's deadline bar (spec §9): runs from created_at to the
 * deadline, given as a date or as a number of hours after creation. Pass the
 * current time for a running intervention and its clos_at for a finished one,
 * so a closed bar freezes where the work ended.
 */

export type DeadlineBarColour = 'green' | 'orange' | 'red';

export interface DeadlineBar {
  deadlineAt: string;
  /** Elapsed time over allowed time; above 1 once late. */
  share: number;
  /** Bar width, 0 to 100. */
  percent: number;
  /** Elapsed share up to 33 % green, up to 66 % orange, above red. */
  colour: DeadlineBarColour;
  overdue: boolean;
}

const HOUR_MS = 3_600_000;

export function deadlineBarColour(share: number): DeadlineBarColour {
  if (share <= DEADLINE_GREEN_MAX_SHARE) return 'green';
  if (share <= DEADLINE_ORANGE_MAX_SHARE) return 'orange';
  return 'red';
}

/** Null when there is no deadline to show (no echeance and no delay) or a date does not parse. */
export function deadlineBar(createdAt: string, deadline: string | number | null, at: Date | number | string): DeadlineBar | null {
  if (deadline === null) return null;
  const start = Date.parse(createdAt);
  const end = typeof deadline === 'number' ? start + deadline * HOUR_MS : Date.parse(deadline);
  const now = typeof at === 'string' ? Date.parse(at) : new Date(at).getTime();
  if ([start, end, now].some(Number.isNaN)) return null;
  const total = end - start;
  const elapsed = Math.max(0, now - start);
  // A zero (or negative) allowance is used up from the first instant.
  const share = total <= 0 ? (elapsed > 0 ? Number.POSITIVE_INFINITY : 1) : elapsed / total;
  return {
    deadlineAt: new Date(end).toISOString(),
    share,
    percent: Math.min(100, Math.round(share * 1000) / 10),
    colour: deadlineBarColour(share),
    overdue: now > end,
  };
}
