import { countedMillisecondsBetween, slaDeadline, type SlaClockOptions } from './sla-clock.js';
import { parisInstantMs, type CalendarInstantInput } from './paris-time.js';

// ─── Objectives (management spec §4, §9) ─────────────────────────────────────

/** Intervention-delay compliance objective, in percent. */
export const SLA_OBJECTIVE_PCT = 90;
/** Quotes-registered-within-5-days objective, in percent. */
export const DEVIS_OBJECTIVE_PCT = 100;
/** Time allowed to register a quote after closing: 5 days (tickets spec §9). */
export const STATS_DEVIS_WINDOW_MS = 432_000_000;

export type GaugeLabel = 'Atteint' | 'À améliorer';

export interface GaugeStatus {
  readonly reached: boolean;
  readonly label: GaugeLabel;
}

/**
 * Gauge colour and label: reached (green, 'Atteint') when `pct >= objective`,
 * otherwise red 'À améliorer'. `pct` is the rounded figure the screen shows,
 * so the label never contradicts the number next to it. A null pct (no data)
 * has no status: the screen shows '—' instead of a gauge.
 */
export function gaugeStatus(pct: number, objective: number): GaugeStatus;
export function gaugeStatus(pct: number | null, objective: number): GaugeStatus | null;
export function gaugeStatus(pct: number | null, objective: number): GaugeStatus | null {
  if (pct === null) return null;
  const reached = pct >= objective;
  return { reached, label: reached ? 'Atteint' : 'À améliorer' };
}

/**
 * `part / whole` as a percentage rounded half-up to one decimal, or null when
 * `whole` is 0. A rate below 100 % is shown as 99.9 at most, so that rounding
 * can never make the 100 % quote objective look reached.
 */
export function percentWithOneDecimal(part: number, whole: number): number | null {
  if (whole === 0) return null;
  const pct = Math.round((part * 1000) / whole) / 10;
  return part < whole && pct >= 100 ? 99.9 : pct;
}

// ─── Per-ticket flags ────────────────────────────────────────────────────────

export interface SlaOkInput {
  /** Ticket opening (created_at): the SLA clock starts here. */
  readonly createdAt: CalendarInstantInput;
  /** Technician arrival (arrive_at), if any. */
  readonly arriveAt?: CalendarInstantInput | null;
  /** Closing (clos_at), used when there is no arrival. */
  readonly closAt?: CalendarInstantInput | null;
  /** Hours allowed; null or undefined when none is defined. */
  readonly delaiHours: number | null | undefined;
  /** The trade's clock, see slaClockForHoStats. */
  readonly calendarTime: boolean;
  /** The clock's current instant, to tell a missed deadline from a pending one. */
  readonly now: CalendarInstantInput;
}

/**
 * Intervention delay respected?
 * - true / false: arrival — or closing when there is no arrival — counted
 *   within `delaiHours` under the trade's clock (bounds inclusive);
 * - false also when neither has happened and the deadline has passed at `now`;
 * - null (N/A): no delay defined, or nothing happened yet and the deadline is
 *   still ahead.
 */
export function slaOk(input: SlaOkInput): boolean | null {
  const { createdAt, arriveAt, closAt, delaiHours, calendarTime, now } = input;
  if (delaiHours === null || delaiHours === undefined) return null;
  if (!Number.isFinite(delaiHours) || delaiHours < 0) throw new RangeError(`Délai invalide : ${delaiHours}`);
  const clock: SlaClockOptions = { calendarTime };
  const allowedMs = Math.round(delaiHours * 3_600_000);
  const reached = arriveAt ?? closAt ?? null;
  if (reached !== null) return countedMillisecondsBetween(createdAt, reached, clock) <= allowedMs;
  return parisInstantMs(now) > slaDeadline(createdAt, delaiHours, clock).getTime() ? false : null;
}

export interface DevisOkInput {
  /** Quote requested at closing (devis 0 or 1). */
  readonly devis: 0 | 1 | boolean | null | undefined;
  /** Closing (clos_at): the 5-day window starts here. */
  readonly closAt: CalendarInstantInput | null | undefined;
  /** When the quote was registered (date_enregistrement_devis), if it was. */
  readonly devisRegisteredAt: CalendarInstantInput | null | undefined;
  readonly now: CalendarInstantInput;
}

/**
 * Quote registered within 5 days (432 000 000 ms, real elapsed time whatever
 * HO_stats) of closing?
 * - null (N/A): no quote requested, or the ticket is not closed yet, or the
 *   window is still open at `now` with no quote registered;
 * - true: registered at most 5 days after closing (or before it);
 * - false: registered later, or not registered and the window is over.
 */
export function devisOk(input: DevisOkInput): boolean | null {
  const { devis, closAt, devisRegisteredAt, now } = input;
  if (!(devis === 1 || devis === true)) return null;
  if (closAt === null || closAt === undefined) return null;
  const windowEnd = parisInstantMs(closAt) + STATS_DEVIS_WINDOW_MS;
  if (devisRegisteredAt !== null && devisRegisteredAt !== undefined) {
    return parisInstantMs(devisRegisteredAt) <= windowEnd;
  }
  return parisInstantMs(now) > windowEnd ? false : null;
}

// ─── Summary ─────────────────────────────────────────────────────────────────

/** A flag as a stats item carries it; 0/1 from SQL are accepted too. */
export type StatsFlag = boolean | 0 | 1 | null | undefined;

export interface StatsItemFlags {
  readonly sla_ok: StatsFlag;
  readonly devis_ok: StatsFlag;
}

/** The figures of the Stats summary (management spec §3). */
export interface StatsSummaryFigures {
  /** sla_ok / total in percent, one decimal; null when total is 0. */
  readonly sla_pct: number | null;
  readonly sla_ok: number;
  /** Items judged on the intervention delay (sla_ok not N/A). */
  readonly total: number;
  /** devis_ok / devis_eligible in percent, one decimal; null when none eligible. */
  readonly devis_pct: number | null;
  readonly devis_ok: number;
  /** Items with a quote flag (devis_ok not N/A). */
  readonly devis_eligible: number;
}

function isJudged(flag: StatsFlag): flag is boolean | 0 | 1 {
  return flag !== null && flag !== undefined;
}

function isTrue(flag: StatsFlag): boolean {
  return flag === true || flag === 1;
}

/**
 * Sums per-ticket flags into the Stats summary. N/A flags (null) are left out
 * of both numerator and denominator; an empty set (or one with only N/A)
 * gives counts of 0 and a null percentage, shown as '—', never 0 % or 100 %.
 */
export function summarizeStats(items: readonly StatsItemFlags[]): StatsSummaryFigures {
  let total = 0;
  let slaOkCount = 0;
  let devisEligible = 0;
  let devisOkCount = 0;
  for (const item of items) {
    if (isJudged(item.sla_ok)) {
      total += 1;
      if (isTrue(item.sla_ok)) slaOkCount += 1;
    }
    if (isJudged(item.devis_ok)) {
      devisEligible += 1;
      if (isTrue(item.devis_ok)) devisOkCount += 1;
    }
  }
  return {
    sla_pct: percentWithOneDecimal(slaOkCount, total),
    sla_ok: slaOkCount,
    total,
    devis_pct: percentWithOneDecimal(devisOkCount, devisEligible),
    devis_ok: devisOkCount,
    devis_eligible: devisEligible,
  };
}
