import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interventionSchema, sortTicketsForList, ticketSchema, type TicketVisitReport } from '@fsm/contracts';
import { createReadModelHarness, type ReadModelHarness } from '../../test-support/read-model-harness.js';
import { ticketInterventionsProjector } from './ticket-interventions-projector.js';
import { listInterventions } from './ticket-interventions-queries.js';
import { ticketsProjector } from './tickets-projector.js';
import { closedTicketPages, searchClosedTickets } from './closed-tickets-queries.js';
import { listOpenTickets, openTicketPages } from './open-tickets-queries.js';
import { ticketSummaryCounts } from './ticket-summary-queries.js';
import { findTicket, findVisitSignatures } from './tickets-queries.js';

const projectors = [ticketsProjector, ticketInterventionsProjector];

let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_tickets', projectors);
});
afterAll(async () => h?.close());

const now = new Date('2026-11-20T12:00:00.000Z');

interface OpenOptions {
  agenceId: string;
  openedAt?: string;
  urgent?: boolean;
  clientId?: string;
  siteId?: string;
  installationId?: string;
  metierId?: string | null;
  photo?: string | null;
}

function opened(ticketId: string, o: OpenOptions) {
  const metierId = o.metierId === undefined ? randomUUID() : o.metierId;
  return {
    type: 'TicketOpened',
    data: {
      ticketId,
      numChrono: `LYO-2026-${ticketId.slice(0, 5)}`,
      source: 'manual',
      agenceId: o.agenceId,
      client: { id: o.clientId ?? randomUUID(), nom: 'Hôpital Nord' },
      site: { id: o.siteId ?? randomUUID(), nom: 'Bâtiment A', adresse: '1 rue du Feu', code_postal: '69001', ville: 'Lyon' },
      installation: { id: o.installationId ?? randomUUID(), nom: 'SSI cat. A', astreinte: 1 },
      metier: metierId === null ? null : { id: metierId, nom: 'SSI' },
      delai: 4,
      echeance: new Date(Date.parse(o.openedAt ?? '2026-11-20T08:00:00.000Z') + 4 * 3_600_000).toISOString(),
      urgent: o.urgent ?? false,
      probleme: 'Alarme en dérangement',
      photo: o.photo === undefined ? `${'a'.repeat(64)}.jpg` : o.photo,
      requester: { nom: 'Durand', prenom: 'Paul', email: 'paul@client.fr', telephone: '0601020304' },
      operateur: { id: randomUUID(), prenom: 'Olga', nom: 'Opérat' },
      openedAt: o.openedAt ?? '2026-11-20T08:00:00.000Z',
    },
  };
}

const tech = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };
const otherTech = { id: randomUUID(), prenom: 'Marc', nom: 'Petit' };

function takenInCharge(technicien = tech, takenAt = '2026-11-20T08:30:00.000Z') {
  return { type: 'TicketTakenInCharge', data: { technicien, takenAt } };
}

function visit(overrides: Partial<TicketVisitReport> = {}): TicketVisitReport {
  return {
    constatTech: 'Détecteur encrassé',
    remarqueTech: 'Nettoyé',
    devis: 0,
    arriveAt: '2026-11-20T09:00:00.000Z',
    closedAt: '2026-11-20T10:00:00.000Z',
    etatArrivee: 'En dérangement',
    etatDepart: 'Fonctionnel',
    tempsTrajet: '00:45',
    signatureClient: `${'c'.repeat(64)}.png`,
    signatureTechnicien: `${'d'.repeat(64)}.png`,
    technicien: tech,
    ...overrides,
  };
}

const closed = (overrides: Partial<TicketVisitReport> = {}) => ({ type: 'TicketClosed', data: visit(overrides) });
const reintervention = (interventionId: string, overrides: Partial<TicketVisitReport> = {}) => ({
  type: 'ReinterventionRecorded',
  data: { ...visit(overrides), interventionId },
});
const report = (nomRapport: string, interventionId: string | null = null) => ({ type: 'TicketReportAttached', data: { nomRapport, interventionId } });

const stream = (id: string) => `ticket-${id}`;

describe('tickets read model', () => {
  it('follows a ticket from opening to closure', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    await h.given(stream(id), [opened(id, { agenceId: agence, urgent: true })]);

    let ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticketSchema.parse(ticket)).toBeTruthy();
    expect(ticket).toMatchObject({
      statut: 'ouvert',
      urgent: true,
      agence_id: agence,
      created_at: '2026-11-20T08:00:00.000Z',
      echeance: '2026-11-20T12:00:00.000Z',
      delai: 4,
      astreinte: 1,
      photo: `/api/files/${'a'.repeat(64)}.jpg`,
      operateur_prenom: 'Olga',
      prenom: 'Paul',
      nom: 'Durand',
      email: 'paul@client.fr',
      telephone: '0601020304',
      id_technicien: null,
      clos_at: null,
      devis: 0,
      interventions_count: 0,
      minutes_ecoulees: 240,
      source: 'manual',
    });

    await h.given(stream(id), [takenInCharge()]);
    ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticket).toMatchObject({ statut: 'en_cours', id_technicien: tech.id, technicien_prenom: 'Léa', technicien_nom: 'Martin' });

    // Someone else did the closing visit: the card still names the technician in charge.
    await h.given(stream(id), [closed({ technicien: otherTech })]);
    ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticketSchema.parse(ticket)).toBeTruthy();
    expect(ticket).toMatchObject({
      statut: 'clos',
      clos_at: '2026-11-20T10:00:00.000Z',
      arrive_at: '2026-11-20T09:00:00.000Z',
      constat_tech: 'Détecteur encrassé',
      remarque_tech: 'Nettoyé',
      etat_arrivee: 'En dérangement',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:45',
      id_technicien: tech.id,
      minutes_ecoulees: 120,
      interventions_supp_count: 0,
      interventions_count: 1,
      nom_rapport: null,
    });
    expect(JSON.stringify(ticket)).not.toContain('c'.repeat(64));
    expect(await findVisitSignatures(h.pool, id, null)).toEqual({
      signature_client_ref: `${'c'.repeat(64)}.png`,
      signature_technicien_ref: `${'d'.repeat(64)}.png`,
      technicien_prenom: 'Marc',
      technicien_nom: 'Petit',
    });
    expect(await listOpenTickets(h.pool, [agence], now)).toEqual([]);
    expect((await searchClosedTickets(h.pool, [agence], now, {})).map((t) => t.id)).toEqual([id]);
    // The closing technician finds it too.
    expect((await searchClosedTickets(h.pool, [agence], now, { technicien_id: otherTech.id })).map((t) => t.id)).toEqual([id]);
  });

  it('shows « Je suis sur site » as the arrival of the visit in progress, cleared by a re-intervention, replaced by the close (issue 32)', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    const arrival = (arrivedAt: string) => ({ type: 'TechnicianArrivedOnSite', data: { technicien: tech, arrivedAt } }) as const;
    await h.given(stream(id), [opened(id, { agenceId: agence }), takenInCharge(), arrival('2026-11-20T08:40:00.000Z')]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({ statut: 'en_cours', arrive_at: '2026-11-20T08:40:00.000Z' });
    await h.given(stream(id), [reintervention(randomUUID())]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({ statut: 'intervention', arrive_at: null });
    await h.given(stream(id), [arrival('2026-11-20T08:50:00.000Z'), closed()]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({ statut: 'clos', arrive_at: '2026-11-20T09:00:00.000Z' });
  });

  it('computes minutes_ecoulees from the now it is given, never stored', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    await h.given(stream(id), [opened(id, { agenceId: agence, openedAt: '2026-11-20T10:00:30.000Z', photo: null })]);
    expect((await findTicket(h.pool, 'all', id, new Date('2026-11-20T10:59:29.000Z')))?.minutes_ecoulees).toBe(58);
    expect((await findTicket(h.pool, 'all', id, new Date('2026-11-21T10:00:30.000Z')))?.minutes_ecoulees).toBe(1440);
    // A registration typed slightly in the future never gives a negative duration.
    expect((await findTicket(h.pool, 'all', id, new Date('2026-11-20T09:00:00.000Z')))?.minutes_ecoulees).toBe(0);
    expect((await listOpenTickets(h.pool, [agence], new Date('2026-11-20T12:00:30.000Z')))[0]?.minutes_ecoulees).toBe(120);
    expect((await findTicket(h.pool, 'all', id, now))?.photo).toBeNull();
  });

  it('records re-interventions: status intervention, counts, order, then closure', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    const first = randomUUID();
    const second = randomUUID();
    await h.given(stream(id), [opened(id, { agenceId: agence }), takenInCharge(), reintervention(first, { constatTech: 'Première visite' })]);
    let ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticket).toMatchObject({ statut: 'intervention', interventions_supp_count: 1, interventions_count: 1, id_technicien: tech.id, constat_tech: null });

    await h.given(stream(id), [reintervention(second, { constatTech: 'Deuxième visite', technicien: otherTech })]);
    ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticket).toMatchObject({ statut: 'intervention', interventions_supp_count: 2, interventions_count: 2, id_technicien: tech.id });
    expect((await listOpenTickets(h.pool, [agence], now, { statut: 'intervention' })).map((t) => t.id)).toEqual([id]);

    const interventions = await listInterventions(h.pool, id);
    for (const intervention of interventions) expect(interventionSchema.parse(intervention)).toBeTruthy();
    expect(interventions.map((i) => [i.id, i.ordinal, i.constat_tech, i.technicien_nom])).toEqual([
      [first, 1, 'Première visite', 'Martin'],
      [second, 2, 'Deuxième visite', 'Petit'],
    ]);
    expect(interventions[0]).toMatchObject({
      ticket_id: id,
      arrive_at: '2026-11-20T09:00:00.000Z',
      clos_at: '2026-11-20T10:00:00.000Z',
      etat_arrivee: 'En dérangement',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:45',
      devis: 0,
      nom_rapport: null,
    });
    // When it was recorded: the store's instant, an ISO string.
    expect(Date.parse(interventions[0]?.created_at ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(interventions)).not.toContain('c'.repeat(64));
    expect(await findVisitSignatures(h.pool, id, second)).toMatchObject({ signature_client_ref: `${'c'.repeat(64)}.png`, technicien_nom: 'Petit' });

    await h.given(stream(id), [closed({ closedAt: '2026-11-21T10:00:00.000Z' })]);
    ticket = await findTicket(h.pool, 'all', id, now);
    expect(ticket).toMatchObject({ statut: 'clos', interventions_supp_count: 2, interventions_count: 3 });
    expect(await listInterventions(h.pool, id)).toHaveLength(2);
  });

  it('keeps report names on the ticket and on each re-intervention', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    const visitId = randomUUID();
    await h.given(stream(id), [opened(id, { agenceId: agence }), takenInCharge(), reintervention(visitId), report('rapport-inter-1.pdf', visitId)]);
    expect((await listInterventions(h.pool, id))[0]?.nom_rapport).toBe('rapport-inter-1.pdf');
    expect((await findTicket(h.pool, 'all', id, now))?.nom_rapport).toBeNull();

    await h.given(stream(id), [closed(), report('rapport-1.pdf'), report('rapport-1-bis.pdf')]);
    expect((await findTicket(h.pool, 'all', id, now))?.nom_rapport).toBe('rapport-1-bis.pdf');
    expect((await listInterventions(h.pool, id))[0]?.nom_rapport).toBe('rapport-inter-1.pdf');
  });

  it('opens a quote at the first visit asking for one and validates it', async () => {
    const agence = randomUUID();
    const id = randomUUID();
    await h.given(stream(id), [
      opened(id, { agenceId: agence }),
      takenInCharge(),
      reintervention(randomUUID(), { devis: 1, closedAt: '2026-11-20T10:00:00.000Z' }),
      // A later visit without a quote neither withdraws it nor moves its window.
      reintervention(randomUUID(), { devis: 0, closedAt: '2026-11-20T11:00:00.000Z' }),
    ]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({ devis: 1, date_devis: '2026-11-20T10:00:00.000Z', numero_devis: null });
    expect((await listOpenTickets(h.pool, [agence], now, { devis_attente: true })).map((t) => t.id)).toEqual([id]);
    expect(await ticketSummaryCounts(h.pool, [agence])).toMatchObject({ intervention: 1, devis_attente: 1, clos_devis_attente: 0 });

    await h.given(stream(id), [closed({ devis: 1, closedAt: '2026-11-21T10:00:00.000Z' })]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({ devis: 1, date_devis: '2026-11-20T10:00:00.000Z' });
    expect(await ticketSummaryCounts(h.pool, [agence])).toMatchObject({ clos: 1, devis_attente: 0, clos_devis_attente: 1 });
    expect((await searchClosedTickets(h.pool, [agence], now, { devis_attente: true })).map((t) => t.id)).toEqual([id]);

    await h.given(stream(id), [
      { type: 'QuoteValidated', data: { numeroDevis: 'D-2026-118', dateEnregistrementDevis: '2026-11-22', validatedAt: '2026-11-22T09:00:00.000Z' } },
    ]);
    expect(await findTicket(h.pool, 'all', id, now)).toMatchObject({
      devis: 1,
      numero_devis: 'D-2026-118',
      date_enregistrement_devis: '2026-11-22',
      date_devis: '2026-11-20T10:00:00.000Z',
    });
    expect(await searchClosedTickets(h.pool, [agence], now, { devis_attente: true })).toEqual([]);
    expect(await ticketSummaryCounts(h.pool, [agence])).toMatchObject({ clos: 1, clos_devis_attente: 0 });
  });

  it('orders the open list as compareTicketsForList and applies its filters', async () => {
    const agence = randomUUID();
    const at = (hour: number) => `2026-11-19T${String(hour).padStart(2, '0')}:00:00.000Z`;
    const tickets: { id: string; events: { type: string; data: unknown }[] }[] = [];
    const add = (o: Omit<OpenOptions, 'agenceId'>, ...more: { type: string; data: unknown }[]) => {
      const id = randomUUID();
      tickets.push({ id, events: [opened(id, { agenceId: agence, ...o }), ...more] });
    };
    add({ openedAt: at(8) });
    add({ openedAt: at(9) }, takenInCharge());
    add({ openedAt: at(7), urgent: true }, takenInCharge());
    add({ openedAt: at(10) }, takenInCharge(), reintervention(randomUUID()));
    add({ openedAt: at(6), urgent: true });
    add({ openedAt: at(11) });
    // Same instant twice: the id decides, the same way on every refetch.
    add({ openedAt: at(5) });
    add({ openedAt: at(5) });
    add({ openedAt: at(12), urgent: true }, takenInCharge(), closed());
    for (const t of tickets) await h.given(stream(t.id), t.events);

    const list = await listOpenTickets(h.pool, [agence], now);
    expect(list).toHaveLength(8);
    expect(list.map((t) => t.id)).toEqual(sortTicketsForList(list).map((t) => t.id));
    expect(list.map((t) => [t.urgent, t.statut])).toEqual([
      [true, 'en_cours'],
      [true, 'ouvert'],
      [false, 'ouvert'],
      [false, 'ouvert'],
      [false, 'ouvert'],
      [false, 'ouvert'],
      [false, 'intervention'],
      [false, 'en_cours'],
    ]);
    expect((await listOpenTickets(h.pool, [agence], now, { urgent: true })).every((t) => t.urgent)).toBe(true);
    expect(await listOpenTickets(h.pool, [agence], now, { urgent: true })).toHaveLength(2);
    expect((await listOpenTickets(h.pool, [agence], now, { statut: 'ouvert' })).map((t) => t.statut)).toEqual(['ouvert', 'ouvert', 'ouvert', 'ouvert', 'ouvert']);
    expect(await listOpenTickets(h.pool, [agence], now, { statut: 'en_cours' })).toHaveLength(2);
    expect(await ticketSummaryCounts(h.pool, [agence])).toEqual({
      ouvert: 5,
      en_cours: 2,
      intervention: 1,
      clos: 1,
      urgent: 2,
      devis_attente: 0,
      clos_devis_attente: 0,
    });
  });

  it('searches closed tickets by request day (Paris, inclusive) and by every filter', async () => {
    const agence = randomUUID();
    const [clientA, clientB, siteA, siteB, instA, instB, metierA, metierB] = Array.from({ length: 8 }, () => randomUUID());
    const closedTicket = async (o: Omit<OpenOptions, 'agenceId'>, technicien = tech) => {
      const id = randomUUID();
      await h.given(stream(id), [opened(id, { agenceId: agence, ...o }), takenInCharge(technicien), closed({ technicien })]);
      return id;
    };
    // 23:30 UTC on 31 October is 00:30 on 1 November in Paris (UTC+1 in winter).
    const nov1 = await closedTicket({ openedAt: '2026-10-31T23:30:00.000Z', clientId: clientA, siteId: siteA, installationId: instA, metierId: metierA });
    // 22:59 UTC on 31 October is 23:59 on 31 October in Paris.
    const oct31 = await closedTicket({ openedAt: '2026-10-31T22:59:00.000Z', clientId: clientB, siteId: siteB, installationId: instB, metierId: metierB }, otherTech);
    const nov10 = await closedTicket({ openedAt: '2026-11-10T22:59:00.000Z', clientId: clientA, siteId: siteB, installationId: instB, metierId: null });
    const nov11 = await closedTicket({ openedAt: '2026-11-10T23:00:00.000Z', clientId: clientA, siteId: siteA, installationId: instA, metierId: metierA });
    const open = randomUUID();
    await h.given(stream(open), [opened(open, { agenceId: agence, openedAt: '2026-11-05T10:00:00.000Z', clientId: clientA })]);

    const ids = async (filters: Parameters<typeof searchClosedTickets>[3]) => (await searchClosedTickets(h.pool, [agence], now, filters)).map((t) => t.id);
    expect(await ids({})).toEqual([nov11, nov10, nov1, oct31]);
    expect(await ids({ date_debut: '2026-11-01', date_fin: '2026-11-10' })).toEqual([nov10, nov1]);
    expect(await ids({ date_debut: '2026-10-31', date_fin: '2026-10-31' })).toEqual([oct31]);
    expect(await ids({ date_debut: '2026-11-11' })).toEqual([nov11]);
    expect(await ids({ date_fin: '2026-10-31' })).toEqual([oct31]);
    expect(await ids({ client_id: clientA })).toEqual([nov11, nov10, nov1]);
    expect(await ids({ site_id: siteB })).toEqual([nov10, oct31]);
    expect(await ids({ installation_id: instA })).toEqual([nov11, nov1]);
    expect(await ids({ technicien_id: otherTech.id })).toEqual([oct31]);
    expect(await ids({ technicien_id: tech.id })).toEqual([nov11, nov10, nov1]);
    expect(await ids({ metier_id: metierA })).toEqual([nov11, nov1]);
    expect(await ids({ client_id: clientA, site_id: siteA, date_fin: '2026-11-10' })).toEqual([nov1]);
    expect(await ids({ client_id: randomUUID() })).toEqual([]);
    expect(await ids({ devis_attente: true })).toEqual([]);
    expect(await ticketSummaryCounts(h.pool, [agence], { date_debut: '2026-11-01', date_fin: '2026-11-10' })).toMatchObject({ clos: 2, ouvert: 1 });
  });

  it('streams the closed search in pages that add up to the whole answer, and frees the connection when the reader stops', async () => {
    const agence = randomUUID();
    for (let i = 0; i < 7; i++) {
      const id = randomUUID();
      await h.given(stream(id), [opened(id, { agenceId: agence, openedAt: `2026-11-1${i}T09:00:00.000Z` }), takenInCharge(), closed()]);
    }
    const whole = await searchClosedTickets(h.pool, [agence], now, {});
    const pages: number[] = [];
    const streamed = [];
    for await (const page of closedTicketPages(h.pool, [agence], now, {}, 3)) {
      pages.push(page.length);
      streamed.push(...page);
    }
    expect(pages).toEqual([3, 3, 1]);
    expect(streamed).toEqual(whole);
    expect(whole).toHaveLength(7);

    // A reader that leaves after the first page: the transaction is rolled back and the connection returned.
    const single = new pg.Pool({ connectionString: h.db.url, max: 1 });
    try {
      for await (const page of closedTicketPages(single, [agence], now, {}, 3)) {
        expect(page).toHaveLength(3);
        break;
      }
      const { rows } = await single.query<{ idle: boolean }>(`SELECT now() = statement_timestamp() AS idle`);
      expect(rows[0]!.idle).toBe(true); // not inside a leftover transaction
      expect(single.totalCount - single.idleCount).toBe(0);
    } finally {
      await single.end();
    }
  });

  it('counts the streamed list first, in its snapshot, and gives the connection back when the count refuses it (issue 28)', async () => {
    const agence = randomUUID();
    for (let i = 0; i < 4; i++) {
      const id = randomUUID();
      await h.given(stream(id), [opened(id, { agenceId: agence, openedAt: `2026-11-1${i}T09:00:00.000Z` }), takenInCharge(), closed()]);
    }
    const single = new pg.Pool({ connectionString: h.db.url, max: 1 });
    try {
      const told: number[] = [];
      const refuse = ({ total }: { total: number }) => {
        told.push(total);
        if (total > 3) throw new Error('too many');
      };
      await expect(closedTicketPages(single, [agence], now, { q: 'a' }, 2, refuse).next()).rejects.toThrow('too many');
      expect(told).toEqual([4]);
      expect(single.totalCount - single.idleCount).toBe(0);
      const { rows } = await single.query<{ idle: boolean }>(`SELECT now() = statement_timestamp() AS idle`);
      expect(rows[0]!.idle).toBe(true); // the refused read's transaction is over
      const pages: number[] = [];
      for await (const page of openTicketPages(single, [agence], now, {}, 2, ({ total }) => told.push(total))) pages.push(page.length);
      expect(pages).toEqual([]);
      expect(told).toEqual([4, 0]);
    } finally {
      await single.end();
    }
  });

  it('shows each caller only the agencies in scope', async () => {
    const lyon = randomUUID();
    const paris = randomUUID();
    const inLyon = randomUUID();
    const inParis = randomUUID();
    const closedInParis = randomUUID();
    const visitId = randomUUID();
    await h.given(stream(inLyon), [opened(inLyon, { agenceId: lyon }), takenInCharge(), reintervention(visitId)]);
    await h.given(stream(inParis), [opened(inParis, { agenceId: paris, urgent: true })]);
    await h.given(stream(closedInParis), [opened(closedInParis, { agenceId: paris }), takenInCharge(), closed()]);

    expect((await listOpenTickets(h.pool, [lyon], now)).map((t) => t.id)).toEqual([inLyon]);
    expect((await listOpenTickets(h.pool, [paris], now)).map((t) => t.id)).toEqual([inParis]);
    expect((await listOpenTickets(h.pool, [lyon, paris], now)).map((t) => t.id)).toEqual([inParis, inLyon]);
    expect(await listOpenTickets(h.pool, [], now)).toEqual([]);
    const all = (await listOpenTickets(h.pool, 'all', now)).map((t) => t.id);
    expect(all).toEqual(expect.arrayContaining([inLyon, inParis]));

    expect(await searchClosedTickets(h.pool, [lyon], now, {})).toEqual([]);
    expect((await searchClosedTickets(h.pool, [paris], now, {})).map((t) => t.id)).toEqual([closedInParis]);

    expect(await findTicket(h.pool, [paris], inLyon, now)).toBeNull();
    expect((await findTicket(h.pool, [lyon], inLyon, now))?.id).toBe(inLyon);
    expect(await findTicket(h.pool, 'all', randomUUID(), now)).toBeNull();
    expect(await findTicket(h.pool, 'all', 'not-an-id', now)).toBeNull();

    expect(await listInterventions(h.pool, inLyon, [paris])).toEqual([]);
    expect((await listInterventions(h.pool, inLyon, [lyon])).map((i) => i.id)).toEqual([visitId]);

    expect(await ticketSummaryCounts(h.pool, [lyon])).toEqual({ ouvert: 0, en_cours: 0, intervention: 1, clos: 0, urgent: 0, devis_attente: 0, clos_devis_attente: 0 });
    expect(await ticketSummaryCounts(h.pool, [paris])).toEqual({ ouvert: 1, en_cours: 0, intervention: 0, clos: 1, urgent: 1, devis_attente: 0, clos_devis_attente: 0 });
  });

  describe('idempotence', () => {
    const snapshot = async () => ({
      tickets: (await h.pool.query('SELECT * FROM rm.tickets ORDER BY id')).rows,
      interventions: (await h.pool.query('SELECT * FROM rm.ticket_interventions ORDER BY id')).rows,
    });

    it('changes nothing when events are delivered again, or late, in one batch or one at a time', async () => {
      const agence = randomUUID();
      const id = randomUUID();
      const visitId = randomUUID();
      await h.given(stream(id), [
        opened(id, { agenceId: agence }),
        takenInCharge(),
        reintervention(visitId, { devis: 1 }),
        report('inter.pdf', visitId),
        closed(),
        report('final.pdf'),
        { type: 'QuoteValidated', data: { numeroDevis: 'D-1', dateEnregistrementDevis: '2026-11-22', validatedAt: '2026-11-22T09:00:00.000Z' } },
      ]);
      const before = await snapshot();
      const recorded = await h.store.readStream(stream(id));
      const client = await h.pool.connect();
      try {
        await client.query('BEGIN');
        // Everything again, then the oldest events once more (a late
        // redelivery): to the one writer the runner calls, as one batch (a
        // redelivered batch) and one event at a time (after a failed batch).
        const again = [...recorded, ...recorded.slice(0, 3)];
        for (const projector of projectors) await projector.apply(client, again.filter((event) => projector.handles.includes(event.type)));
        for (const event of again) {
          for (const projector of projectors) if (projector.handles.includes(event.type)) await projector.apply(client, [event]);
        }
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      expect(await snapshot()).toEqual(before);
      const row = before.tickets.find((t: { id: string }) => t.id === id);
      expect(row).toMatchObject({ statut: 'clos', interventions_supp_count: 1, nom_rapport: 'final.pdf', last_revision: recorded.length - 1 });
    });

    it('gives the same rows after a rebuild', async () => {
      const before = await snapshot();
      expect(before.tickets.length).toBeGreaterThan(10);
      expect(before.interventions.length).toBeGreaterThan(3);
      await h.rebuild();
      expect(await snapshot()).toEqual(before);
    });

    it('vacuums and analyzes the replayed tables once the rebuild has caught up, so the planner knows how many tickets are open', async () => {
      const analyzed = async () =>
        (await h.pool.query<{ relname: string }>(`SELECT relname FROM pg_stat_user_tables WHERE schemaname = 'rm' AND last_analyze IS NOT NULL AND last_vacuum IS NOT NULL`)).rows.map(
          (row) => row.relname,
        );
      await h.rebuild();
      const deadline = Date.now() + 15_000;
      while (!(await analyzed()).includes('tickets') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await analyzed()).toEqual(expect.arrayContaining(['tickets', 'ticket_interventions']));
    });
  });
});
