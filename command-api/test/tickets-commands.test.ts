import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES as M, ticketSchema } from '@fsm/contracts';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { TECHNICIEN_NOT_IN_AGENCE } from '../src/commands/tickets/ticket-command-support.js';
import { createWorld, openTicketId, ticketStream, visitBody, type World } from './tickets-fixtures.js';
import { storedFiles } from './security/state-snapshot.js';
import { signaturePng } from '@fsm/workers/test-support';

let h: ApiHarness;
let world: World;
let admin: TestUser;
let tech: TestUser;
let techPlus: TestUser;
let noQuotes: TestUser;
beforeAll(async () => {
  h = await createApiHarness('api_tickets_commands');
  world = await createWorld(h, { agenceNom: 'Grenoble' });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  techPlus = await h.createUser({ role: 'technicien_plus', agenceId: world.agenceId });
  noQuotes = await h.createUser({ role: 'technicien', agenceId: world.agenceId, permissions: [] });
});
afterAll(async () => h?.close());

const open = () => openTicketId(h, admin, world.installationId);
/** A ticket registered on 10/01/2026 at 07:30 in Paris: visits and quotes below are typed after it. */
const openOn10January = () => openTicketId(h, admin, world.installationId, { date_enregistrement: '2026-01-10', heure_enregistrement: '07:30' });
const take = (user: TestUser, id: string, technicienId = tech.id) =>
  h.request(user, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: technicienId } });
const close = (user: TestUser, id: string, payload: object = visitBody()) => h.request(user, { method: 'PATCH', url: `/api/tickets/${id}/close`, payload });
const reintervene = (user: TestUser, id: string, payload: object = visitBody()) => h.request(user, { method: 'POST', url: `/api/tickets/${id}/intervention`, payload });
const get = (user: TestUser, id: string) => h.request(user, { method: 'GET', url: `/api/tickets/${id}` });

/** The command changed nothing: same events in the ticket's stream. */
async function expectStreamUnchanged(id: string, action: () => Promise<void>) {
  const before = await ticketStream(h, id);
  await action();
  expect(await ticketStream(h, id)).toEqual(before);
}

describe('the whole flow over HTTP', () => {
  it('create → take in charge → close with signatures → re-read shows clos; history lists who did what', async () => {
    const id = await openOn10January();
    const taken = await take(tech, id);
    expect(taken.statusCode).toBe(200);
    expect(ticketSchema.parse(taken.json())).toMatchObject({ id, statut: 'en_cours', id_technicien: tech.id, technicien_prenom: 'technicien' });

    const closed = await close(tech, id, visitBody({ arrive_at: '2026-01-10T08:00', date_cloture: '2026-01-10T09:15', devis: 1 }));
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({
      id,
      statut: 'clos',
      clos_at: '2026-01-10T08:15:00.000Z',
      arrive_at: '2026-01-10T07:00:00.000Z',
      constat_tech: 'Détecteur encrassé remplacé',
      remarque_tech: 'RAS',
      etat_arrivee: 'En dérangement',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:30',
      devis: 1,
      numero_devis: null,
      date_devis: '2026-01-10T08:15:00.000Z',
      interventions_count: 1,
    });
    expect(JSON.stringify(closed.json())).not.toMatch(/signature/i);
    // Read your writes: the next GET shows it too.
    expect((await get(tech, id)).json().statut).toBe('clos');

    const history = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history` });
    expect(history.statusCode).toBe(200);
    const body = history.json();
    expect(body.ticket_id).toBe(id);
    expect(body.events.map((e: { type: string }) => e.type)).toEqual(['TicketOpened', 'TicketTakenInCharge', 'TicketClosed']);
    expect(body.events.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2]);
    expect(body.events.map((e: { user_id: string }) => e.user_id)).toEqual([admin.id, tech.id, tech.id]);
    expect(body.events[1].user_name).toBe('technicien Test');
    expect(Date.parse(body.events[0].recorded_at)).not.toBeNaN();
    expect(body.events[2].data).toMatchObject({ constatTech: 'Détecteur encrassé remplacé', devis: 1 });
    expect(body.events[2].data).not.toHaveProperty('signatureClient');
    expect(body.events[0].data).not.toHaveProperty('photo');
    expect(body.snapshot).toBeUndefined();

    const atTaken = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history?at=1` });
    expect(atTaken.statusCode).toBe(200);
    expect(atTaken.json().snapshot).toMatchObject({ revision: 1, state: { status: 'en_cours', technicien: { id: tech.id }, quote: { status: 'none' } } });
    const atOpened = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history?at=0` });
    expect(atOpened.json().snapshot.state.status).toBe('ouvert');
    const atClosed = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history?at=2` });
    expect(atClosed.json().snapshot.state).toMatchObject({ status: 'clos', quote: { status: 'pending' } });

    const unknownRevision = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history?at=3` });
    expect(unknownRevision.statusCode).toBe(404);
    const badRevision = await h.request(admin, { method: 'GET', url: `/api/tickets/${id}/history?at=-1` });
    expect(badRevision.statusCode).toBe(400);
    expect(badRevision.json().error).toBe('Révision invalide.');
  });
});

describe('PATCH /api/tickets/{id} (take in charge, report name)', () => {
  it('lets exactly one of two technicians taking the same ticket at once win; the other gets 409 in French', async () => {
    const id = await open();
    const [first, second] = await Promise.all([take(tech, id, tech.id), take(techPlus, id, techPlus.id)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const loser = first.statusCode === 409 ? first : second;
    expect([M.alreadyTakenInCharge, 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.']).toContain(loser.json().error);
    expect((await ticketStream(h, id)).map((e) => e.type)).toEqual(['TicketOpened', 'TicketTakenInCharge']);
  });

  it('answers 409 for a ticket already in charge, 400 for a missing or foreign technician, state unchanged', async () => {
    const id = await open();
    await expectStreamUnchanged(id, async () => {
      const res = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Merci de choisir un technicien.');
    });
    const stranger = await h.createUser({ role: 'technicien' });
    await expectStreamUnchanged(id, async () => {
      const res = await take(tech, id, stranger.id);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(TECHNICIEN_NOT_IN_AGENCE);
    });
    await expectStreamUnchanged(id, async () => {
      const res = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'clos', technicien_id: tech.id } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(M.invalidStatut);
    });
    expect((await take(tech, id)).statusCode).toBe(200);
    await expectStreamUnchanged(id, async () => {
      const res = await take(techPlus, id, techPlus.id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(M.alreadyTakenInCharge);
    });
  });

  it('saves the report name of a closed ticket (permission tickets.devis), once', async () => {
    const id = await open();
    await take(tech, id);
    await expectStreamUnchanged(id, async () => {
      const early = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { nom_rapport: 'rapport.pdf' } });
      expect(early.statusCode).toBe(409);
      expect(early.json().error).toBe(M.reportNeedsClosedTicket);
    });
    await close(tech, id);
    await expectStreamUnchanged(id, async () => {
      const forbidden = await h.request(noQuotes, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { nom_rapport: 'rapport.pdf' } });
      expect(forbidden.statusCode).toBe(403);
    });
    await expectStreamUnchanged(id, async () => {
      const bad = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { nom_rapport: '../etc/passwd' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe(M.invalidNomRapport);
    });
    const saved = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { nom_rapport: 'rapport_1.pdf' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().nom_rapport).toBe('rapport_1.pdf');
    await expectStreamUnchanged(id, async () => {
      expect((await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { nom_rapport: 'rapport_1.pdf' } })).statusCode).toBe(200);
    });
  });
});

describe('PATCH /api/tickets/{id}/close and POST /api/tickets/{id}/intervention', () => {
  it('records re-interventions (status intervention) then closes; the visit defaults to now and to the technician in charge', async () => {
    const id = await open();
    await take(admin, id, tech.id);
    const first = await reintervene(techPlus, id, visitBody({ technicien_id: techPlus.id, constat_tech: 'Pièce à commander', etat_depart: 'Partiellement fonctionnel' }));
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ statut: 'intervention', id_technicien: tech.id, interventions_supp_count: 1, interventions_count: 1, devis: 0 });
    const second = await reintervene(tech, id, visitBody({ devis: 1 }));
    expect(second.json()).toMatchObject({ statut: 'intervention', interventions_supp_count: 2, devis: 1 });

    const list = await h.request(tech, { method: 'GET', url: `/api/tickets/${id}/interventions` });
    expect(list.statusCode).toBe(200);
    const interventions = list.json();
    expect(interventions).toHaveLength(2);
    expect(interventions[0]).toMatchObject({ ordinal: 1, ticket_id: id, technicien_id: techPlus.id, technicien_prenom: 'technicien_plus', constat_tech: 'Pièce à commander', temps_trajet: '00:30', nom_rapport: null });
    expect(interventions[1]).toMatchObject({ ordinal: 2, technicien_id: tech.id, devis: 1 });
    expect(interventions[1].arrive_at).toBe(interventions[1].clos_at);

    const named = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/interventions/${interventions[0].id}`, payload: { nom_rapport: 'rapport_visite_1.pdf' } });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({ id: interventions[0].id, nom_rapport: 'rapport_visite_1.pdf' });
    const unknown = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/interventions/${crypto.randomUUID()}`, payload: { nom_rapport: 'x.pdf' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(M.interventionNotFound);
    const forbidden = await h.request(noQuotes, { method: 'PATCH', url: `/api/tickets/${id}/interventions/${interventions[0].id}`, payload: { nom_rapport: 'y.pdf' } });
    expect(forbidden.statusCode).toBe(403);

    const closed = await close(tech, id);
    expect(closed.json()).toMatchObject({ statut: 'clos', interventions_supp_count: 2, interventions_count: 3, devis: 1 });
    await expectStreamUnchanged(id, async () => {
      for (const again of [await close(tech, id), await reintervene(tech, id), await take(tech, id)]) {
        expect(again.statusCode).toBe(409);
        expect(again.json().error).toBe(M.ticketClosed);
      }
    });
  });

  it('records who signed for the client and in which role with the visit; without them the event has neither (the requester signed)', async () => {
    const id = await open();
    await take(tech, id);
    expect((await reintervene(tech, id)).statusCode).toBe(201);
    const closed = await close(tech, id, visitBody({ signataire_nom: ' Marc Petit ', signataire_qualite: 'Responsable sécurité' }));
    expect(closed.statusCode).toBe(200);
    const visits = (await ticketStream(h, id)).filter((event) => event.type === 'ReinterventionRecorded' || event.type === 'TicketClosed');
    expect(visits.map((event) => event.type)).toEqual(['ReinterventionRecorded', 'TicketClosed']);
    expect(visits[0]!.data).not.toHaveProperty('signataireNom');
    expect(visits[0]!.data).not.toHaveProperty('signataireQualite');
    expect(visits[1]!.data).toMatchObject({ signataireNom: 'Marc Petit', signataireQualite: 'Responsable sécurité' });
  });

  it('records the signed-in user as the visit\'s author beside the technician named (issue 32)', async () => {
    const id = await open();
    await take(tech, id);
    expect((await reintervene(techPlus, id)).statusCode).toBe(201);
    const visits = (await ticketStream(h, id)).filter((event) => event.type === 'ReinterventionRecorded');
    expect(visits[0]!.data).toMatchObject({ technicien: { id: tech.id }, auteur: { id: techPlus.id, prenom: 'technicien_plus', nom: 'Test' } });
  });

  it('« Je suis sur site » records the arrival once, by the server clock; the ticket shows it until the close (issue 32)', async () => {
    const id = await open();
    const early = await h.request(tech, { method: 'POST', url: `/api/tickets/${id}/sur-site` });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(M.notTakenInCharge);
    await take(tech, id);
    const first = await h.request(tech, { method: 'POST', url: `/api/tickets/${id}/sur-site` });
    expect(first.statusCode).toBe(200);
    const arrivedAt = first.json().arrive_at as string;
    expect(arrivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Math.abs(Date.parse(arrivedAt) - Date.now())).toBeLessThan(60_000);
    expect(first.json().statut).toBe('en_cours');
    await expectStreamUnchanged(id, async () => {
      const again = await h.request(techPlus, { method: 'POST', url: `/api/tickets/${id}/sur-site` });
      expect(again.statusCode).toBe(200);
      expect(again.json().arrive_at).toBe(arrivedAt);
    });
    const arrivals = (await ticketStream(h, id)).filter((event) => event.type === 'TechnicianArrivedOnSite');
    expect(arrivals).toHaveLength(1);
    expect(arrivals[0]!.data).toMatchObject({ technicien: { id: tech.id }, arrivedAt });
  });

  it('answers 409 before a technician took the ticket', async () => {
    const id = await open();
    await expectStreamUnchanged(id, async () => {
      const res = await close(tech, id);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(M.notTakenInCharge);
    });
  });

  it('answers 400 with the French message and changes nothing for a bad visit report', async () => {
    const id = await open();
    await take(tech, id);
    const cases: [object, string][] = [
      [visitBody({ constat_tech: '   ' }), 'Le constat du technicien est obligatoire'],
      [visitBody({ etat_arrivee: 'Cassé' as never }), M.invalidArrivalState],
      [visitBody({ etat_depart: 'Bof' as never }), M.invalidDepartureState],
      [visitBody({ temps_trajet: '25:00' }), M.invalidTravelTime],
      [visitBody({ signature_client: '' }), M.signatureClientRequired],
      [visitBody({ signature_technicien: undefined as never }), M.signatureTechnicienRequired],
      [visitBody({ signature_client: 'data:image/png;base64,aGVsbG8=' }), M.invalidSignature],
      [visitBody({ devis: 2 as never }), M.invalidDevis],
      [visitBody({ arrive_at: '2026-01-10T10:00', date_cloture: '2026-01-10T09:00' }), M.arrivalAfterClosure],
      [visitBody({ date_cloture: '2026-13-40T10:00' }), M.invalidDate],
      // Issue 17: a visit dated 1500, or before the opening, stopped the read side; one in the future cannot have happened.
      [visitBody({ arrive_at: '1500-01-10T08:00', date_cloture: '1500-01-10T09:00' }), M.dateOutOfRange],
      [visitBody({ date_cloture: '0100-01-10T09:00' }), M.dateOutOfRange],
      [visitBody({ arrive_at: '2026-01-09T08:00', date_cloture: '2026-01-09T09:00' }), M.visitBeforeOpening],
      [visitBody({ date_cloture: '2099-01-10T09:00' }), M.visitInFuture],
      [visitBody({ constat_tech: 'Détecteur \u202Eéssarcne' }), M.hiddenCharacters],
      // Issue 18: who signed for the client is printed on the report, bounded like every stored text.
      [visitBody({ signataire_nom: 'Marc\u200B Petit' }), M.hiddenCharacters],
      [visitBody({ signataire_qualite: 'x'.repeat(201) }), M.textTooLong],
    ];
    for (const [payload, message] of cases) {
      await expectStreamUnchanged(id, async () => {
        for (const res of [await close(tech, id, payload), await reintervene(tech, id, payload)]) {
          expect(res.statusCode, message).toBe(400);
          expect(res.json().error).toBe(message);
        }
      });
    }
  });
});

describe('visit dates (issue 17)', () => {
  it('refuses a visit dated before the opening before storing its signatures, and accepts one typed in the minute of the opening', async () => {
    const id = await openOn10January();
    await take(tech, id);
    // A signature no other test sends, so its file would be new.
    const signature = `data:image/png;base64,${signaturePng(17).toString('base64')}`;
    const filesBefore = await storedFiles(h);
    await expectStreamUnchanged(id, async () => {
      const res = await close(tech, id, visitBody({ arrive_at: '2026-01-10T07:29', date_cloture: '2026-01-10T08:00', signature_client: signature, signature_technicien: signature }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(M.visitBeforeOpening);
    });
    expect(await storedFiles(h)).toEqual(filesBefore);
    const onTime = await close(tech, id, visitBody({ arrive_at: '2026-01-10T07:30', date_cloture: '2026-01-10T08:00', signature_client: signature, signature_technicien: signature }));
    expect(onTime.statusCode, onTime.body).toBe(200);
    expect(onTime.json()).toMatchObject({ statut: 'clos', arrive_at: '2026-01-10T06:30:00.000Z' });
    // The same signature is stored once the visit is accepted: the refusal above is what kept it out.
    expect((await storedFiles(h)).length).toBe(filesBefore.length + 1);
    // The state still answers first: a closed ticket is 'clos' whatever the dates typed.
    const again = await close(tech, id, visitBody({ arrive_at: '2026-01-09T07:29', date_cloture: '2026-01-09T08:00' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(M.ticketClosed);
  });
});

describe('PATCH /api/tickets/{id}/update (quote)', () => {
  it('validates a pending quote once, with tickets.devis', async () => {
    const id = await openOn10January();
    await take(tech, id);
    await close(tech, id, visitBody({ devis: 1 }));
    await expectStreamUnchanged(id, async () => {
      const missing = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: ' ' } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error).toBe('Le numéro de devis est obligatoire.');
    });
    await expectStreamUnchanged(id, async () => {
      const forbidden = await h.request(noQuotes, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-1' } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().error).toBe('Accès refusé.');
    });
    for (const [date, message] of [
      ['2026-01-09', M.quoteDateBeforeOpening],
      ['1500-01-12', M.dateOutOfRange],
      ['2099-01-12', M.quoteDateInFuture],
    ] as const) {
      await expectStreamUnchanged(id, async () => {
        const refused = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-1', date_enregistrement_devis: date } });
        expect(refused.statusCode, date).toBe(400);
        expect(refused.json().error).toBe(message);
      });
    }
    const ok = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-1', date_enregistrement_devis: '2026-01-12' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect((await get(tech, id)).json()).toMatchObject({ numero_devis: 'DEV-1', date_enregistrement_devis: '2026-01-12', devis: 1 });
    await expectStreamUnchanged(id, async () => {
      const again = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-2' } });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe(M.quoteAlreadyValidated);
    });
  });

  it('answers 409 when no quote is pending', async () => {
    const id = await open();
    await expectStreamUnchanged(id, async () => {
      const res = await h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-3' } });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(M.noQuotePending);
    });
  });
});

describe('access to ticket commands', () => {
  it('answers 401 without a token, 403 for télésurveillance, 404 for another agency’s or an unknown ticket', async () => {
    const id = await open();
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
    const outsider = await h.createUser({ role: 'admin' });
    const requests = [
      { method: 'PATCH' as const, url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: tech.id } },
      { method: 'PATCH' as const, url: `/api/tickets/${id}/close`, payload: visitBody() },
      { method: 'POST' as const, url: `/api/tickets/${id}/intervention`, payload: visitBody() },
      { method: 'PATCH' as const, url: `/api/tickets/${id}/interventions/${crypto.randomUUID()}`, payload: { nom_rapport: 'a.pdf' } },
      { method: 'PATCH' as const, url: `/api/tickets/${id}/update`, payload: { numero_devis: 'DEV-9' } },
      { method: 'GET' as const, url: `/api/tickets/${id}/history` },
    ];
    await expectStreamUnchanged(id, async () => {
      for (const request of requests) {
        expect((await h.request(null, request)).statusCode, request.url).toBe(401);
        const telesurv = await h.request(veille, request);
        expect(telesurv.statusCode, request.url).toBe(403);
        expect(telesurv.json().error).toBe('Accès refusé.');
        const foreign = await h.request(outsider, request);
        expect(foreign.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(foreign.json().error).toMatch(/^(Ticket non trouvé|Intervention non trouvée)$/);
      }
    });
    const unknown = await take(admin, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Ticket non trouvé');
    const malformed = await take(admin, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe(M.invalidId);
  });
});
