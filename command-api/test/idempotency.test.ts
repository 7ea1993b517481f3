import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_MESSAGES, IDEMPOTENT_REPLAY_HEADER, POSITION_HEADER, TICKET_MESSAGES } from '@fsm/contracts';
import { createApiHarness, until, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { createWorld, multipart, requester, ticketStream, type World } from './tickets-fixtures.js';

/*
 * Commands carry their own id: `Idempotency-Key` makes a re-sent submission
 * (its answer was lost) run once; and the answers of commands whose read
 * models are on time stay the spec's, untouched (no 202, no `pending`).
 */

let h: ApiHarness;
let world: World;
let admin: TestUser;
let otherAdmin: TestUser;
let tech: TestUser;
beforeAll(async () => {
  h = await createApiHarness('api_idempotency');
  world = await createWorld(h);
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  otherAdmin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
});
afterAll(async () => h?.close());

const ticketForm = (probleme = 'Alarme en dérangement') => multipart({ installation_id: world.installationId, ...requester, probleme });
const createWithKey = async (user: TestUser, form: Awaited<ReturnType<typeof ticketForm>>, key?: string) =>
  h.request(user, { method: 'POST', url: '/api/tickets/manual/ticket-create', payload: form.payload, headers: { ...form.headers, ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}) } });
const take = (id: string, key?: string) =>
  h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: tech.id }, headers: key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {} });
const ticketCount = async () => Number((await h.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es.streams WHERE stream_id LIKE 'ticket-%'`)).rows[0]!.n);


describe('read models on time', () => {
  it('keeps the spec answers as they were: 201 / 200, no X-Position, no `pending`', async () => {
    const created = await createWithKey(admin, await ticketForm());
    expect(created.statusCode).toBe(201);
    expect(created.headers[POSITION_HEADER]).toBeUndefined();
    expect(Object.keys(created.json()).sort()).toEqual(['message', 'num_chrono', 'success', 'ticket_id']);
    const taken = await take(created.json().ticket_id);
    expect(taken.statusCode).toBe(200);
    expect(taken.headers[POSITION_HEADER]).toBeUndefined();
    expect(taken.json()).not.toHaveProperty('pending');
    expect(taken.json()).toMatchObject({ statut: 'en_cours' });
  });
});

describe('Idempotency-Key', () => {
  it('runs a ticket creation sent twice with one key once, and replays its answer to the second', async () => {
    const form = await ticketForm();
    const key = randomUUID();
    const before = await ticketCount();
    const first = await createWithKey(admin, form, key);
    const second = await createWithKey(admin, form, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers[IDEMPOTENT_REPLAY_HEADER]).toBe('true');
    expect(first.json()).toMatchObject({ success: true, message: TICKET_MESSAGES.manualSuccess });
    expect(await ticketCount()).toBe(before + 1);

    // Per user: another user's request with the same key is its own.
    const someoneElse = await createWithKey(otherAdmin, form, key);
    expect(someoneElse.statusCode).toBe(201);
    expect(someoneElse.json().ticket_id).not.toBe(first.json().ticket_id);
    expect(await ticketCount()).toBe(before + 2);
  });

  it('refuses a malformed key in French and changes nothing', async () => {
    const before = await ticketCount();
    for (const key of ['abc', `${randomUUID()}x`, 'x'.repeat(5000)]) {
      const res = await createWithKey(admin, await ticketForm(), key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: IDEMPOTENCY_MESSAGES.invalidKey, code: 'VALIDATION' });
    }
    expect(await ticketCount()).toBe(before);
  });

  it('refuses the same key on another request (other body or route) in French', async () => {
    const key = randomUUID();
    const first = await createWithKey(admin, await ticketForm('Détecteur HS'), key);
    expect(first.statusCode).toBe(201);
    const before = await ticketCount();
    const otherBody = await createWithKey(admin, await ticketForm('Autre problème, bien plus long'), key);
    expect(otherBody.statusCode).toBe(400);
    expect(otherBody.json()).toEqual({ error: IDEMPOTENCY_MESSAGES.keyReused, code: 'VALIDATION' });
    const id = first.json().ticket_id as string;
    const otherRoute = await h.request(admin, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: tech.id }, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
    expect(otherRoute.statusCode).toBe(400);
    expect(otherRoute.json()).toEqual({ error: IDEMPOTENCY_MESSAGES.keyReused, code: 'VALIDATION' });
    expect(await ticketCount()).toBe(before);
    expect((await ticketStream(h, id)).map((event) => event.type)).toEqual(['TicketOpened']);
  });

  it('answers 409 to the same key while the first request runs, then replays the first answer', async () => {
    const created = await createWithKey(admin, await ticketForm());
    const id = created.json().ticket_id as string;
    const key = randomUUID();
    // Stopped projections keep the first request waiting for its read models.
    await h.runner.stop();
    const first = take(id, key);
    await until(async () => (await h.pool.query(`SELECT 1 FROM api.idempotent_requests WHERE key = $1 AND status IS NULL`, [key])).rowCount === 1, 'the first request to claim the key');
    await until(async () => (await ticketStream(h, id)).some((event) => event.type === 'TicketTakenInCharge'), 'the first request to append');
    const concurrent = await take(id, key);
    expect(concurrent.statusCode).toBe(409);
    expect(concurrent.json()).toEqual({ error: IDEMPOTENCY_MESSAGES.inProgress, code: 'CONFLICT' });
    await h.runner.start();
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    const again = await take(id, key);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(answered.body);
    expect((await ticketStream(h, id)).filter((event) => event.type === 'TicketTakenInCharge')).toHaveLength(1);
  });

  it('frees the key of a refused request: re-sent, it runs again', async () => {
    const key = randomUUID();
    const created = await createWithKey(admin, await ticketForm());
    const id = created.json().ticket_id as string;
    // An unknown technician: refused, nothing written…
    const refused = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: randomUUID() }, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect((await h.pool.query(`SELECT 1 FROM api.idempotent_requests WHERE key = $1`, [key])).rowCount).toBe(0);
    // …so the key is free again: the corrected request runs.
    const taken = await take(id, key);
    expect(taken.statusCode).toBe(200);
    expect(taken.headers[IDEMPOTENT_REPLAY_HEADER]).toBeUndefined();
  });
});
