import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_READ_FIELD, POSITION_HEADER, READ_MODELS_LATE_MESSAGE, TICKET_MESSAGES } from '@fsm/contracts';
import { POSITION_SEAL_KEY_PURPOSE, createPositionSeal } from '../src/live/live-positions.js';
import { createApiHarness, until, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { createTicket, createWorld, requester, ticketStream, visitBody, type World } from './tickets-fixtures.js';

/*
 * Issue 21, item 2: with the projections stopped, a close answered 200 after the
 * read-your-writes wait with the ticket still `en_cours`. It now says so: 202,
 * the position it wrote (sealed, issue 32 item 13: in clear it told how many
 * events every agency wrote between two of one's own writes), and a French
 * message; the spec's fields stay.
 * (The normal path, 200/201 untouched, is in idempotency.test.ts, whose
 * harness waits long enough for a loaded machine.)
 */

let h: ApiHarness;
let world: World;
let admin: TestUser;
let tech: TestUser;
beforeAll(async () => {
  // A short wait: the projections are stopped below, nobody is going to catch up.
  h = await createApiHarness('api_late_read_models', { readYourWritesTimeoutMs: 1_000 });
  world = await createWorld(h);
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
});
afterAll(async () => h?.close());

const statutOf = async (id: string) => ((await h.request(admin, { method: 'GET', url: `/api/tickets/${id}` })).json() as { statut: string }).statut;


describe('a command whose read models do not catch up in time', () => {
  it('answers 202 with the position it wrote and a French message; the read models show it once the projections run again', async () => {
    // Set-up with the projections running: on a loaded machine these may be late too (202), which is fine here.
    const created = await createTicket(h, admin, { installation_id: world.installationId, ...requester, probleme: 'Alarme en dérangement' });
    expect([201, 202]).toContain(created.statusCode);
    const id = (created.json() as { ticket_id: string }).ticket_id;
    await until(async () => (await h.request(admin, { method: 'GET', url: `/api/tickets/${id}` })).statusCode === 200, 'the ticket to be readable');
    const taken = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: tech.id } });
    expect([200, 202]).toContain(taken.statusCode);
    await until(async () => (await statutOf(id)) === 'en_cours', 'the ticket to read en_cours');

    await h.runner.stop();
    const closed = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/close`, payload: visitBody() });

    expect(closed.statusCode).toBe(202);
    const events = await ticketStream(h, id);
    const last = events[events.length - 1]!;
    expect(last.type).toBe('TicketClosed');
    const sealed = String(closed.headers[POSITION_HEADER]);
    expect(sealed).not.toContain(last.position);
    expect(createPositionSeal(h.deps.tokens.derivedKey(POSITION_SEAL_KEY_PURPOSE)).open(sealed)).toBe(last.position);
    // The spec's answer (the re-read ticket, still as the read models have it), plus `pending`.
    const body = closed.json() as Record<string, unknown>;
    expect(body).toMatchObject({ id, statut: 'en_cours', [PENDING_READ_FIELD]: { position: sealed, message: READ_MODELS_LATE_MESSAGE } });
    expect(await statutOf(id)).toBe('en_cours');

    // A creation (multipart) too: its answer keeps what the screens use (the new id, the message).
    const late = await createTicket(h, admin, { installation_id: world.installationId, ...requester, probleme: 'Sirène muette' });
    expect(late.statusCode).toBe(202);
    const lateBody = late.json() as { ticket_id: string; message: string; pending: { position: string } };
    expect(lateBody).toMatchObject({ success: true, message: TICKET_MESSAGES.manualSuccess, pending: { message: READ_MODELS_LATE_MESSAGE } });
    expect(late.headers[POSITION_HEADER]).toBe(lateBody.pending.position);

    await h.runner.start();
    await until(async () => (await statutOf(id)) === 'clos', 'the ticket to read clos');
    await until(async () => (await h.request(admin, { method: 'GET', url: `/api/tickets/${lateBody.ticket_id}` })).statusCode === 200, 'the late ticket to be readable');
  });
});
