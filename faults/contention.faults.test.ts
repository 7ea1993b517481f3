import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketEventSchema, parseRecorded, ticketStreamId, type TicketEvent } from '@fsm/contracts';
import type { PostgresEventStore, RecordedEvent } from '@fsm/eventstore';
import { ticketDecider, type TicketState } from '@fsm/command-api/test-support';
import { recordFigures } from './support/figures.js';
import { startLogDatabase, type LogDatabase } from './support/log-database.js';
import { freePort } from './support/free-port.js';
import { killAllStarted, startApiProcess, startProcess } from './support/processes.js';
import { FAULTS_TOKEN_SECRET, api, createWorld, openVisibleTicket, visitBody, worldProjected, type ApiAnswer, type World } from './support/world.js';
import { logHead } from './support/log-head.js';
import { until } from './support/wait.js';

/*
 * Issue 12, item 1 — no lost update under contention. A real API process and
 * a real projections process; 50 clients send conflicting commands over HTTP
 * to 20 ticket slots for 30 seconds (take in charge, re-intervention, close,
 * report name, quote validation; a slot whose ticket is closed gets a fresh
 * ticket, so the lifecycle stays contended for the whole run). Every answer
 * must be 2xx or 409. Then, for every ticket: each applied command's marker
 * is in its stream exactly once, each refused one nowhere, and the read model
 * and the GET answer equal the fold of the ticket's own stream.
 */

const CLIENTS = 50;
const SLOTS = 20;
const DURATION_MS = 30_000;

type Kind = 'open' | 'take' | 'reintervention' | 'close' | 'report' | 'quote';
interface Sent {
  kind: Kind;
  ticketId: string;
  /** What the command writes into its event (constat, report name, quote number), so it can be found in the stream. */
  marker: string | null;
  status: number;
  code: string | null;
}

let database: LogDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
let dataDir: string;
let base: string;
let world: World;

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 6, pollIntervalMs: 100 });
  ({ pool, store } = database);
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-faults-contention-'));
  world = await createWorld(pool, store, { technicians: 4 });
  // Redis is not involved in commands: the API's probe points at a port where nothing listens.
  const env = { DATABASE_URL: database.db.url, DATA_DIR: dataDir, TOKEN_SECRET: FAULTS_TOKEN_SECRET, REDIS_URL: `redis://127.0.0.1:${await freePort()}` };
  startProcess('projections/src/main.ts', { ...env, LOG_LEVEL: 'silent' }, 'projections');
  base = (await startApiProcess(env, await freePort())).url;
  await worldProjected(pool, world);
}, 120_000);

afterAll(async () => {
  await killAllStarted();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const WEIGHTS: [Exclude<Kind, 'open'>, number][] = [
  ['take', 3],
  ['reintervention', 3],
  ['close', 1],
  ['report', 2],
  ['quote', 1],
];
function pickKind(): Exclude<Kind, 'open'> {
  let roll = Math.random() * WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [kind, weight] of WEIGHTS) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return 'take';
}

async function send(kind: Exclude<Kind, 'open'>, ticketId: string): Promise<Sent> {
  const marker = kind === 'take' ? null : `${kind}-${randomUUID()}`;
  const technicien = pick(world.technicians);
  const user = Math.random() < 0.5 ? world.admin : technicien;
  let res: ApiAnswer;
  switch (kind) {
    case 'take':
      res = await api(base, user.token, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: technicien.id });
      break;
    case 'reintervention':
      res = await api(base, user.token, 'POST', `/api/tickets/${ticketId}/intervention`, { ...visitBody(marker!, Math.random() < 0.3 ? 1 : 0), technicien_id: technicien.id });
      break;
    case 'close':
      res = await api(base, user.token, 'PATCH', `/api/tickets/${ticketId}/close`, visitBody(marker!, Math.random() < 0.3 ? 1 : 0));
      break;
    case 'report':
      res = await api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}`, { nom_rapport: `${marker}.pdf` });
      break;
    case 'quote':
      res = await api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}/update`, { numero_devis: marker });
      break;
  }
  return { kind, ticketId, marker: kind === 'report' ? `${marker}.pdf` : marker, status: res.status, code: typeof res.body === 'object' && res.body ? (res.body.code ?? null) : null };
}

/** The marker a ticket event carries, if any. */
function markerOf(event: TicketEvent): string | null {
  switch (event.type) {
    case 'ReinterventionRecorded':
    case 'TicketClosed':
      return event.data.constatTech;
    case 'TicketReportAttached':
      return event.data.nomRapport;
    case 'QuoteValidated':
      return event.data.numeroDevis;
    default:
      return null;
  }
}

describe('50 clients, 20 tickets, 30 seconds of conflicting commands', () => {
  it('answers every command 2xx or 409 and loses no update', { timeout: 180_000 }, async () => {
    const slots: string[] = [];
    let creationsAnsweredBeforeReadModel = 0;
    for (let index = 0; index < SLOTS; index++) slots.push((await openVisibleTicket(base, world.admin, world.installationId)).ticketId);
    const tickets = new Set(slots);
    const closed: string[] = [];
    const sent: Sent[] = slots.map((ticketId) => ({ kind: 'open', ticketId, marker: null, status: 201, code: null }));

    const deadline = Date.now() + DURATION_MS;
    const client = async () => {
      while (Date.now() < deadline) {
        const kind = pickKind();
        // Report names and quotes also go to closed tickets, which accept them.
        const slot = Math.floor(Math.random() * SLOTS);
        const ticketId = (kind === 'report' || kind === 'quote') && closed.length > 0 && Math.random() < 0.5 ? pick(closed) : slots[slot]!;
        const result = await send(kind, ticketId);
        sent.push(result);
        if (kind === 'close' && result.status >= 200 && result.status < 300 && slots[slot] === ticketId) {
          closed.push(ticketId);
          const { ticketId: fresh, visibleAtOnce } = await openVisibleTicket(base, world.admin, world.installationId);
          if (!visibleAtOnce) creationsAnsweredBeforeReadModel++;
          sent.push({ kind: 'open', ticketId: fresh, marker: null, status: 201, code: null });
          tickets.add(fresh);
          slots[slot] = fresh;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));

    // --- every answer is 2xx or 409 ---------------------------------------
    const unexpected = sent.filter((s) => !(s.status >= 200 && s.status < 300) && s.status !== 409);
    expect(unexpected.slice(0, 10), 'answers other than 2xx / 409').toEqual([]);
    const applied = sent.filter((s) => s.status >= 200 && s.status < 300);
    const refused = sent.filter((s) => s.status === 409);

    // --- wait until the read models hold the whole log ---------------------
    const head = await logHead(pool);
    await until(
      async () => {
        const { rows } = await pool.query<{ position: string | null }>('SELECT position FROM proj.checkpoints');
        return rows.length > 0 && rows.every((row) => row.position !== null && store.comparePositions(row.position, head) >= 0);
      },
      'the projections to catch up',
      60_000,
    );

    // --- per ticket: markers, fold, read model, GET -------------------------
    let events = 0;
    for (const ticketId of tickets) {
      const stream: RecordedEvent[] = await store.readStream(ticketStreamId(ticketId));
      events += stream.length;
      const domainEvents = stream.map((recorded) => parseRecorded(ticketEventSchema, recorded));
      const markers = domainEvents.map(markerOf).filter((marker): marker is string => marker !== null);
      const mine = sent.filter((s) => s.ticketId === ticketId);
      // Applied: its event is there, once. Refused: nowhere.
      for (const s of mine.filter((x) => x.marker !== null)) {
        expect(markers.filter((marker) => marker === s.marker).length, `${s.kind} ${s.status} on ${ticketId}`).toBe(s.status === 409 ? 0 : 1);
      }
      expect(markers.length, `events with a marker in ${ticketId}`).toBe(mine.filter((s) => s.marker !== null && s.status !== 409).length);
      expect(domainEvents.filter((e) => e.type === 'TicketTakenInCharge').length, `take in charge of ${ticketId}`).toBe(mine.filter((s) => s.kind === 'take' && s.status >= 200 && s.status < 300).length);

      const state = domainEvents.reduce(ticketDecider.evolve, ticketDecider.initialState);
      const expected = expectedView(state);
      const { rows } = await pool.query(
        `SELECT statut, technicien_id::text AS id_technicien, nom_rapport, numero_devis, devis, clos_at, last_revision, interventions_supp_count FROM rm.tickets WHERE id = $1`,
        [ticketId],
      );
      const { last_revision, interventions_supp_count, ...row } = rows[0]!;
      expect({ ...row, clos_at: row.clos_at ? new Date(row.clos_at).toISOString() : null, devis: Number(row.devis) }, `rm.tickets ${ticketId}`).toEqual(expected);
      expect([last_revision, interventions_supp_count], `rm.tickets ${ticketId} revision, interventions`).toEqual([
        stream.at(-1)!.revision,
        state.status === 'nonexistent' ? 0 : state.interventions.length,
      ]);
      const interventions = await pool.query<{ id: string }>('SELECT id::text FROM rm.ticket_interventions WHERE ticket_id = $1 ORDER BY id', [ticketId]);
      expect(interventions.rows.map((r) => r.id), `rm.ticket_interventions ${ticketId}`).toEqual(
        state.status === 'nonexistent' ? [] : state.interventions.map((i) => i.id).sort(),
      );

      const got = await api(base, world.admin.token, 'GET', `/api/tickets/${ticketId}`);
      expect(got.status).toBe(200);
      const view = got.body as Record<string, unknown>;
      expect(
        { statut: view.statut, id_technicien: view.id_technicien, nom_rapport: view.nom_rapport, numero_devis: view.numero_devis, devis: view.devis, clos_at: view.clos_at ? new Date(String(view.clos_at)).toISOString() : null },
        `GET /api/tickets/${ticketId}`,
      ).toEqual(expected);
    }

    const count = (list: Sent[], kind: Kind) => list.filter((s) => s.kind === kind).length;
    const kinds: Kind[] = ['open', 'take', 'reintervention', 'close', 'report', 'quote'];
    const figures = {
      clients: CLIENTS,
      ticketSlots: SLOTS,
      ticketsUsed: tickets.size,
      seconds: DURATION_MS / 1000,
      commandsSent: sent.length,
      applied2xx: applied.length,
      refused409: refused.length,
      refusedConcurrent: refused.filter((s) => s.code === 'CONFLICT').length,
      refusedByState: refused.filter((s) => s.code === 'ILLEGAL_STATE').length,
      otherStatuses: unexpected.length,
      perKind: Object.fromEntries(kinds.map((kind) => [kind, { applied: count(applied, kind), refused: count(refused, kind) }])),
      ticketEvents: events,
      creationsAnsweredBeforeReadModel,
    };
    recordFigures('contention', figures);
    // The run must really have contended: concurrent appends lost to another writer.
    expect(figures.refusedConcurrent).toBeGreaterThan(0);
    expect(figures.applied2xx).toBeGreaterThan(SLOTS);
  });
});

/** What the read model and the GET must say, from the folded state alone. */
function expectedView(state: TicketState) {
  if (state.status === 'nonexistent') throw new Error('ticket without events');
  return {
    statut: state.status,
    id_technicien: state.status === 'ouvert' ? null : state.technicien.id,
    nom_rapport: state.nomRapport,
    numero_devis: state.quote.status === 'validated' ? state.quote.numeroDevis : null,
    devis: state.quote.status === 'none' ? 0 : 1,
    clos_at: state.status === 'clos' ? new Date(state.closedAt).toISOString() : null,
  };
}
