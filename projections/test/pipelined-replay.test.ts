import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METIERS_STREAM_ID, ticketStreamId } from '@fsm/contracts';
import type { Projector, Replay } from '../src/projector.js';
import { ticketSlaProjector } from '../src/read-models/ticket-sla/ticket-sla-projector.js';
import { ticketInterventionsProjector } from '../src/read-models/tickets/ticket-interventions-projector.js';
import { ticketsProjector } from '../src/read-models/tickets/tickets-projector.js';
import { createReadModelHarness, type ReadModelHarness } from '../src/test-support/read-model-harness.js';
import { ticketOpened, ticketVisit } from '../src/test-support/ticket-events.js';

/*
 * A rebuild replays the log two batches at a time (runner/pipelined-replay.ts):
 * batch N+1 is folded from the rows batch N wrote (replay-rows.ts)
 * while Postgres still writes batch N. With batches of 4 events, a ticket's
 * history spans many batches: its next event comes in the next batch (a
 * cached row), several batches later (a row loaded again), or opens it (no
 * row to load), and a trade changing clock re-evaluates tickets in SQL midway.
 * Whatever the batches, the rows must be the ones built live, one small batch
 * at a time.
 */

/** rm.tickets' projector, counting the replay's batches and failing once when asked to. */
const tickets = {
  replayed: 0,
  failAt: null as number | null,
};
const countingTickets: Projector = {
  ...ticketsProjector,
  apply(tx, events, replay?: Replay) {
    if (replay) {
      tickets.replayed++;
      if (tickets.replayed === tickets.failAt) {
        tickets.failAt = null;
        return Promise.reject(new Error('panne simulée au milieu du rejeu'));
      }
    }
    return ticketsProjector.apply(tx, events, replay);
  },
};

let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_pipelined_replay', [countingTickets, ticketSlaProjector, ticketInterventionsProjector], { batchSize: 4 });
});
afterAll(async () => h?.close());

/** The same pseudo-random history at every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const HOUR = 3_600_000;
const technicien = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };

const visit = (arriveAt: number, closedAt: number, devis: 0 | 1) => ticketVisit(technicien, new Date(arriveAt).toISOString(), new Date(closedAt).toISOString(), devis);

interface Planned {
  at: number;
  stream: string;
  type: string;
  data: unknown;
}

/** Tickets opened 20 minutes apart over two trades, living from an hour to two days; one trade changes clock midway. */
function history(count: number): Planned[] {
  const next = random(20);
  const start = Date.parse('2026-03-02T07:00:00.000Z');
  const agenceId = randomUUID();
  const trades = [randomUUID(), randomUUID()];
  const planned: Planned[] = trades.map((metierId, index) => ({
    at: start - HOUR,
    stream: METIERS_STREAM_ID,
    type: 'MetierCreated',
    data: { metierId, nom: `Métier ${index + 1}`, ordre: null, delai_inter: 4, HO_stats: index, createdAt: new Date(start - HOUR).toISOString() },
  }));
  const flipAt = start + (count / 2) * 20 * 60_000;
  planned.push({
    at: flipAt,
    stream: METIERS_STREAM_ID,
    type: 'MetierUpdated',
    data: { metierId: trades[0], nom: 'Métier 1', ordre: null, delai_inter: 4, HO_stats: 1, updatedAt: new Date(flipAt).toISOString() },
  });
  for (let index = 0; index < count; index++) {
    const ticketId = randomUUID();
    const stream = ticketStreamId(ticketId);
    const openedAt = start + index * 20 * 60_000 + 7;
    const metierId = trades[index % 2]!;
    const add = (at: number, type: string, data: unknown) => planned.push({ at, stream, type, data });
    const { type, data } = ticketOpened(ticketId, { agenceId, metierId, openedAt: new Date(openedAt).toISOString(), numChrono: `LYO-2026-${String(index + 1).padStart(5, '0')}` });
    add(openedAt, type, data);
    let t = openedAt + (5 + next() * 60) * 60_000;
    add(t, 'TicketTakenInCharge', { technicien, takenAt: new Date(t).toISOString() });
    if (next() < 0.15) continue; // still open
    if (next() < 0.35) {
      const arrive = t + (1 + next() * 6) * HOUR;
      t = arrive + HOUR;
      const interventionId = randomUUID();
      add(t, 'ReinterventionRecorded', { ...visit(arrive, t, next() < 0.5 ? 1 : 0), interventionId });
      add(t + 60_000, 'TicketReportAttached', { nomRapport: `rapport-${index}-r.pdf`, interventionId });
    }
    // Most close within hours (the next batches), some two days later (many batches on).
    const arrive = t + (next() < 0.2 ? 48 : 1 + next() * 8) * HOUR;
    const devis = next() < 0.3 ? 1 : 0;
    t = arrive + HOUR;
    add(t, 'TicketClosed', visit(arrive, t, devis));
    add(t + 60_000, 'TicketReportAttached', { nomRapport: `rapport-${index}.pdf`, interventionId: null });
    if (devis === 1 && next() < 0.7) {
      const registered = t + (2 + next() * 40) * HOUR;
      add(registered, 'QuoteValidated', { numeroDevis: `D-${index}`, dateEnregistrementDevis: new Date(registered).toISOString(), validatedAt: new Date(registered).toISOString() });
    }
  }
  return planned.sort((a, b) => a.at - b.at);
}

async function snapshot() {
  return {
    tickets: await h.selectAll('rm.tickets'),
    sla: await h.selectAll('rm.ticket_sla', 'ticket_id'),
    days: await h.selectAll('rm.ticket_sla_days', 'agence_id, metier_id, day'),
    visits: await h.selectAll('rm.ticket_interventions'),
  };
}

describe('a rebuild replayed two batches at a time', () => {
  beforeAll(async () => {
    // One append per event, in time order: the live runner applies them in small batches.
    let last: string | null = null;
    for (const { stream, type, data } of history(60)) {
      const metadata = { userId: null, correlationId: randomUUID(), causationId: null };
      ({ position: last } = await h.store.appendToStream(stream, [{ id: randomUUID(), type, data, metadata }], { expectedRevision: 'any' }));
    }
    await h.settle(last);
  });

  it('gives the rows built live: tickets, SLA figures after a trade changed clock, day counts and visits', async () => {
    const live = await snapshot();
    expect(live.tickets.length).toBe(60);
    tickets.replayed = 0;
    await h.rebuild();
    // The replay's batches came with the rows of the batches before (the pipelined way).
    expect(tickets.replayed).toBeGreaterThan(10);
    expect(await snapshot()).toEqual(live);
  });

  it('goes on from the stored checkpoints after a pipelined batch failed, and gives the same rows', async () => {
    const live = await snapshot();
    tickets.replayed = 0;
    tickets.failAt = 6;
    await h.rebuild();
    expect(tickets.failAt).toBeNull();
    expect(h.runner.stoppedProjectors).toEqual([]);
    expect(await snapshot()).toEqual(live);
  });
});
