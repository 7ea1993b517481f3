import { z } from 'zod';
import { defineEvent, isoDateTime, numberInput, requiredText } from './fields.js';
import { agenceIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

// ---------------------------------------------------------------------------
// Opening hours (horaires)
// ---------------------------------------------------------------------------

/** Monday (1) to Friday (5): the only days with opening hours (§5). */
export const AGENCE_WORKING_DAYS = [1, 2, 3, 4, 5] as const;
export type AgenceWorkingDay = (typeof AGENCE_WORKING_DAYS)[number];
export const AGENCE_DAY_LABELS: Readonly<Record<AgenceWorkingDay, string>> = {
  1: 'Lundi',
  2: 'Mardi',
  3: 'Mercredi',
  4: 'Jeudi',
  5: 'Vendredi',
};

/** What ticking a half-day fills in (§4). */
export const AGENCE_DEFAULT_MORNING = { open: '08:00', close: '12:00' } as const;
export const AGENCE_DEFAULT_AFTERNOON = { open: '13:30', close: '17:30' } as const;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = z.string().regex(HH_MM, M.horaireTimeInvalid);

/** One day as stored in events and returned by GET /api/agences/{id}/horaires. */
export const agenceHoraireSchema = z.object({
  day_of_week: z.int().min(1).max(5),
  morning_open: hhmm.nullable(),
  morning_close: hhmm.nullable(),
  afternoon_open: hhmm.nullable(),
  afternoon_close: hhmm.nullable(),
});
export type AgenceHoraire = z.infer<typeof agenceHoraireSchema>;
export const agenceHorairesResponseSchema = z.array(agenceHoraireSchema);

/** '' and missing mean an unticked half-day; 'HH:mm:ss' (as Postgres prints it) is cut to 'HH:mm'. */
const timeInput = z.preprocess(
  (value) => (value === undefined || value === '' ? null : typeof value === 'string' && /^\d\d:\d\d:\d\d$/.test(value) ? value.slice(0, 5) : value),
  z.string({ error: M.horaireTimeInvalid }).regex(HH_MM, M.horaireTimeInvalid).nullable(),
);

export const agenceHoraireBodySchema = z
  .object({
    day_of_week: z.preprocess(numberInput, z.int({ error: M.horaireDayInvalid }).min(1, M.horaireDayInvalid).max(5, M.horaireDayInvalid)),
    morning_open: timeInput,
    morning_close: timeInput,
    afternoon_open: timeInput,
    afternoon_close: timeInput,
  })
  .superRefine((day, ctx) => {
    // 'HH:mm' strings compare in time order.
    if ((day.morning_open === null) !== (day.morning_close === null)) ctx.addIssue({ code: 'custom', message: M.horaireMorningPair, path: ['morning_open'] });
    else if (day.morning_open !== null && day.morning_close !== null && day.morning_close <= day.morning_open) ctx.addIssue({ code: 'custom', message: M.horaireMorningOrder, path: ['morning_close'] });
    if ((day.afternoon_open === null) !== (day.afternoon_close === null)) ctx.addIssue({ code: 'custom', message: M.horaireAfternoonPair, path: ['afternoon_open'] });
    else if (day.afternoon_open !== null && day.afternoon_close !== null && day.afternoon_close <= day.afternoon_open) ctx.addIssue({ code: 'custom', message: M.horaireAfternoonOrder, path: ['afternoon_close'] });
    if (day.morning_close !== null && day.afternoon_open !== null && day.afternoon_open < day.morning_close) ctx.addIssue({ code: 'custom', message: M.horaireHalfDaysOverlap, path: ['afternoon_open'] });
  });

/**
 * PUT /api/agences/{id}/horaires: the week as a list of days (a `{ horaires }`
 * wrapper is accepted too). It replaces the whole week: a day left out is closed.
 * The output always has the five days in order, the form stored in events.
 */
export const agenceHorairesBodySchema = z.preprocess(
  (value) => (value && typeof value === 'object' && !Array.isArray(value) && 'horaires' in value ? value.horaires : value),
  z
    .array(agenceHoraireBodySchema, { error: 'Les horaires doivent être une liste de jours.' })
    .superRefine((days, ctx) => {
      const seen = new Set<number>();
      days.forEach((day, index) => {
        if (seen.has(day.day_of_week)) ctx.addIssue({ code: 'custom', message: M.horaireDayDuplicated, path: [index, 'day_of_week'] });
        seen.add(day.day_of_week);
      });
    })
    .transform((days) => completeAgenceWeek(days)),
);
export type AgenceHorairesBody = z.output<typeof agenceHorairesBodySchema>;

export function closedAgenceHoraire(day: AgenceWorkingDay): AgenceHoraire {
  return { day_of_week: day, morning_open: null, morning_close: null, afternoon_open: null, afternoon_close: null };
}

/** The week a new agency starts with: every weekday open with the default hours. */
export function defaultAgenceHoraires(): AgenceHoraire[] {
  return AGENCE_WORKING_DAYS.map((day) => ({
    day_of_week: day,
    morning_open: AGENCE_DEFAULT_MORNING.open,
    morning_close: AGENCE_DEFAULT_MORNING.close,
    afternoon_open: AGENCE_DEFAULT_AFTERNOON.open,
    afternoon_close: AGENCE_DEFAULT_AFTERNOON.close,
  }));
}

/** Five days in order; a missing day is closed. */
export function completeAgenceWeek(days: readonly AgenceHoraire[]): AgenceHoraire[] {
  return AGENCE_WORKING_DAYS.map((day) => {
    const given = days.find((entry) => entry.day_of_week === day);
    return given ? { ...given } : closedAgenceHoraire(day);
  });
}

/** Ticking opens the half-day with its default hours, unticking stores nulls (§4). */
export function setAgenceHalfDay(day: AgenceHoraire, half: 'morning' | 'afternoon', open: boolean): AgenceHoraire {
  const defaults = half === 'morning' ? AGENCE_DEFAULT_MORNING : AGENCE_DEFAULT_AFTERNOON;
  return { ...day, [`${half}_open`]: open ? defaults.open : null, [`${half}_close`]: open ? defaults.close : null };
}

// ---------------------------------------------------------------------------
// Agency
// ---------------------------------------------------------------------------

/**
 * POST /api/agences and PUT /api/agences/{id}. Every field is required (§5).
 * `id_template` absent keeps the current template on update (the agencies form
 * does not show it); null unassigns it. The template builder's PUT sends the
 * whole agency, so unknown keys such as `id` are dropped, not refused.
 */
export const agenceBodySchema = z.object({
  nom: requiredText(M.agenceNomRequired),
  adresse: requiredText(M.agenceAdresseRequired),
  cp_postal: requiredText(M.agenceCodePostalRequired, 10),
  ville: requiredText(M.agenceVilleRequired),
  telephone: requiredText(M.agenceTelephoneRequired, 30),
  id_template: z.guid({ error: M.agenceTemplateInvalid }).nullish(),
});
export type AgenceBody = z.output<typeof agenceBodySchema>;
export type AgenceBodyInput = z.input<typeof agenceBodySchema>;

export const agenceSchema = z.object({
  id: agenceIdSchema,
  nom: z.string(),
  adresse: z.string(),
  cp_postal: z.string(),
  ville: z.string(),
  telephone: z.string(),
  id_template: z.guid().nullable(),
  version: entityVersionSchema.optional(),
});
export type Agence = z.infer<typeof agenceSchema>;
export const agencesResponseSchema = z.array(agenceSchema);

/** GET /api/utilisateurs/agences and pickers: just enough to choose one. */
export const agenceOptionSchema = z.object({ id: agenceIdSchema, nom: z.string() });
export type AgenceOption = z.infer<typeof agenceOptionSchema>;

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

const agenceFacts = {
  nom: z.string().min(1),
  adresse: z.string().min(1),
  cp_postal: z.string().min(1),
  ville: z.string().min(1),
  telephone: z.string().min(1),
  /** The body's id_template: the document template its reports use, or none. */
  templateId: z.guid().nullable(),
};

export const agenceCreatedEventSchema = defineEvent('AgenceCreated', { agenceId: agenceIdSchema, ...agenceFacts, createdAt: isoDateTime });
/** The whole agency after the change, template included. */
export const agenceUpdatedEventSchema = defineEvent('AgenceUpdated', { agenceId: agenceIdSchema, ...agenceFacts, updatedAt: isoDateTime });
export const agenceDeletedEventSchema = defineEvent('AgenceDeleted', { agenceId: agenceIdSchema, deletedAt: isoDateTime });
/**
 * The whole week, five days in order, in the wire shape (the SLA calendar reads
 * it as is); also appended at creation with the defaults.
 */
export const agenceHorairesSetEventSchema = defineEvent('AgenceHorairesSet', {
  agenceId: agenceIdSchema,
  horaires: z.array(agenceHoraireSchema).length(5),
  updatedAt: isoDateTime,
});

export const agenceEventSchema = z.discriminatedUnion('type', [
  agenceCreatedEventSchema,
  agenceUpdatedEventSchema,
  agenceDeletedEventSchema,
  agenceHorairesSetEventSchema,
]);
export type AgenceEvent = z.infer<typeof agenceEventSchema>;
export type AgenceCreatedEvent = z.infer<typeof agenceCreatedEventSchema>;
export type AgenceUpdatedEvent = z.infer<typeof agenceUpdatedEventSchema>;
export type AgenceDeletedEvent = z.infer<typeof agenceDeletedEventSchema>;
export type AgenceHorairesSetEvent = z.infer<typeof agenceHorairesSetEventSchema>;
