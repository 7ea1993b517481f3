import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DomainError,
  METIERS_STREAM_ID,
  PERMISSION_SLUGS,
  STAFF_ROLES,
  TICKET_ARRIVAL_STATES,
  TICKET_CLOCK_TOLERANCE_MS,
  TICKET_DEPARTURE_STATES,
  agenceBodySchema,
  agenceStreamId,
  clientBodySchema,
  clientStreamId,
  installationBodySchema,
  installationStreamId,
  interlocuteurBodySchema,
  interlocuteurStreamId,
  metierBodySchema,
  qrCodeStreamId,
  siteBodySchema,
  siteStreamId,
  telesurvAccountFieldsSchema,
  telesurvAccountUpdateFieldsSchema,
  templateBodySchema,
  templateStreamId,
  ticketStreamId,
  userFieldsSchema,
  userStreamId,
  type TicketPerson,
} from '@fsm/contracts';
import { createPostgresEventStore, type PostgresEventStore, type RecordedEvent } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { readModelProjectors } from '@fsm/projections';
import { fold, type Decider, type DomainEvent } from '../../src/domain/decider.js';
import { agenceDecider, type AgenceCommand } from '../../src/domain/agence/index.js';
import { clientDecider, type ClientCommand } from '../../src/domain/client/index.js';
import { installationDecider, type InstallationCommand } from '../../src/domain/installation/index.js';
import { interlocuteurDecider, type InterlocuteurCommand } from '../../src/domain/interlocuteur/index.js';
import { metiersDecider, type MetierCommand } from '../../src/domain/metier/index.js';
import { qrCodeDecider, type QrCodeCommand } from '../../src/domain/qrcode/index.js';
import { siteDecider, type SiteCommand } from '../../src/domain/site/index.js';
import { templateDecider, type TemplateCommand } from '../../src/domain/template/index.js';
import { ticketDecider, type TicketCommand, type TicketVisitInput } from '../../src/domain/ticket/index.js';
import { userDecider, type UserCommand } from '../../src/domain/user/index.js';
import { arbitraryOf, hostileScalar, inputJsonSchema } from './zod-arbitraries.js';

/*
 * Issue 17, CRITICAL finding: "one accepted request stops every agency's read
 * side for good". The API accepted values a projector then could not write (a
 * ticket registered in 1500, a close dated 1500 or before the opening, an
 * installation delai or a métier ordre of 3,000,000,000), and the runner
 * retried that event forever.
 *
 * The proof that no such event can be written any more: for EVERY command of
 * EVERY aggregate, fast-check generates commands across and just outside the
 * API schemas (boundary dates, huge and negative integers, extreme strings),
 * decides each with the REAL decider on a plausible prior history, appends the
 * accepted events to a real Postgres event store, and projects the whole log
 * with the REAL projectors (their setupSql, `apply` on the whole log as the
 * runner does and on one event at a time) into a real read-model database, in a
 * transaction rolled back after each case. It asserts:
 *   - the decider either decides or refuses with a DomainError (a French 4xx),
 *     never anything else (a 500);
 *   - every projector writes every accepted event without throwing.
 *
 * What a handler supplies and no client types (ids it generates or resolved
 * through the routes' GUID schemas, its clock, the facts it read from the read
 * models) is generated valid; what a client types is generated across and
 * outside the schemas. Strings carry no U+0000 or lone surrogate: the API's
 * text guard refuses those for every field before any schema runs.
 *
 * POISON_RUNS (default 40) sets the number of cases per command.
 */

const RUNS = Number(process.env.POISON_RUNS ?? 40);

/** The handlers' clock in every generated command. */
const NOW = '2026-03-10T12:00:00.000Z';
/** The ticket of the ticket scenarios, opened (registered) at a time with seconds, as the public form does. */
const OPENED_AT = '2026-03-02T08:00:45.000Z';

let db: TestDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
const figures = new Map<string, { accepted: number; refused: number }>();

beforeAll(async () => {
  db = await createTestDatabase('api_poison_events');
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  store = createPostgresEventStore({ pool });
  await store.migrate();
  // The read models' own DDL, as the runner creates them.
  await pool.query('CREATE SCHEMA IF NOT EXISTS rm');
  for (const projector of readModelProjectors) await pool.query(projector.setupSql);
}, 120_000);

afterAll(async () => {
  console.info(`poison events: ${JSON.stringify(Object.fromEntries(figures))}`);
  await store?.close();
  await pool?.end();
  await db?.drop();
});

// ---------------------------------------------------------------------------
// Deciding, appending and projecting one case
// ---------------------------------------------------------------------------

interface StreamEvents {
  stream: string;
  events: readonly DomainEvent[];
}

/** One generated case: the log before it (other streams and the command's own), and the command. */
interface Case<Command> {
  context: readonly StreamEvents[];
  stream: string;
  history: readonly DomainEvent[];
  command: Command;
}

async function append(stream: string, events: readonly DomainEvent[], expectedRevision: number | 'no_stream'): Promise<void> {
  if (events.length === 0) return;
  await store.appendToStream(
    stream,
    events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: { userId: null, correlationId: randomUUID(), causationId: null } })),
    { expectedRevision },
  );
}

/** Every event of these streams as the store recorded them, in log order. */
async function recordedLog(streams: readonly string[]): Promise<RecordedEvent[]> {
  const events = (await Promise.all(streams.map((stream) => store.readStream(stream).catch(() => [] as RecordedEvent[])))).flat();
  return events.sort((a, b) => store.comparePositions(a.position, b.position));
}

/** A projector that threw: which one, on what. */
function projectorFailure(name: string, event: RecordedEvent, error: unknown): Error {
  const data = JSON.stringify(event.data);
  return new Error(`projector ${name} threw on ${event.type} ${data.length > 600 ? `${data.slice(0, 600)}…` : data}: ${(error as Error).message}`);
}

/**
 * Projects the log twice, each time in a transaction rolled back: as the
 * runner does (each projector once on its share of the log, in registration
 * order), then every projector one event at a time (the runner's path after a
 * failed batch, which finds the event a projector cannot apply).
 */
async function project(log: readonly RecordedEvent[]): Promise<void> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    for (const projector of readModelProjectors) {
      const mine = log.filter((event) => projector.handles.includes(event.type));
      if (mine.length === 0) continue;
      await projector.apply(tx, mine).catch((error: unknown) => Promise.reject(projectorFailure(`${projector.name} (batch)`, mine[mine.length - 1]!, error)));
    }
    await tx.query('ROLLBACK');
    await tx.query('BEGIN');
    for (const event of log) {
      for (const projector of readModelProjectors) {
        if (!projector.handles.includes(event.type)) continue;
        await projector.apply(tx, [event]).catch((error: unknown) => Promise.reject(projectorFailure(projector.name, event, error)));
      }
    }
  } finally {
    await tx.query('ROLLBACK').catch(() => undefined);
    tx.release();
  }
}

function tally(label: string, accepted: boolean): void {
  const entry = figures.get(label) ?? { accepted: 0, refused: 0 };
  if (accepted) entry.accepted += 1;
  else entry.refused += 1;
  figures.set(label, entry);
}

/**
 * Runs the property for every command of one aggregate, RUNS cases each:
 * decide; a refusal must be a DomainError with a French message; an accepted
 * decision is appended and the log projected. Each command must be accepted
 * at least once, so the property is not passed by refusing everything.
 */
async function checkAggregate<Command extends { type: string }, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  casesByCommand: Record<Command['type'], fc.Arbitrary<Case<Command>>>,
): Promise<void> {
  for (const [type, cases] of Object.entries(casesByCommand) as [Command['type'], fc.Arbitrary<Case<Command>>][]) {
    await fc.assert(
      fc.asyncProperty(cases, async ({ context, stream, history, command }) => {
        const state = fold(decider.evolve, decider.initialState, history as Event[]);
        let decided: Event[];
        try {
          decided = decider.decide(command, state);
        } catch (error) {
          if (!(error instanceof DomainError)) throw new Error(`${command.type} threw ${String(error)} instead of a French refusal`);
          expect(error.message, `${command.type}: ${error.message}`).not.toMatch(ENGLISH);
          tally(command.type, false);
          return;
        }
        tally(command.type, true);
        for (const other of context) await append(other.stream, other.events, 'no_stream');
        await append(stream, history, 'no_stream');
        await append(stream, decided, history.length === 0 ? 'no_stream' : history.length - 1);
        await project(await recordedLog([...context.map((other) => other.stream), stream]));
      }),
      // No shrinking: a replay would append the same streams again; the first counterexample is readable as it is.
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(figures.get(type)?.accepted ?? 0, `${type} was never accepted: the property proves nothing for it`).toBeGreaterThan(0);
  }
}

// ---------------------------------------------------------------------------
// Values across and just outside the schemas
// ---------------------------------------------------------------------------

/** What a client can type that is hostile but passes the API's text guard. */
const extremeText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'x'.repeat(11),
    'x'.repeat(31),
    'x'.repeat(201),
    'x'.repeat(255),
    'x'.repeat(256),
    'é'.repeat(300),
    'x'.repeat(5001),
    'x'.repeat(10_001),
    // Random text defeats compression: a long one would not fit a b-tree index row.
    Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join(''),
    'Dupont\u202Efdp.exe',
    'Du\u200Bpont',
    '\u2066Dupont\u2069',
    'Dupont\u200F',
    'a\u0007b',
    'a\u0085b',
    'x\uFEFFy',
    'Dupont\u{E0041}\u{E0042}',
    '𝕏😀👩‍🚒',
    "'; DROP TABLE rm.tickets; --",
    '<script>alert(1)</script>',
    '{{constructor.constructor("return process")()}}',
    '../../etc/passwd',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }).filter((text) => !text.includes('\u0000')),
);

/** Integers and numbers at the bounds of the business and of int2/int4/float8, and just outside them. */
const extremeNumber: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(
    -1,
    0,
    1,
    8759,
    8760,
    8761,
    99_999,
    100_000,
    -99_999,
    -100_000,
    32_767,
    32_768,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    3_000_000_000,
    -3_000_000_000,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    1e300,
    -1e300,
    0.5,
    8760.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ) },
  { weight: 1, arbitrary: fc.constantFrom('3000000000', '8761', '-1', '1e9', '0x10', ' 12 ', '4,5') },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
  { weight: 1, arbitrary: fc.double() },
);

/** What the API's text guard refuses for every field before any schema runs (U+0000, lone surrogates). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const passesTextGuard = (value: unknown) => typeof value !== 'string' || (!value.includes('\u0000') && !LONE_SURROGATE.test(value));
const guardedHostileScalar = hostileScalar.filter(passesTextGuard);

const anyHostile = fc.oneof(extremeText, extremeNumber, guardedHostileScalar);

/**
 * Half the cases a plausible value as a client sends it; the other half the
 * same value with one or two fields replaced by what just fits, or does not
 * fit, the schema. A body (untyped JSON) gets any hostile value too; a ticket
 * command, typed by the route's schema before the decider sees it, only
 * hostile values of its fields' types (`typedOnly`).
 */
function withHostileFields<T extends Record<string, unknown>>(
  plausible: fc.Arbitrary<T>,
  hostile: Partial<Record<keyof T & string, fc.Arbitrary<unknown>>> = {},
  keys?: readonly (keyof T & string)[],
  typedOnly = false,
): fc.Arbitrary<T> {
  const tweaked = plausible.chain((value) => {
    const names = keys ?? (Object.keys(value) as (keyof T & string)[]);
    if (names.length === 0) return fc.constant(value);
    const hostileFor = (key: keyof T & string) => (typedOnly ? (hostile[key] ?? fc.constant(value[key])) : fc.oneof(hostile[key] ?? anyHostile, anyHostile));
    // The fields with hostile values of their own (numbers, dates) are the ones a read model can choke on: tweaked more often.
    const key = fc.oneof(...names.map((name) => ({ weight: hostile[name] ? 3 : 1, arbitrary: fc.constant(name) })));
    const tweak = key.chain((name) => hostileFor(name).map((bad) => [name, bad] as const));
    return fc.array(tweak, { minLength: 1, maxLength: 2 }).map((tweaks) => ({ ...value, ...Object.fromEntries(tweaks) }) as T);
  });
  return fc.oneof(plausible, tweaked);
}

/** A management body: plausible values (hand-written, or drawn from the zod schema itself) with hostile fields. */
function bodyOf(schema: unknown, plausible: fc.Arbitrary<Record<string, unknown>>, hostile: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Record<string, unknown>> {
  const fromSchema = arbitraryOf(inputJsonSchema(schema)).map((value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}));
  return withHostileFields(fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: fc.tuple(fromSchema, plausible).map(([drawn, chosen]) => ({ ...drawn, ...chosen })) }), hostile);
}

/** An instant someone typed: the range edges (Paris days), the opening and the clock ± a millisecond, and any year. */
const MINUTE_OF_OPENING = Math.floor(Date.parse(OPENED_AT) / 60_000) * 60_000;
const typedInstant: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0100-01-01T00:00:00.000Z',
    '1500-06-15T10:00:00.000Z',
    '1582-12-31T12:00:00.000Z',
    '1999-12-31T22:59:59.999Z',
    '1999-12-31T23:00:00.000Z',
    '2099-12-31T22:59:59.999Z',
    '2099-12-31T23:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00.000Z',
    new Date(MINUTE_OF_OPENING - 1).toISOString(),
    new Date(MINUTE_OF_OPENING).toISOString(),
    OPENED_AT,
    new Date(Date.parse(NOW) + TICKET_CLOCK_TOLERANCE_MS).toISOString(),
    new Date(Date.parse(NOW) + TICKET_CLOCK_TOLERANCE_MS + 1).toISOString(),
    '2026-02-30T10:00:00.000Z',
    '2026-03-05T10:00',
    '2026-03-05T10:00:00+02:00',
    'hier',
    '',
  ),
  fc.date({ min: new Date(Date.parse(OPENED_AT) - 3 * 86_400_000), max: new Date(Date.parse(NOW) + 86_400_000), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString()),
);

/** A `YYYY-MM-DD` day someone typed. */
const typedDay: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0100-01-01', '1500-06-15', '1999-12-31', '2000-01-01', '2026-03-01', '2026-03-02', '2026-03-10', '2026-03-11', '2099-12-31', '2100-01-01', '9999-12-31', '2026-02-30'),
  typedInstant.map((instant) => instant.slice(0, 10)),
);

/** Plausible values of a form. */
const words = fc.constantFrom('Lyon', 'Hôpital Nord', 'Bâtiment A', 'Müller-Øster', 'L’Éole 🚒', '1 rue des Lilas', 'Clinique « du Parc »');
const postalCode = fc.constantFrom('69001', '75011', '2A004');
const phone = fc.constantFrom('04 72 00 00 00', '+33 6 12 34 56 78');
/** An address as people have them (fc.emailAddress draws RFC oddities the schemas rightly refuse). */
const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,15}[a-z0-9]$/), fc.constantFrom('example.fr', 'exemple.com', 'mairie-lyon.fr'))
  .filter(([local]) => !local.includes('..'))
  .map(([local, domain]) => `${local}@${domain}`);

const person = (id: string, prenom = 'Léa', nom = 'Roux'): TicketPerson => ({ id, prenom, nom });

/**
 * The id of an entity that names a stream. The log is kept between cases
 * (only the read models are rolled back), so every case, and every replay
 * of a case while fast-check shrinks it, gets streams of its own.
 */
const freshId = fc.nat().map(() => randomUUID());

/** English words a French refusal must not be made of (zod defaults leaking through). */
const ENGLISH = /\b(invalid|expected|required|must|should|unexpected|received|too (big|small|large))\b/i;

/** Mostly the histories a command fits, sometimes any: the refusals of the state are cases too. */
function historyFor<T>(fitting: readonly T[], all: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...fitting) }, { weight: 1, arbitrary: fc.constantFrom(...all) });
}

/**
 * Cases on one entity's own stream: before the command it does not exist, or
 * it was created (by the real decider from a valid command); mostly the
 * history the command fits. `context` adds other streams the read models join.
 */
function entityCases<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  streamOf: (id: string) => string,
  creation: (id: string) => Command,
  context: (id: string) => StreamEvents[] = () => [],
) {
  return (fitting: 'none' | 'created', command: (id: string) => fc.Arbitrary<Command>): fc.Arbitrary<Case<Command>> =>
    freshId.chain((id) => {
      const histories = { none: [] as DomainEvent[], created: decider.decide(creation(id), decider.initialState) as DomainEvent[] };
      return fc
        .tuple(historyFor([histories[fitting]], Object.values(histories)), command(id))
        .map(([history, generated]) => ({ context: context(id), stream: streamOf(id), history, command: generated }));
    });
}

// ---------------------------------------------------------------------------
// Tickets
// ---------------------------------------------------------------------------

interface TicketWorld {
  ticketId: string;
  agenceId: string;
  metierId: string;
  technicien: TicketPerson;
  interventionId: string;
}

const ticketWorld: fc.Arbitrary<TicketWorld> = fc.record({
  ticketId: freshId,
  agenceId: freshId,
  metierId: freshId,
  technicien: fc.uuid().map((id) => person(id)),
  interventionId: fc.uuid(),
});

/** The métier and agency a ticket's SLA row refers to: their events re-evaluate it. */
function ticketContext(world: TicketWorld): StreamEvents[] {
  return [
    {
      stream: `${METIERS_STREAM_ID}-${world.metierId}`,
      events: [{ type: 'MetierCreated', data: { metierId: world.metierId, nom: 'Sécurité incendie', ordre: 1, delai_inter: 24, HO_stats: 0, createdAt: NOW } }],
    },
    {
      stream: agenceStreamId(world.agenceId),
      events: [{ type: 'AgenceCreated', data: { agenceId: world.agenceId, nom: 'Lyon', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '04', templateId: null, createdAt: NOW } }],
    },
  ];
}

/** The OpenTicket a handler builds: read-model facts valid, what the requester and the form typed generated. */
function openTicketCommand(world: TicketWorld, typed: Record<string, unknown>): TicketCommand {
  return {
    type: 'OpenTicket',
    data: {
      ticketId: world.ticketId,
      numChrono: 'LYO-2026-00042',
      source: 'manual',
      agenceId: world.agenceId,
      client: { id: randomUUID(), nom: 'Clinique du Parc' },
      site: { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
      installation: { id: randomUUID(), nom: 'SSI catégorie A', astreinte: 1 },
      metier: { id: world.metierId, nom: 'Sécurité incendie' },
      delai: typed.delai as number | null,
      urgent: false,
      probleme: typed.probleme as string,
      photo: null,
      requester: { nom: typed.nom as string, prenom: typed.prenom as string, email: typed.email as string, telephone: typed.telephone as string },
      operateur: null,
      openedAt: typed.openedAt as string,
      ...(typed.remarqueTech === undefined ? {} : { remarqueTech: typed.remarqueTech as string }),
      inCharge: typed.takenAt === undefined ? null : { technicien: world.technicien, takenAt: typed.takenAt as string },
      now: NOW,
    },
  };
}

const openTicketTyped = withHostileFields(
  fc.record(
    {
      nom: fc.constantFrom('Martin', 'Müller-Øster'),
      prenom: fc.constantFrom('Claire', 'Zoé'),
      email,
      telephone: phone,
      probleme: fc.constantFrom('Alarme feu sans cause', 'Centrale en dérangement 🚨'),
      remarqueTech: fc.constantFrom('Code porte 1234'),
      delai: fc.oneof(fc.integer({ min: 1, max: 8760 }), fc.constant(null)),
      openedAt: fc.oneof(fc.constant(NOW), fc.date({ min: new Date('2000-01-01T00:00:00+01:00'), max: new Date(NOW), noInvalidDate: true }).map((d) => d.toISOString())),
      takenAt: fc.constant(NOW),
    },
    { requiredKeys: ['nom', 'prenom', 'email', 'telephone', 'probleme', 'delai', 'openedAt'] },
  ),
  { delai: extremeNumber, openedAt: typedInstant, takenAt: typedInstant, nom: extremeText, prenom: extremeText, email: extremeText, telephone: extremeText, probleme: extremeText, remarqueTech: extremeText },
  ['nom', 'prenom', 'email', 'telephone', 'probleme', 'remarqueTech', 'delai', 'openedAt', 'takenAt'],
  true,
);

/** A visit as the wizard sends it (the handler stored the signatures): mostly between the opening and the clock. */
const plausibleVisitInstant = fc.integer({ min: MINUTE_OF_OPENING, max: Date.parse(NOW) }).map((ms) => new Date(ms).toISOString());
const visitTyped = withHostileFields(
  fc.record({
    constatTech: fc.constantFrom('Détecteur encrassé remplacé', 'RAS'),
    remarqueTech: fc.constantFrom('Prévoir contrôle annuel', '', null),
    devis: fc.constantFrom(0, 1),
    times: fc.tuple(plausibleVisitInstant, plausibleVisitInstant).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
    etatArrivee: fc.constantFrom(...TICKET_ARRIVAL_STATES),
    etatDepart: fc.constantFrom(...TICKET_DEPARTURE_STATES),
    tempsTrajet: fc.constantFrom('00:00', '00:35', '23:59', null),
    technicien: fc.option(fc.uuid().map((id) => person(id, 'Paul', 'Durand')), { nil: null }),
  }),
  {
    devis: extremeNumber,
    times: fc.oneof(fc.tuple(typedInstant, typedInstant), fc.tuple(plausibleVisitInstant, typedInstant), fc.tuple(typedInstant, plausibleVisitInstant)),
    etatArrivee: extremeText,
    etatDepart: extremeText,
    tempsTrajet: fc.constantFrom('24:00', '7:5', '99:99', '-1:00'),
    constatTech: extremeText,
    remarqueTech: extremeText,
  },
  ['constatTech', 'remarqueTech', 'devis', 'times', 'etatArrivee', 'etatDepart', 'tempsTrajet'],
  true,
);

function visitInput(world: TicketWorld, v: Record<string, unknown>): TicketVisitInput {
  const [arriveAt, closedAt] = Array.isArray(v.times) ? (v.times as unknown[]) : [v.times, v.times];
  return {
    constatTech: v.constatTech as string,
    remarqueTech: v.remarqueTech as string | null,
    devis: v.devis as number,
    arriveAt: arriveAt as string,
    closedAt: closedAt as string,
    etatArrivee: v.etatArrivee as string,
    etatDepart: v.etatDepart as string,
    tempsTrajet: v.tempsTrajet as string | null,
    signatureClient: `${'a'.repeat(64)}.png`,
    signatureTechnicien: `${'b'.repeat(64)}.png`,
    technicien: (v.technicien as TicketPerson | null) ?? world.technicien,
    now: NOW,
  };
}

/**
 * Plausible ticket histories, decided by the real decider from valid
 * commands: none, open, in progress, in intervention with a quote asked for,
 * closed with that quote pending.
 */
function ticketHistories(world: TicketWorld): Record<'none' | 'open' | 'inProgress' | 'intervention' | 'closed', DomainEvent[]> {
  const visit: TicketVisitInput = {
    constatTech: 'Carte de zone défectueuse',
    remarqueTech: '',
    devis: 1,
    arriveAt: '2026-03-03T09:00:00.000Z',
    closedAt: '2026-03-03T10:00:00.000Z',
    etatArrivee: 'Hors service',
    etatDepart: 'Partiellement fonctionnel',
    tempsTrajet: '00:20',
    signatureClient: `${'c'.repeat(64)}.png`,
    signatureTechnicien: `${'d'.repeat(64)}.png`,
    now: NOW,
  };
  const opening = openTicketCommand(world, {
    nom: 'Petit',
    prenom: 'Thomas',
    email: 'thomas@example.fr',
    telephone: '07 88 12 45 90',
    probleme: 'Alarme',
    delai: 4,
    openedAt: OPENED_AT,
  });
  const take: TicketCommand = { type: 'TakeTicketInCharge', data: { technicien: world.technicien, takenAt: '2026-03-02T08:10:00.000Z' } };
  const reintervene: TicketCommand = { type: 'RecordReintervention', data: { ...visit, interventionId: world.interventionId } };
  const close: TicketCommand = { type: 'CloseTicket', data: { ...visit, arriveAt: '2026-03-04T09:00:00.000Z', closedAt: '2026-03-04T10:00:00.000Z' } };
  const decideAll = (commands: TicketCommand[]) =>
    commands.reduce<DomainEvent[]>((events, command) => [...events, ...ticketDecider.decide(command, fold(ticketDecider.evolve, ticketDecider.initialState, events as never))], []);
  return {
    none: [],
    open: decideAll([opening]),
    inProgress: decideAll([opening, take]),
    intervention: decideAll([opening, take, reintervene]),
    closed: decideAll([opening, take, reintervene, close]),
  };
}

function ticketCases(fitting: readonly ('none' | 'open' | 'inProgress' | 'intervention' | 'closed')[], command: (world: TicketWorld) => fc.Arbitrary<TicketCommand>): fc.Arbitrary<Case<TicketCommand>> {
  return ticketWorld.chain((world) => {
    const histories = ticketHistories(world);
    return fc.tuple(historyFor(fitting.map((name) => histories[name]), Object.values(histories)), command(world)).map(([history, generated]) => ({
      context: ticketContext(world),
      stream: ticketStreamId(world.ticketId),
      history,
      command: generated,
    }));
  });
}

// ---------------------------------------------------------------------------
// Management: a plausible body of each form
// ---------------------------------------------------------------------------

const delaiInput = fc.oneof(fc.integer({ min: 1, max: 8760 }), fc.integer({ min: 1, max: 72 }).map(String));
const ordreInput = fc.oneof(fc.integer({ min: -99_999, max: 99_999 }), fc.constantFrom(null, '', '3'));
const hhmm = fc.constantFrom('08:00', '12:00', '13:30', '17:30', null, '');

const agenceBody = () =>
  bodyOf(agenceBodySchema, fc.record({ nom: words, adresse: words, cp_postal: postalCode, ville: words, telephone: phone, id_template: fc.option(fc.uuid(), { nil: undefined }) }));
const clientBody = () => bodyOf(clientBodySchema, fc.record({ nom: words, adresse: words, ville: words, code_postal: postalCode, agence_id: fc.uuid() }));
const siteBody = () => bodyOf(siteBodySchema, fc.record({ nom: words, adresse: words, ville: words, code_postal: postalCode, client_id: fc.uuid() }));

/** A ticket opened on a trade and an agency, so their changes re-evaluate its SLA row. */
function ticketOn(ticketId: string, agenceId: string, metier: { id: string; nom: string } | null): DomainEvent[] {
  return ticketDecider.decide(
    {
      type: 'OpenTicket',
      data: {
        ticketId,
        numChrono: 'LYO-2026-00002',
        source: 'manual',
        agenceId,
        client: { id: randomUUID(), nom: 'C' },
        site: { id: randomUUID(), nom: 'S', adresse: 'A', code_postal: '69001', ville: 'Lyon' },
        installation: { id: randomUUID(), nom: 'I', astreinte: 0 },
        metier,
        // The longest delay and the earliest registration: the SLA clock walks the most days.
        delai: 8760,
        urgent: false,
        probleme: 'P',
        photo: null,
        requester: { nom: 'N', prenom: 'P', email: 'e@example.fr', telephone: '06' },
        operateur: null,
        openedAt: '1999-12-31T23:00:00.000Z',
        now: NOW,
      },
    },
    ticketDecider.initialState,
  );
}

describe('no accepted command writes an event a projector cannot write (issue 17, CRITICAL)', () => {
  it('tickets: open, take in charge, close, re-intervention, report, quote', async () => {
    await checkAggregate(ticketDecider, {
      OpenTicket: ticketCases(['none'], (world) => openTicketTyped.map((typed) => openTicketCommand(world, typed))),
      TakeTicketInCharge: ticketCases(['open'], (world) =>
        fc.oneof(fc.constant(NOW), typedInstant).map((takenAt): TicketCommand => ({ type: 'TakeTicketInCharge', data: { technicien: world.technicien, takenAt } })),
      ),
      CloseTicket: ticketCases(['inProgress', 'intervention'], (world) => visitTyped.map((v): TicketCommand => ({ type: 'CloseTicket', data: visitInput(world, v) }))),
      // Issue 32: « Je suis sur site », by the handler's clock or any instant typed.
      RecordArrivalOnSite: ticketCases(['inProgress', 'intervention'], (world) =>
        fc.oneof(fc.constant(NOW), typedInstant).map((arrivedAt): TicketCommand => ({ type: 'RecordArrivalOnSite', data: { technicien: world.technicien, arrivedAt } })),
      ),
      RecordReintervention: ticketCases(['inProgress', 'intervention'], (world) =>
        fc.tuple(visitTyped, fc.uuid()).map(([v, interventionId]): TicketCommand => ({ type: 'RecordReintervention', data: { ...visitInput(world, v), interventionId } })),
      ),
      AttachReport: ticketCases(['intervention', 'closed'], (world) =>
        fc
          .record({ nomRapport: fc.oneof(fc.constantFrom('rapport-LYO-2026-00001.pdf', 'rapport.pdf'), extremeText), onIntervention: fc.boolean() })
          .map(({ nomRapport, onIntervention }): TicketCommand => ({ type: 'AttachReport', data: { nomRapport, interventionId: onIntervention ? world.interventionId : null } })),
      ),
      ValidateQuote: ticketCases(['intervention', 'closed'], () =>
        withHostileFields(
          fc.record({
            numeroDevis: fc.constantFrom('DEV-2026-0142', 'D-17'),
            date: fc.constantFrom(null, '2026-03-02', '2026-03-05', '2026-03-10', '2026-03-04T10:00:00.000Z'),
            validatedAt: fc.constant(NOW),
          }),
          { numeroDevis: extremeText, date: fc.oneof(typedDay, typedInstant), validatedAt: typedInstant },
          undefined,
          true,
        ).map(({ numeroDevis, date, validatedAt }): TicketCommand => ({
          type: 'ValidateQuote',
          data: { numeroDevis: numeroDevis as string, dateEnregistrementDevis: date as string | null, validatedAt: validatedAt as string },
        })),
      ),
    });
  }, 600_000);

  it('agencies: create, update, delete, opening hours', async () => {
    // A week the schema accepts (any times, not only the defaults: 07:30–19:00, a day without a
    // break, a closed day), so every run also proves the projection of accepted hours; beside it
    // the hostile weeks, which must be refused.
    const day = (day_of_week: number) =>
      fc.constantFrom(
        { day_of_week, morning_open: '07:30', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '19:00' },
        { day_of_week, morning_open: '08:00', morning_close: '19:00', afternoon_open: null, afternoon_close: null },
        { day_of_week, morning_open: null, morning_close: null, afternoon_open: null, afternoon_close: null },
      );
    const acceptedWeek = fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { maxLength: 5 }).chain((days) => fc.tuple(...days.map(day)));
    const horaires = fc.oneof(
      acceptedWeek,
      fc.array(
        withHostileFields(fc.record({ day_of_week: fc.integer({ min: 1, max: 5 }), morning_open: hhmm, morning_close: hhmm, afternoon_open: hhmm, afternoon_close: hhmm }), {
          day_of_week: extremeNumber,
          morning_open: fc.constantFrom('24:00', '7:5', '08:00:00', '99:99', 'midi'),
        }),
        { maxLength: 6 },
      ),
      guardedHostileScalar,
    );
    const cases = entityCases(
      agenceDecider,
      agenceStreamId,
      (agenceId): AgenceCommand => ({
        type: 'CreateAgence',
        data: { agenceId, fields: { nom: 'Lyon', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '04 72 00 00 00' }, createdAt: NOW },
      }),
      // A ticket of the agency: new opening hours re-evaluate its SLA row.
      (agenceId) => {
        const ticketId = randomUUID();
        return [{ stream: ticketStreamId(ticketId), events: ticketOn(ticketId, agenceId, null) }];
      },
    );
    await checkAggregate(agenceDecider, {
      CreateAgence: cases('none', (agenceId) => agenceBody().map((fields): AgenceCommand => ({ type: 'CreateAgence', data: { agenceId, fields: fields as never, createdAt: NOW } }))),
      UpdateAgence: cases('created', (agenceId) => agenceBody().map((fields): AgenceCommand => ({ type: 'UpdateAgence', data: { agenceId, fields: fields as never, updatedAt: NOW } }))),
      DeleteAgence: cases('created', (agenceId) =>
        fc.record({ hasClients: fc.boolean(), hasUsers: fc.boolean() }).map((flags): AgenceCommand => ({ type: 'DeleteAgence', data: { agenceId, ...flags, deletedAt: NOW } })),
      ),
      SetAgenceHoraires: cases('created', (agenceId) =>
        fc.oneof(horaires, horaires.map((days) => ({ horaires: days }))).map((value): AgenceCommand => ({ type: 'SetAgenceHoraires', data: { agenceId, horaires: value, updatedAt: NOW } })),
      ),
    });
  }, 600_000);

  it('clients: create, update, delete', async () => {
    const cases = entityCases(clientDecider, clientStreamId, (clientId): ClientCommand => ({
      type: 'CreateClient',
      data: { clientId, fields: { nom: 'ACME', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: randomUUID() }, createdAt: NOW },
    }));
    await checkAggregate(clientDecider, {
      CreateClient: cases('none', (clientId) => clientBody().map((fields): ClientCommand => ({ type: 'CreateClient', data: { clientId, fields: fields as never, createdAt: NOW } }))),
      UpdateClient: cases('created', (clientId) => clientBody().map((fields): ClientCommand => ({ type: 'UpdateClient', data: { clientId, fields: fields as never, updatedAt: NOW } }))),
      DeleteClient: cases('created', (clientId) => fc.boolean().map((hasOpenTickets): ClientCommand => ({ type: 'DeleteClient', data: { clientId, hasOpenTickets, deletedAt: NOW } }))),
    });
  }, 600_000);

  it('sites: create, update, delete', async () => {
    const cases = entityCases(siteDecider, siteStreamId, (siteId): SiteCommand => ({
      type: 'CreateSite',
      data: { siteId, fields: { nom: 'Usine', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', client_id: randomUUID() }, createdAt: NOW },
    }));
    await checkAggregate(siteDecider, {
      CreateSite: cases('none', (siteId) => siteBody().map((fields): SiteCommand => ({ type: 'CreateSite', data: { siteId, fields: fields as never, createdAt: NOW } }))),
      UpdateSite: cases('created', (siteId) => siteBody().map((fields): SiteCommand => ({ type: 'UpdateSite', data: { siteId, fields: fields as never, updatedAt: NOW } }))),
      DeleteSite: cases('created', (siteId) => fc.boolean().map((hasOpenTickets): SiteCommand => ({ type: 'DeleteSite', data: { siteId, hasOpenTickets, deletedAt: NOW } }))),
    });
  }, 600_000);

  it('installations: create, update, delete (delai bounded)', async () => {
    const cases = (fitting: 'none' | 'created', command: (ids: { installationId: string; siteId: string; metierId: string }) => fc.Arbitrary<InstallationCommand>) =>
      fc.record({ installationId: freshId, siteId: freshId, metierId: freshId }).chain((ids) => {
        const { installationId, siteId, metierId } = ids;
        const created = installationDecider.decide(
          { type: 'CreateInstallation', data: { installationId, fields: { nom: 'SSI', id_metier: metierId, description: 'Centrale', delai: 4, astreinte: 1, site_id: siteId }, createdAt: NOW } },
          installationDecider.initialState,
        );
        const histories = { none: [] as DomainEvent[], created };
        // The site and the métier its row joins on when projected.
        const context: StreamEvents[] = [
          {
            stream: siteStreamId(siteId),
            events: siteDecider.decide({ type: 'CreateSite', data: { siteId, fields: { nom: 'Usine', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', client_id: randomUUID() }, createdAt: NOW } }, siteDecider.initialState),
          },
          { stream: `${METIERS_STREAM_ID}-${metierId}`, events: [{ type: 'MetierCreated', data: { metierId, nom: 'SSI', ordre: 1, delai_inter: 4, HO_stats: 1, createdAt: NOW } }] },
        ];
        return fc.tuple(historyFor([histories[fitting]], Object.values(histories)), command(ids)).map(([history, generated]) => ({ context, stream: installationStreamId(installationId), history, command: generated }));
      });
    const body = (siteId: string, metierId: string) =>
      bodyOf(
        installationBodySchema,
        fc.record({ nom: words, id_metier: fc.constant(metierId), description: words, delai: delaiInput, astreinte: fc.constantFrom(0, 1, true, false, '1'), site_id: fc.constant(siteId) }),
        { delai: extremeNumber, astreinte: extremeNumber },
      );
    await checkAggregate(installationDecider, {
      CreateInstallation: cases('none', ({ installationId, siteId, metierId }) =>
        body(siteId, metierId).map((f): InstallationCommand => ({ type: 'CreateInstallation', data: { installationId, fields: f as never, createdAt: NOW } })),
      ),
      UpdateInstallation: cases('created', ({ installationId, siteId, metierId }) =>
        body(siteId, metierId).map((f): InstallationCommand => ({ type: 'UpdateInstallation', data: { installationId, fields: f as never, updatedAt: NOW } })),
      ),
      DeleteInstallation: cases('created', ({ installationId }) =>
        fc.boolean().map((hasOpenTickets): InstallationCommand => ({ type: 'DeleteInstallation', data: { installationId, hasOpenTickets, deletedAt: NOW } })),
      ),
    });
  }, 600_000);

  it('contacts: create, update, delete', async () => {
    const cases = entityCases(interlocuteurDecider, interlocuteurStreamId, (interlocuteurId): InterlocuteurCommand => ({
      type: 'CreateInterlocuteur',
      data: { interlocuteurId, fields: { nom: 'Martin', prenom: 'Léa', client_id: randomUUID(), affect_sites: [randomUUID()], affect_installations: [] }, createdAt: NOW },
    }));
    const body = () =>
      bodyOf(
        interlocuteurBodySchema,
        fc.record({
          nom: words,
          prenom: words,
          fonction: fc.option(words, { nil: null }),
          telephone: fc.option(phone, { nil: null }),
          email: fc.option(email, { nil: '' }),
          client_id: fc.uuid(),
          affect_sites: fc.array(fc.uuid(), { maxLength: 4 }),
          affect_installations: fc.array(fc.uuid(), { maxLength: 4 }),
        }),
      );
    await checkAggregate(interlocuteurDecider, {
      CreateInterlocuteur: cases('none', (interlocuteurId) => body().map((f): InterlocuteurCommand => ({ type: 'CreateInterlocuteur', data: { interlocuteurId, fields: f as never, createdAt: NOW } }))),
      UpdateInterlocuteur: cases('created', (interlocuteurId) => body().map((f): InterlocuteurCommand => ({ type: 'UpdateInterlocuteur', data: { interlocuteurId, fields: f as never, updatedAt: NOW } }))),
      DeleteInterlocuteur: cases('created', (interlocuteurId) => fc.constant<InterlocuteurCommand>({ type: 'DeleteInterlocuteur', data: { interlocuteurId, deletedAt: NOW } })),
    });
  }, 600_000);

  it('trades: create, update, delete, reorder (ordre and delai_inter bounded)', async () => {
    const cases = (command: (ids: { metierId: string; otherId: string; newId: string }) => fc.Arbitrary<MetierCommand>) =>
      fc.record({ metierId: freshId, otherId: freshId, newId: freshId, ticketId: freshId }).chain(({ metierId, otherId, newId, ticketId }) => {
        const one = metiersDecider.decide(
          { type: 'CreateMetier', data: { metierId, fields: { nom: 'Sécurité incendie', ordre: 1, delai_inter: 4, HO_stats: 0 }, createdAt: NOW } },
          metiersDecider.initialState,
        );
        const two = [
          ...one,
          ...metiersDecider.decide(
            { type: 'CreateMetier', data: { metierId: otherId, fields: { nom: 'Désenfumage', ordre: 2, delai_inter: null, HO_stats: 1 }, createdAt: NOW } },
            fold(metiersDecider.evolve, metiersDecider.initialState, one),
          ),
        ];
        return fc.tuple(fc.constantFrom(one, two), command({ metierId, otherId, newId })).map(([history, generated]) => ({
          // A ticket of the trade: a new HO_stats re-evaluates its SLA row. The catalogue is one stream per case here.
          context: [{ stream: ticketStreamId(ticketId), events: ticketOn(ticketId, randomUUID(), { id: metierId, nom: 'Sécurité incendie' }) }],
          stream: `${METIERS_STREAM_ID}-${metierId}`,
          history,
          command: generated,
        }));
      });
    const body = () =>
      bodyOf(
        metierBodySchema,
        fc.record({ nom: fc.constantFrom('Extincteurs', 'RIA', 'SSI catégorie A'), ordre: ordreInput, delai_inter: fc.oneof(fc.integer({ min: 0, max: 8760 }), fc.constantFrom(null, '', '24.9')), HO_stats: fc.constantFrom(0, 1, true, false) }),
        { ordre: extremeNumber, delai_inter: extremeNumber },
      );
    await checkAggregate(metiersDecider, {
      CreateMetier: cases(({ newId }) => body().map((f): MetierCommand => ({ type: 'CreateMetier', data: { metierId: newId, fields: f as never, createdAt: NOW } }))),
      UpdateMetier: cases(({ metierId }) => body().map((f): MetierCommand => ({ type: 'UpdateMetier', data: { metierId, fields: f as never, updatedAt: NOW } }))),
      DeleteMetier: cases(({ metierId }) => fc.boolean().map((usedByInstallations): MetierCommand => ({ type: 'DeleteMetier', data: { metierId, usedByInstallations, deletedAt: NOW } }))),
      ReorderMetiers: cases(({ metierId, otherId }) =>
        fc
          .oneof(
            { weight: 4, arbitrary: fc.array(withHostileFields(fc.record({ id: fc.constantFrom(metierId, otherId), ordre: fc.integer({ min: -99_999, max: 99_999 }) }), { ordre: extremeNumber }), { minLength: 1, maxLength: 3 }) },
            { weight: 1, arbitrary: guardedHostileScalar },
          )
          .map((items): MetierCommand => ({ type: 'ReorderMetiers', data: { items: items as never, reorderedAt: NOW } })),
      ),
    });
  }, 600_000);

  it('QR codes: generate, assign, unassign', async () => {
    const cases = (fitting: 'none' | 'generated' | 'assigned', command: (ids: { qrCodeId: string; agenceId: string }) => fc.Arbitrary<QrCodeCommand>) =>
      fc.record({ qrCodeId: freshId, agenceId: fc.uuid() }).chain((ids) => {
        const { qrCodeId, agenceId } = ids;
        const key = `k${qrCodeId.replace(/-/g, '')}`.slice(0, 24);
        const generated = qrCodeDecider.decide(
          { type: 'GenerateQrCode', data: { qrCodeId, batchId: randomUUID(), agenceId, qr_key: key, url: `https://fsm.example.fr/ticket?key=${key}`, generatedAt: NOW } },
          qrCodeDecider.initialState,
        );
        const assigned = [
          ...generated,
          ...qrCodeDecider.decide({ type: 'AssignQrCode', data: { qrCodeId, installationId: randomUUID(), installationAgenceId: agenceId, assignedAt: NOW } }, fold(qrCodeDecider.evolve, qrCodeDecider.initialState, generated)),
        ];
        const histories = { none: [] as DomainEvent[], generated, assigned };
        return fc.tuple(historyFor([histories[fitting]], Object.values(histories)), command(ids)).map(([history, c]) => ({ context: [], stream: qrCodeStreamId(qrCodeId), history, command: c }));
      });
    // Keys are drawn by the handler (random, unguessable); the pattern is what the decider checks.
    const qrKey = fc.oneof({ weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/) }, { weight: 1, arbitrary: extremeText });
    await checkAggregate(qrCodeDecider, {
      GenerateQrCode: cases('none', ({ qrCodeId, agenceId }) =>
        fc.tuple(qrKey, fc.uuid()).map(([qr_key, batchId]): QrCodeCommand => ({ type: 'GenerateQrCode', data: { qrCodeId, batchId, agenceId, qr_key, url: `https://fsm.example.fr/ticket?key=${qr_key}`, generatedAt: NOW } })),
      ),
      AssignQrCode: cases('generated', ({ qrCodeId, agenceId }) =>
        fc.tuple(fc.uuid(), fc.oneof({ weight: 3, arbitrary: fc.constant(agenceId) }, { weight: 1, arbitrary: fc.uuid() })).map(
          ([installationId, installationAgenceId]): QrCodeCommand => ({ type: 'AssignQrCode', data: { qrCodeId, installationId, installationAgenceId, assignedAt: NOW } }),
        ),
      ),
      UnassignQrCode: cases('assigned', ({ qrCodeId }) => fc.constant<QrCodeCommand>({ type: 'UnassignQrCode', data: { qrCodeId, unassignedAt: NOW } })),
    });
  }, 600_000);

  it('templates: create, update, delete', async () => {
    const cases = entityCases(templateDecider, templateStreamId, (templateId): TemplateCommand => ({
      type: 'CreateTemplate',
      data: { templateId, fields: { name: 'Rapport', content_html: '<p>{{ticket.num_chrono}}</p>', css: '' }, createdAt: NOW },
    }));
    const body = () => bodyOf(templateBodySchema, fc.record({ name: fc.constantFrom('Rapport standard', 'Modèle (copie)'), content_html: fc.constantFrom('<p>Bonjour {{ticket.num_chrono}}</p>', '<h1>Rapport</h1>'), css: fc.constantFrom('', 'p { color: red; }', null) }));
    await checkAggregate(templateDecider, {
      CreateTemplate: cases('none', (templateId) => body().map((f): TemplateCommand => ({ type: 'CreateTemplate', data: { templateId, fields: f as never, createdAt: NOW } }))),
      UpdateTemplate: cases('created', (templateId) => body().map((f): TemplateCommand => ({ type: 'UpdateTemplate', data: { templateId, fields: f as never, updatedAt: NOW } }))),
      DeleteTemplate: cases('created', (templateId) => fc.boolean().map((isAssignedToAgence): TemplateCommand => ({ type: 'DeleteTemplate', data: { templateId, isAssignedToAgence, deletedAt: NOW } }))),
    });
  }, 600_000);

  it('users and télésurveillance accounts: create, update, delete, permissions, agencies', async () => {
    type UserIds = { userId: string; otherId: string; otherEmail: string; agenceId: string };
    const cases = (fitting: 'none' | 'staff' | 'telesurv', command: (ids: UserIds) => fc.Arbitrary<UserCommand>) =>
      fc.record({ userId: freshId, otherId: freshId, agenceId: fc.uuid() }).chain(({ userId, otherId, agenceId }) => {
        // Another user's address: the handler claims addresses, so it reports that one as taken.
        const otherEmail = `autre-${otherId.slice(0, 8)}@example.fr`;
        const other = userDecider.decide(
          { type: 'CreateUser', data: { userId: otherId, fields: { nom: 'Autre', prenom: 'A', email: otherEmail, telephone: '06', role: 'technicien', agence_id: agenceId }, emailTaken: false, createdAt: NOW } },
          userDecider.initialState,
        );
        const staff = userDecider.decide(
          { type: 'CreateUser', data: { userId, fields: { nom: 'Roux', prenom: 'Léa', email: `lea-${userId.slice(0, 8)}@example.fr`, telephone: '06', role: 'technicien', agence_id: agenceId }, emailTaken: false, createdAt: NOW } },
          userDecider.initialState,
        );
        const telesurv = userDecider.decide(
          { type: 'CreateTelesurvAccount', data: { userId, fields: { nom: 'Centre', email: `centre-${userId.slice(0, 8)}@example.fr`, telephone: null }, emailTaken: false, createdAt: NOW } },
          userDecider.initialState,
        );
        const histories = { none: [] as DomainEvent[], staff, telesurv };
        return fc.tuple(historyFor([histories[fitting]], Object.values(histories)), command({ userId, otherId, otherEmail, agenceId })).map(([history, c]) => ({
          context: [{ stream: userStreamId(otherId), events: other }],
          stream: userStreamId(userId),
          history,
          command: c,
        }));
      });
    const emailOf = (otherEmail: string) => fc.oneof({ weight: 4, arbitrary: email }, { weight: 1, arbitrary: fc.constantFrom(otherEmail, otherEmail.toUpperCase()) });
    const taken = (fields: Record<string, unknown>, otherEmail: string) => typeof fields.email === 'string' && fields.email.trim().toLowerCase() === otherEmail;
    const staffBody = ({ otherEmail, agenceId }: UserIds) =>
      bodyOf(userFieldsSchema, fc.record({ nom: words, prenom: words, email: emailOf(otherEmail), telephone: phone, role: fc.constantFrom(...STAFF_ROLES), agence_id: fc.constant(agenceId) }));
    const telesurvBody = (schema: unknown, { otherEmail }: UserIds) => bodyOf(schema, fc.record({ nom: words, email: emailOf(otherEmail), telephone: fc.option(phone, { nil: null }) }));
    const list = <T>(item: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.array(item, { maxLength: 6 }) }, { weight: 1, arbitrary: fc.oneof(fc.array(extremeText, { minLength: 1, maxLength: 3 }), guardedHostileScalar) });
    await checkAggregate(userDecider, {
      CreateUser: cases('none', (ids) => staffBody(ids).map((f): UserCommand => ({ type: 'CreateUser', data: { userId: ids.userId, fields: f as never, emailTaken: taken(f, ids.otherEmail), createdAt: NOW } }))),
      UpdateUser: cases('staff', (ids) => staffBody(ids).map((f): UserCommand => ({ type: 'UpdateUser', data: { userId: ids.userId, fields: f as never, emailTaken: taken(f, ids.otherEmail), updatedAt: NOW } }))),
      DeleteUser: cases('staff', ({ userId, otherId }) => fc.constantFrom(otherId, otherId, userId).map((deletedBy): UserCommand => ({ type: 'DeleteUser', data: { userId, deletedBy, deletedAt: NOW } }))),
      SetUserPermissions: cases('staff', ({ userId }) => list(fc.constantFrom(...PERMISSION_SLUGS)).map((permissions): UserCommand => ({ type: 'SetUserPermissions', data: { userId, permissions, updatedAt: NOW } }))),
      CreateTelesurvAccount: cases('none', (ids) =>
        telesurvBody(telesurvAccountFieldsSchema, ids).map((f): UserCommand => ({ type: 'CreateTelesurvAccount', data: { userId: ids.userId, fields: f as never, emailTaken: taken(f, ids.otherEmail), createdAt: NOW } })),
      ),
      UpdateTelesurvAccount: cases('telesurv', (ids) =>
        telesurvBody(telesurvAccountUpdateFieldsSchema, ids).map((f): UserCommand => ({ type: 'UpdateTelesurvAccount', data: { userId: ids.userId, fields: f as never, emailTaken: taken(f, ids.otherEmail), updatedAt: NOW } })),
      ),
      DeleteTelesurvAccount: cases('telesurv', ({ userId }) => fc.constant<UserCommand>({ type: 'DeleteTelesurvAccount', data: { userId, deletedAt: NOW } })),
      SetTelesurvAgences: cases('telesurv', ({ userId, agenceId }) =>
        list(fc.oneof(fc.uuid(), fc.constant(agenceId))).map((agences): UserCommand => ({ type: 'SetTelesurvAgences', data: { userId, agences, updatedAt: NOW } })),
      ),
    });
  }, 600_000);
});
