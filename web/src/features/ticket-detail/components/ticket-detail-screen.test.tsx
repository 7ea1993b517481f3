import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDS, jsonResponse, makeIntervention, makeTicket, makeUser, mockApi, renderApp, sentBody, signIn, ticketDetailRoutes } from '../../../testing/render-app';

const path = `/tickets/${IDS.ticket}`;

function routes(ticket = makeTicket(), extra: Record<string, unknown> = {}) {
  return {
    ...ticketDetailRoutes({
      ticket,
      contacts: [{ id: IDS.contact, nom: 'Durand', prenom: 'Alice', email: 'alice@example.fr', telephone: '04 72 00 00 00' }],
    }),
    ...extra,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ticket detail', () => {
  it('shows the ticket, its summary and its contacts, with a way back', async () => {
    signIn();
    mockApi(routes());
    const app = renderApp(path);
    expect(screen.getByText('Chargement…')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket LYO-2026-0001' })).toBeTruthy();
    const info = within(screen.getByRole('region', { name: 'Informations' }));
    expect(info.getByText('Hôpital Nord')).toBeTruthy();
    expect(info.getByText('1 rue de la Paix, 69001 Lyon')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Problème constaté' })).getByText('Alarme en dérangement au niveau 2')).toBeTruthy();
    expect(info.getByText('Paul Martin')).toBeTruthy();

    const contact = within(screen.getByRole('region', { name: 'Contact' }));
    expect(contact.getByRole('link', { name: 'julie.bernard@example.fr' }).getAttribute('href')).toBe('mailto:julie.bernard@example.fr');
    expect(contact.getByRole('link', { name: '06 12 34 56 78' }).getAttribute('href')).toBe('tel:0612345678');
    expect(await contact.findByText('Alice Durand')).toBeTruthy();

    await app.user.click(screen.getByRole('link', { name: /Retour aux tickets/ }));
    expect(app.pathname()).toBe('/tickets');
  });

  it("falls back to the site's contacts when the installation has none", async () => {
    signIn();
    const api = mockApi(
      routes(makeTicket(), {
        'GET /api/interlocuteurs/installation/:id': [],
        'GET /api/interlocuteurs/site/:id': [{ id: IDS.contact2, nom: 'Morel', prenom: 'Bruno', email: null, telephone: null }],
      }),
    );
    renderApp(path);
    const contact = within(await screen.findByRole('region', { name: 'Contact' }));
    expect(await contact.findByText('Bruno Morel')).toBeTruthy();
    expect(api.calls('GET /api/interlocuteurs/site/:id')[0]!.path).toBe(`/api/interlocuteurs/site/${IDS.site}`);
  });

  it("says 'Erreur lors du chargement des interlocuteurs' when they fail to load", async () => {
    signIn();
    mockApi(routes(makeTicket(), { 'GET /api/interlocuteurs/installation/:id': jsonResponse(500, {}) }));
    renderApp(path);
    const contact = within(await screen.findByRole('region', { name: 'Contact' }));
    expect((await contact.findByRole('alert')).textContent).toBe('Erreur lors du chargement des interlocuteurs');
  });

  it("shows 'Ticket non trouvé' with a back button on a 404", async () => {
    signIn();
    mockApi({ 'GET /api/tickets/:id': jsonResponse(404, { error: 'Ticket non trouvé' }) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Ticket non trouvé' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Retour aux tickets/ })).toBeTruthy();
  });

  it("shows 'Erreur lors du chargement du ticket' on any other failure", async () => {
    signIn();
    mockApi({ 'GET /api/tickets/:id': jsonResponse(500, {}) });
    renderApp(path);
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors du chargement du ticket');
  });

  it('opens the photo full size', async () => {
    signIn();
    mockApi(routes(makeTicket({ photo: '/api/files/abc' })));
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Agrandir la photo' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Photo' }));
    expect(dialog.getByRole('img').getAttribute('src')).toBe('/api/files/abc');
  });
});

describe('history of interventions', () => {
  it('leaves out the main intervention of an open ticket nobody reached yet', async () => {
    signIn();
    mockApi(routes());
    renderApp(path);
    const timeline = within(await screen.findByRole('region', { name: 'Historique des interventions' }));
    expect(timeline.getByText('Ticket ouvert')).toBeTruthy();
    expect(timeline.queryByText('Intervention')).toBeNull();
    // The running deadline bar is still shown on the opening.
    expect(timeline.getByRole('meter', { name: 'Délai d’intervention' })).toBeTruthy();
  });

  it('lists re-interventions then the closing visit, flags the last one finished, each with its deadline bar', async () => {
    signIn();
    const closed = makeTicket({
      statut: 'clos',
      arrive_at: '2026-03-10T15:00:00.000Z',
      clos_at: '2026-03-10T16:00:00.000Z',
      technicien_prenom: 'Lucie',
      technicien_nom: 'Petit',
      id_technicien: IDS.technicien,
      constat_tech: 'Carte remplacée',
      etat_arrivee: 'Hors service',
      etat_depart: 'Fonctionnel',
      interventions_count: 2,
      interventions_supp_count: 1,
    });
    // Opened 08:00, deadline 12:00 (4 h): the re-intervention ended at 10:00 (50 %), the closure at 16:00 (late).
    mockApi(routes(closed, { 'GET /api/tickets/:id/interventions': [makeIntervention()] }));
    renderApp(path);
    const timeline = within(await screen.findByRole('region', { name: 'Historique des interventions' }));
    await timeline.findByText('Ré-intervention 1');
    const items = timeline.getAllByRole('listitem');
    const titles = items.map((item) => item.querySelector('.timeline__title')?.textContent);
    expect(titles).toEqual(['Ticket ouvert', 'Pris en charge', 'Ré-intervention 1', 'Intervention de clôture', 'Ticket clos']);

    const reintervention = within(items[2]!);
    expect(reintervention.queryByText('Terminé')).toBeNull();
    const firstBar = reintervention.getByRole('meter', { name: 'Délai d’intervention' });
    expect(firstBar.getAttribute('aria-valuenow')).toBe('50');
    expect(firstBar.querySelector('.progress__fill--orange')).toBeTruthy();

    const closing = within(items[3]!);
    expect(closing.getByText('Terminé')).toBeTruthy();
    expect(closing.getByText('Carte remplacée')).toBeTruthy();
    const lastBar = closing.getByRole('meter', { name: 'Délai d’intervention' });
    expect(lastBar.querySelector('.progress__fill--red')).toBeTruthy();
    expect(lastBar.getAttribute('aria-valuetext')).toMatch(/^Échéance dépassée de 4,0 h/);
  });

  it('shows the main intervention of a ticket in intervention even before arrival', async () => {
    signIn();
    mockApi(routes(makeTicket({ statut: 'intervention', technicien_prenom: 'Lucie', technicien_nom: 'Petit', id_technicien: IDS.technicien })));
    renderApp(path);
    const timeline = within(await screen.findByRole('region', { name: 'Historique des interventions' }));
    expect(await timeline.findByText('Intervention')).toBeTruthy();
    expect(timeline.queryByText('Terminé')).toBeNull();
  });
});

describe('quote box', () => {
  it('counts down the 5 days of a pending quote in words and colour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-12T05:00:00.000Z'));
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    mockApi(routes(makeTicket({ statut: 'clos', clos_at: '2026-03-10T10:00:00.000Z', devis: 1, date_devis: '2026-03-10T10:00:00.000Z' })));
    renderApp(path);
    const box = within(await screen.findByRole('region', { name: 'Devis' }));
    // Due 15/03 10:00 UTC; 3 days 5 hours left: still green.
    const bar = box.getByRole('meter', { name: 'Délai d’enregistrement du devis' });
    expect(bar.getAttribute('aria-valuetext')).toMatch(/^reste 3 j 5 h/);
    expect(bar.querySelector('.progress__fill--green')).toBeTruthy();
    expect(box.getByRole('button', { name: 'Valider le devis' })).toBeTruthy();
  });

  it.each([
    ['2026-03-13T10:00:00.000Z', 'reste 2 j 0 h', 'yellow'],
    ['2026-03-14T12:00:00.000Z', 'reste 0 j 22 h', 'red'],
    ['2026-03-16T12:00:00.000Z', 'Délai de 5 jours dépassé', 'red'],
  ])('at %s reads "%s" in %s', async (now, words, colour) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(now));
    signIn();
    mockApi(routes(makeTicket({ statut: 'clos', clos_at: '2026-03-10T10:00:00.000Z', devis: 1, date_devis: '2026-03-10T10:00:00.000Z' })));
    renderApp(path);
    const bar = within(await screen.findByRole('region', { name: 'Devis' })).getByRole('meter');
    expect(bar.getAttribute('aria-valuetext')?.startsWith(words)).toBe(true);
    expect(bar.querySelector(`.progress__fill--${colour}`)).toBeTruthy();
    // Without tickets.devis there is nothing to validate.
    expect(screen.queryByRole('button', { name: 'Valider le devis' })).toBeNull();
  });

  it('shows the number and date of a validated quote', async () => {
    signIn();
    mockApi(routes(makeTicket({ statut: 'clos', devis: 1, numero_devis: 'DV-77', date_enregistrement_devis: '2026-03-12' })));
    renderApp(path);
    const box = within(await screen.findByRole('region', { name: 'Devis' }));
    expect(box.getByText('DV-77')).toBeTruthy();
    expect(box.getByText('12/03/2026')).toBeTruthy();
    expect(box.queryByRole('meter')).toBeNull();
  });

  it('validates a pending quote from the detail', async () => {
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    const api = mockApi(
      routes(makeTicket({ statut: 'clos', devis: 1, date_devis: '2026-03-10T10:00:00.000Z' }), {
        'PATCH /api/tickets/:id/update': { success: true },
      }),
    );
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Valider le devis' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Valider le devis' }));
    await app.user.type(dialog.getByLabelText('Numéro de devis'), 'DV-9');
    await app.user.click(dialog.getByRole('button', { name: 'Valider le devis' }));
    await waitFor(() => expect(api.calls('PATCH /api/tickets/:id/update')).toHaveLength(1));
    await waitFor(() => expect(api.calls('GET /api/tickets/:id').length).toBeGreaterThan(1));
  });
});

describe('quick actions', () => {
  it('takes an open ticket in charge once a technician is chosen', async () => {
    signIn();
    const taken = makeTicket({ statut: 'en_cours', technicien_prenom: 'Marc', technicien_nom: 'Roux', id_technicien: IDS.technicien2 });
    let current = makeTicket();
    const api = mockApi(
      routes(makeTicket(), {
        'GET /api/tickets/:id': () => current,
        'PATCH /api/tickets/:id': () => {
          current = taken;
          return taken;
        },
      }),
    );
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Prendre en charge' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Prendre en charge' }));
    const confirm = dialog.getByRole('button', { name: 'Confirmer' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);

    await dialog.findByRole('option', { name: 'Marc Roux' });
    await app.user.selectOptions(dialog.getByRole('combobox', { name: 'Technicien' }), IDS.technicien2);
    expect(confirm.disabled).toBe(false);
    await app.user.click(confirm);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(api.calls('PATCH /api/tickets/:id')[0])).toEqual({ statut: 'en_cours', technicien_id: IDS.technicien2 });
    expect(await screen.findByText('Ticket LYO-2026-0001 pris en charge par Marc Roux.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Clôturer le ticket' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Prendre en charge' })).toBeNull();
  });

  it("shows 'Problème constaté' in its own card, first of the detail (first on a phone, before the actions)", async () => {
    signIn();
    mockApi(routes(makeTicket({ probleme: 'Sirène muette\nboucle 3' })));
    renderApp(path);
    const problem = await screen.findByRole('region', { name: 'Problème constaté' });
    expect(problem.querySelector('p')?.textContent).toBe('Sirène muette\nboucle 3');
    const layout = problem.parentElement!;
    expect(layout.firstElementChild).toBe(problem);
    expect(problem.compareDocumentPosition(screen.getByRole('region', { name: 'Actions rapides' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Informations' })).queryByText('Problème constaté')).toBeNull();
  });

  it('pre-selects the signed-in technician, who can still pick someone else', async () => {
    signIn(makeUser({ id: IDS.technicien, prenom: 'Lucie', nom: 'Petit', role: 'technicien' }));
    mockApi(routes(makeTicket()));
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Prendre en charge' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Prendre en charge' }));
    await dialog.findByRole('option', { name: 'Lucie Petit' });
    const select = dialog.getByRole('combobox', { name: 'Technicien' }) as HTMLSelectElement;
    expect(select.value).toBe(IDS.technicien);
    expect((dialog.getByRole('button', { name: 'Confirmer' }) as HTMLButtonElement).disabled).toBe(false);
    await app.user.selectOptions(select, IDS.technicien2);
    expect(select.value).toBe(IDS.technicien2);
  });

  it("shows the server's refusal of a take-in-charge", async () => {
    signIn();
    mockApi(routes(makeTicket(), { 'PATCH /api/tickets/:id': jsonResponse(409, { error: 'Ce ticket est déjà pris en charge.' }) }));
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Prendre en charge' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Prendre en charge' }));
    await dialog.findByRole('option', { name: 'Lucie Petit' });
    await app.user.selectOptions(dialog.getByRole('combobox', { name: 'Technicien' }), IDS.technicien);
    await app.user.click(dialog.getByRole('button', { name: 'Confirmer' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Ce ticket est déjà pris en charge.');
  });

  it('offers closing and re-intervention on a ticket in progress', async () => {
    signIn();
    mockApi(routes(makeTicket({ statut: 'en_cours', id_technicien: IDS.technicien })));
    renderApp(path);
    expect(await screen.findByRole('button', { name: 'Clôturer le ticket' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ré-intervention' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Prendre en charge' })).toBeNull();
  });

  it('shows no action on a closed ticket', async () => {
    signIn();
    mockApi(routes(makeTicket({ statut: 'clos', clos_at: '2026-03-10T10:00:00.000Z' })));
    renderApp(path);
    const actions = within(await screen.findByRole('region', { name: 'Actions rapides' }));
    expect(actions.getByText('Ticket clos : aucune action.')).toBeTruthy();
    expect(actions.queryAllByRole('button')).toHaveLength(0);
  });
});

describe('report links (issue 17: no session token in a URL)', () => {
  const closedWithReports = () =>
    makeTicket({
      statut: 'clos',
      arrive_at: '2026-03-10T15:00:00.000Z',
      clos_at: '2026-03-10T16:00:00.000Z',
      nom_rapport: 'rapport-LYO-2026-0001-aaaaaaaa.pdf',
      interventions_count: 2,
      interventions_supp_count: 1,
    });
  const linkFor = (filename: string) => ({ success: true, filename, downloadUrl: `/api/reports/download/${filename}?token=lien-${filename.slice(-12, -4)}` });

  it('the detail and the intervention history link each report with a download token bound to its file', async () => {
    signIn(makeUser(), 'jeton-de-session');
    const api = mockApi(
      routes(closedWithReports(), {
        'GET /api/tickets/:id/interventions': [makeIntervention({ nom_rapport: 'rapport-LYO-2026-0001-intervention-1-bbbbbbbb.pdf' })],
        'GET /api/reports/download/:filename/link': (_request: unknown, params: Record<string, string>) => linkFor(params.filename!),
      }),
    );
    renderApp(path);
    const summary = within(await screen.findByRole('region', { name: 'Résumé' }));
    const main = await summary.findByRole('link', { name: 'Télécharger le rapport' });
    expect(main.getAttribute('href')).toBe('/api/reports/download/rapport-LYO-2026-0001-aaaaaaaa.pdf?token=lien-aaaaaaaa');
    const timeline = within(screen.getByRole('region', { name: 'Historique des interventions' }));
    const visit = await timeline.findByRole('link', { name: /Télécharger le rapport \(rapport-LYO-2026-0001-intervention-1-bbbbbbbb\.pdf\)/ });
    expect(visit.getAttribute('href')).toBe('/api/reports/download/rapport-LYO-2026-0001-intervention-1-bbbbbbbb.pdf?token=lien-bbbbbbbb');
    for (const link of screen.getAllByRole('link')) expect(link.getAttribute('href') ?? '').not.toContain('jeton-de-session');
    // The links were asked for with the session token in the header, as every call.
    const asked = api.calls('GET /api/reports/download/:filename/link');
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const call of asked) {
      expect(new Headers(call.init.headers).get('Authorization')).toBe('Bearer jeton-de-session');
      expect(call.query.toString()).toBe('');
    }
  });

  it('says so instead of linking when the server has no link for the report', async () => {
    signIn();
    mockApi(routes(closedWithReports(), { 'GET /api/reports/download/:filename/link': jsonResponse(404, { error: 'Rapport introuvable.' }) }));
    renderApp(path);
    const summary = within(await screen.findByRole('region', { name: 'Résumé' }));
    expect(await summary.findByText('(Rapport introuvable.)')).toBeTruthy();
    expect(summary.queryByRole('link', { name: /Télécharger le rapport/ })).toBeNull();
  });
});

describe("'Historique' tab", () => {
  it('lists the audit events with who and when', async () => {
    signIn();
    const api = mockApi(
      routes(makeTicket(), {
        'GET /api/tickets/:id/history': {
          ticket_id: IDS.ticket,
          num_chrono: 'LYO-2026-0001',
          events: [
            {
              revision: 0,
              type: 'TicketOpened',
              recorded_at: '2026-03-10T08:00:00.000Z',
              user_id: 'u-9',
              user_name: 'Paul Martin',
              data: { source: 'manual', client: { nom: 'Hôpital Nord' }, site: { nom: 'Bâtiment A' }, installation: { nom: 'SSI' } },
            },
            {
              revision: 1,
              type: 'TicketTakenInCharge',
              recorded_at: '2026-03-10T08:30:00.000Z',
              user_id: 'u-9',
              user_name: 'Paul Martin',
              data: { technicien: { id: IDS.technicien, prenom: 'Lucie', nom: 'Petit' } },
            },
          ],
        },
      }),
    );
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('tab', { name: 'Historique' }));
    expect(screen.getByRole('tab', { name: 'Historique' }).getAttribute('aria-selected')).toBe('true');
    const list = within(await screen.findByRole('list', { name: 'Historique du ticket' }));
    expect(list.getByText('Ticket ouvert')).toBeTruthy();
    expect(list.getByText('Origine : saisie manuelle')).toBeTruthy();
    expect(list.getByText('Pris en charge')).toBeTruthy();
    expect(list.getByText('Technicien : Lucie Petit')).toBeTruthy();
    expect(list.getAllByText(/Paul Martin/)).toHaveLength(2);
    expect(list.getByText(/10\/03\/2026 09:30/)).toBeTruthy();
    expect(api.calls('GET /api/tickets/:id/history')).toHaveLength(1);
  });
});
