import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ticketStreamId } from '@fsm/contracts';
import { HealthResponse } from '../src/http/health-route.js';
import { TEST_PASSWORD, createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

/*
 * Issue 17: one accepted request stopped every agency's read side for good,
 * sign-in included after a rebuild, while /api/health said `ok`. Here the
 * event is appended straight to the log (the deciders now refuse it): a ticket
 * registered in year 0, valid ISO text that Postgres cannot store. The ticket
 * read models stop at it; the rest of the product goes on and health says so.
 */

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_stopped_read_model');
});
afterAll(async () => h?.close());

/** What admin_plus reads on /api/health (the anonymous answer has `status` only). */
type HealthAnswer = Partial<z.infer<typeof HealthResponse>> & { status: string };

async function health(user: TestUser | null): Promise<{ statusCode: number; body: HealthAnswer }> {
  const res = await h.request(user, { method: 'GET', url: '/api/health' });
  return { statusCode: res.statusCode, body: res.json() };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const TICKET_READ_MODELS = ['tickets', 'ticket_interventions', 'ticket_sla'];

describe('a ticket event the ticket read models cannot write', () => {
  it('stops those read models alone: health says degraded with the event to admin_plus, and sign-in and every other read model go on', async () => {
    const plus = await h.createUser({ role: 'admin_plus' });
    const ticketId = randomUUID();
    const stream = ticketStreamId(ticketId);
    const eventId = randomUUID();
    const { position } = await h.store.appendToStream(
      stream,
      [
        {
          id: eventId,
          type: 'TicketOpened',
          data: {
            ticketId,
            numChrono: 'LYO-0000-00001',
            source: 'manual',
            agenceId: plus.agenceId,
            client: { id: randomUUID(), nom: 'Clinique du Parc' },
            site: { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
            installation: { id: randomUUID(), nom: 'SSI catégorie A', astreinte: 0 },
            metier: null,
            delai: null,
            echeance: null,
            urgent: false,
            probleme: 'Alarme feu sans cause',
            photo: null,
            requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
            operateur: null,
            openedAt: '0000-01-01T08:00:00.000Z',
          },
          metadata: { userId: null, correlationId: randomUUID(), causationId: null },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    await until(async () => ((await health(plus)).body.projections?.stopped ?? []).some((stopped) => stopped.projector === 'tickets'), 'health to list the stopped read model');
    const details = await health(plus);
    expect(details.statusCode).toBe(200);
    expect(details.body.status).toBe('degraded');
    const stopped = details.body.projections!.stopped;
    expect(stopped.find((row) => row.projector === 'tickets')).toEqual(
      expect.objectContaining({ position, eventId, eventType: 'TicketOpened', streamId: stream, errorCode: '22008', stoppedWith: null }),
    );
    // Only the ticket read models: users, agencies, clients... are not touched.
    expect(stopped.map((row) => row.projector).filter((name) => !TICKET_READ_MODELS.includes(name))).toEqual([]);
    // Anyone else: the status, not the inside.
    expect(await health(null)).toEqual({ statusCode: 200, body: { status: 'degraded' } });

    // Sign-in reads rm.users: it works, for an account created after the event too.
    expect((await h.request(null, { method: 'POST', url: '/api/login', payload: { email: plus.email, motdepasse: TEST_PASSWORD } })).statusCode).toBe(200);
    const tech = await h.createUser({ role: 'technicien', agenceId: plus.agenceId });
    expect((await h.request(null, { method: 'POST', url: '/api/login', payload: { email: tech.email, motdepasse: TEST_PASSWORD } })).statusCode).toBe(200);

    // A later write of another read model answers and is there when it does (read-your-writes).
    const created = await h.request(plus, {
      method: 'POST',
      url: '/api/agences',
      payload: { nom: 'Agence Grenoble', adresse: '5 place Victor Hugo', cp_postal: '38000', ville: 'Grenoble', telephone: '04 76 00 00 00' },
    });
    expect(created.statusCode).toBe(201);
    const agences = (await h.request(plus, { method: 'GET', url: '/api/agences' })).json() as { id: string }[];
    expect(agences.map((agence) => agence.id)).toContain(created.json().id);
  });
});
