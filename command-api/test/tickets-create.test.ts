import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES as M, NUM_CHRONO_PATTERN, ticketCreateResponseSchema, chronoStreamId, installationStreamId, ticketAgencyCode } from '@fsm/contracts';
import { commandContext } from '../src/commands/command-context.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { PHOTO_TOO_LARGE } from '../src/files/uploads.js';
import { TECHNICIEN_NOT_IN_AGENCE } from '../src/commands/tickets/ticket-command-support.js';
import { REGISTRATION_IN_FUTURE } from '../src/commands/tickets/open-ticket.js';
import { createTicket, createWorld, multipart, pngFile, requester, ticketStream, type World } from './tickets-fixtures.js';

let h: ApiHarness;
let world: World;
let admin: TestUser;
let tech: TestUser;
beforeAll(async () => {
  h = await createApiHarness('api_tickets_create');
  world = await createWorld(h, { agenceNom: 'Lyon Est', delai: 6 });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
});
afterAll(async () => h?.close());

const fields = (extra: Record<string, string> = {}) => ({ installation_id: world.installationId, ...requester, probleme: 'Alarme en dérangement', ...extra });

async function detail(user: TestUser, id: string) {
  const res = await h.request(user, { method: 'GET', url: `/api/tickets/${id}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Nothing was appended: same head of the log. */
async function expectNothingWritten(action: () => Promise<unknown>) {
  const before = await h.store.headPosition();
  await action();
  expect(await h.store.headPosition()).toBe(before);
}

describe('POST /api/tickets/manual/ticket-create', () => {
  it('opens a ticket on an installation saved before delays were bounded, with the longest delay allowed (issue 17)', async () => {
    const installationId = randomUUID();
    // As an older log may hold it: the contracts refuse a delay over 8760 hours today.
    const appended = await h.store.appendToStream(
      installationStreamId(installationId),
      [
        {
          id: randomUUID(),
          type: 'InstallationCreated',
          data: { installationId, siteId: world.siteId, nom: 'Ancienne centrale', metierId: world.metierId, description: 'Saisie avant la borne', delai: 20_000, astreinte: 0, createdAt: h.deps.clock().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(await commandContext(h.deps).waitForProjection(appended.position)).toBe(true);
    const res = await createTicket(h, tech, { ...fields(), installation_id: installationId });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = await detail(tech, res.json().ticket_id);
    expect(ticket.delai).toBe(8760);
    expect(Date.parse(ticket.echeance) - Date.parse(ticket.created_at)).toBe(8760 * 3_600_000);
  });

  it('opens a ticket with the installation facts of the day, a readable number and the spec answer', async () => {
    const res = await createTicket(h, tech, fields(), pngFile());
    expect(res.statusCode).toBe(201);
    const body = ticketCreateResponseSchema.parse(res.json());
    expect(body).toMatchObject({ success: true, message: 'Le ticket a bien été enregistré.' });
    expect(body.num_chrono).toMatch(NUM_CHRONO_PATTERN);
    expect(body.num_chrono.startsWith(`LYO-${new Date().getFullYear()}-`)).toBe(true);

    const ticket = await detail(tech, body.ticket_id);
    expect(ticket).toMatchObject({
      id: body.ticket_id,
      num_chrono: body.num_chrono,
      statut: 'ouvert',
      urgent: false,
      client_nom: 'Hôpital Nord',
      site_nom: 'Bâtiment A',
      site_adresse: '3 avenue des Frères Lumière',
      site_code_postal: '69008',
      site_ville: 'Lyon',
      installation_id: world.installationId,
      installation_nom: 'SSI catégorie A',
      probleme: 'Alarme en dérangement',
      astreinte: 0,
      delai: 6,
      operateur_prenom: 'technicien',
      operateur_nom: 'Test',
      technicien_prenom: null,
      id_technicien: null,
      devis: 0,
      interventions_count: 0,
      interventions_supp_count: 0,
      source: 'manual',
      agence_id: world.agenceId,
      client_id: world.clientId,
      site_id: world.siteId,
      ...requester,
    });
    expect(ticket.metier_nom).toMatch(/^Désenfumage/);
    expect(Date.parse(ticket.echeance) - Date.parse(ticket.created_at)).toBe(6 * 3_600_000);
    // A link signed for this file, valid one to two hours (issue 32, item 11).
    expect(ticket.photo).toMatch(/^\/api\/files\/[a-f0-9]{64}\.png\?exp=\d+&sig=[\w-]{43}$/);
    const photo = await h.request(null, { method: 'GET', url: ticket.photo });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
  });

  it('takes the ticket in charge at once when staff choose a technician, and keeps the registration date', async () => {
    const res = await createTicket(h, admin, fields({ id_technicien: tech.id, date_enregistrement: '2026-01-05', heure_enregistrement: '09:30' }));
    expect(res.statusCode).toBe(201);
    const ticket = await detail(admin, res.json().ticket_id);
    expect(ticket).toMatchObject({ statut: 'en_cours', id_technicien: tech.id, technicien_prenom: 'technicien', technicien_nom: 'Test', created_at: '2026-01-05T08:30:00.000Z' });
    expect(ticket.num_chrono.startsWith('LYO-2026-')).toBe(true);
    const events = await ticketStream(h, ticket.id);
    expect(events.map((e) => e.type)).toEqual(['TicketOpened', 'TicketTakenInCharge']);
    expect(events[0]?.metadata.userId).toBe(admin.id);
  });

  it('gives unique, consecutive numbers to concurrent openings of one agency code and year (counter stream)', async () => {
    const other = await createWorld(h, { agenceNom: 'Lyonnais Sud' }); // also "LYO": shares the counter
    const otherAdmin = await h.createUser({ role: 'admin', agenceId: other.agenceId });
    const day = { date_enregistrement: '2024-03-02', heure_enregistrement: '10:00' };
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0 ? createTicket(h, admin, fields(day)) : createTicket(h, otherAdmin, { ...fields(day), installation_id: other.installationId }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    const numbers = answers.map((a) => a.json().num_chrono as string).sort();
    expect(numbers).toEqual(['LYO-2024-00001', 'LYO-2024-00002', 'LYO-2024-00003', 'LYO-2024-00004', 'LYO-2024-00005', 'LYO-2024-00006']);
    const counter = await h.store.readStream(chronoStreamId(ticketAgencyCode('Lyon Est'), 2024));
    expect(counter.map((e) => (e.data as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(counter.map((e) => e.type)).toEqual(Array(6).fill('ChronoAllocated'));
  });

  it('flags urgent an on-call installation opened while the agency is closed, and when staff tick it', async () => {
    const onCall = await createWorld(h, { agenceId: world.agenceId, astreinte: 1 });
    // Saturday 21 June 2025, 10:00 in Paris: closed (docs/sla.md E2).
    const saturday = await createTicket(h, admin, { ...fields({ date_enregistrement: '2025-06-21', heure_enregistrement: '10:00' }), installation_id: onCall.installationId });
    expect((await detail(admin, saturday.json().ticket_id)).urgent).toBe(true);
    // Tuesday 17 June 2025, 10:00: open, not urgent.
    const tuesday = await createTicket(h, admin, { ...fields({ date_enregistrement: '2025-06-17', heure_enregistrement: '10:00' }), installation_id: onCall.installationId });
    expect((await detail(admin, tuesday.json().ticket_id)).urgent).toBe(false);
    // Not on call: never urgent by the rule, but staff may flag it.
    const notOnCall = await createTicket(h, admin, fields({ date_enregistrement: '2025-06-21', heure_enregistrement: '10:00' }));
    expect((await detail(admin, notOnCall.json().ticket_id)).urgent).toBe(false);
    const flagged = await createTicket(h, admin, fields({ urgent: '1' }));
    expect((await detail(admin, flagged.json().ticket_id)).urgent).toBe(true);
  });

  it('takes the delay from the installation (which always has one), not from its métier', async () => {
    const slow = await createWorld(h, { agenceId: world.agenceId, delai: 48, metierDelai: 2 });
    const res = await createTicket(h, admin, { ...fields(), installation_id: slow.installationId });
    const ticket = await detail(admin, res.json().ticket_id);
    expect(ticket.delai).toBe(48);
  });

  it('accepts a JSON body without a photo', async () => {
    const res = await h.request(admin, { method: 'POST', url: '/api/tickets/manual/ticket-create', payload: fields() });
    expect(res.statusCode).toBe(201);
  });

  it('answers 400 with the French message and writes nothing for missing fields', async () => {
    for (const missing of ['installation_id', 'nom', 'prenom', 'email', 'telephone', 'probleme']) {
      const body = fields();
      delete (body as Record<string, string>)[missing];
      await expectNothingWritten(async () => {
        const res = await createTicket(h, tech, body);
        expect(res.statusCode, missing).toBe(400);
        expect(res.json().error).toBe('Merci de remplir tous les champs obligatoires.');
      });
    }
    await expectNothingWritten(async () => {
      const res = await createTicket(h, tech, fields({ email: 'pas-un-email' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(M.invalidEmail);
    });
    await expectNothingWritten(async () => {
      const res = await createTicket(h, tech, fields({ date_enregistrement: '2026-02-30', heure_enregistrement: '10:00' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(M.invalidRegistrationDateTime);
    });
    await expectNothingWritten(async () => {
      const res = await createTicket(h, tech, fields({ date_enregistrement: '2099-01-01', heure_enregistrement: '10:00' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(REGISTRATION_IN_FUTURE);
    });
    // Issue 17: year 0100 answered 500 (no num_chrono for it) and year 1500 stopped the read side (no French holidays before 1583).
    for (const date of ['0100-03-02', '1500-03-02', '1999-12-31', '2100-01-01']) {
      await expectNothingWritten(async () => {
        const res = await createTicket(h, tech, fields({ date_enregistrement: date, heure_enregistrement: '10:00' }));
        expect(res.statusCode, date).toBe(400);
        expect(res.json().error).toBe(M.dateOutOfRange);
      });
    }
  });

  it('refuses a photo by its content, not its name, and a photo over 8 MB', async () => {
    await expectNothingWritten(async () => {
      const res = await createTicket(h, tech, fields(), { bytes: Buffer.from('ceci est un texte, pas une image'), filename: 'photo.jpg', type: 'image/jpeg' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("Le fichier sélectionné n'est pas une image.");
    });
    await expectNothingWritten(async () => {
      const big = Buffer.alloc(8 * 1024 * 1024 + 1, 0);
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(big);
      const res = await createTicket(h, tech, fields(), { bytes: big, filename: 'photo.jpg', type: 'image/jpeg' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(PHOTO_TOO_LARGE);
    });
  });

  it('refuses a technician who is not staff of the ticket’s agency', async () => {
    const stranger = await h.createUser({ role: 'technicien' }); // another agency
    await expectNothingWritten(async () => {
      const res = await createTicket(h, admin, fields({ id_technicien: stranger.id }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(TECHNICIEN_NOT_IN_AGENCE);
    });
  });

  it('limits staff to their agency (404) except admin_plus', async () => {
    const elsewhere = await createWorld(h);
    await expectNothingWritten(async () => {
      const res = await createTicket(h, tech, { ...fields(), installation_id: elsewhere.installationId });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('Installation introuvable.');
    });
    const platform = await h.createUser({ role: 'admin_plus', agenceId: world.agenceId });
    expect((await createTicket(h, platform, { ...fields(), installation_id: elsewhere.installationId })).statusCode).toBe(201);
  });

  it('lets télésurveillance create for its assigned agencies only, with the answer its form reads', async () => {
    const elsewhere = await createWorld(h);
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
    const res = await createTicket(h, veille, fields());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, ticket_id: expect.any(String) });
    const ticket = await detail(admin, res.json().ticket_id);
    expect(ticket).toMatchObject({ source: 'telesurveillance', operateur_nom: 'Veille', statut: 'ouvert' });

    await expectNothingWritten(async () => {
      const out = await createTicket(h, veille, { ...fields(), installation_id: elsewhere.installationId });
      expect(out.statusCode).toBe(404);
      expect(out.json().error).toBe('Installation introuvable.');
    });
  });

  it('takes from télésurveillance only its form’s fields (issue 17): backdating, a technician, urgency, a remark are refused with 400 and nothing is written', async () => {
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
    const foreign: Record<string, string>[] = [
      { date_enregistrement: '2020-01-01', heure_enregistrement: '08:00' },
      { remarque_tech: 'Réparé, rien à signaler' },
      { id_technicien: tech.id },
      { urgent: '1' },
      { date_cloture: '2026-01-01' },
      { statut: 'clos' },
    ];
    for (const extra of foreign) {
      await expectNothingWritten(async () => {
        const res = await createTicket(h, veille, fields(extra));
        expect(res.statusCode, JSON.stringify(extra)).toBe(400);
        expect(res.json().error).toBe(M.telesurvFieldsNotAllowed(Object.keys(extra)));
      });
    }
    // JSON clients too (the route also reads JSON bodies).
    await expectNothingWritten(async () => {
      const res = await h.request(veille, { method: 'POST', url: '/api/tickets/manual/ticket-create', payload: { ...fields(), urgent: true } });
      expect(res.statusCode).toBe(400);
    });
    // Its form's own fields, the cascade included, and blank inputs it may send: accepted.
    const ok = await createTicket(h, veille, fields({ agence_id: world.agenceId, client_id: world.clientId, site_id: world.siteId, remarque_tech: ' ' }), pngFile());
    expect(ok.statusCode).toBe(201);
    // Staff keep every field of theirs.
    expect((await createTicket(h, admin, fields({ remarque_tech: 'Vu sur place', urgent: '1' }))).statusCode).toBe(201);
  });

  it('answers 401 without a token', async () => {
    const res = await h.request(null, { method: 'POST', url: '/api/tickets/manual/ticket-create', ...(await multipart(fields())) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Session expirée');
  });
});
