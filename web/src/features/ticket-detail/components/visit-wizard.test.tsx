import { TICKET_ARRIVAL_STATES, TICKET_DEPARTURE_STATES } from '@fsm/contracts';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { padFor } from '../../../testing/fake-signature-pad';
import {
  IDS,
  jsonResponse,
  makeIntervention,
  makeTicket,
  makeUser,
  mockApi,
  renderApp,
  sentBody,
  signIn,
  ticketDetailRoutes,
  type RecordedRequest,
} from '../../../testing/render-app';
import { getSession } from '../../../lib/session';
import { draftKey } from '../visit-draft';

vi.mock('signature_pad', () => import('../../../testing/fake-signature-pad'));

const path = `/tickets/${IDS.ticket}`;
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const inProgress = makeTicket({ statut: 'en_cours', technicien_prenom: 'Lucie', technicien_nom: 'Petit', id_technicien: IDS.technicien });
const closed = makeTicket({ ...inProgress, statut: 'clos', clos_at: '2026-03-10T11:00:00.000Z' });

function setup(options: { permissions?: string[]; extra?: Record<string, unknown> } = {}) {
  const user = signIn(makeUser({ id: 'u-7', permissions: options.permissions ?? [] }));
  let current = inProgress;
  const api = mockApi({
    ...ticketDetailRoutes({
      ticket: () => current,
      contacts: [
        { id: IDS.contact, nom: 'Durand', prenom: 'Alice', email: 'alice@example.fr', telephone: null },
        { id: IDS.contact2, nom: 'Morel', prenom: 'Bruno', email: null, telephone: '0600000000' },
      ],
    }),
    'PATCH /api/tickets/:id/close': () => {
      current = closed;
      return closed;
    },
    ...options.extra,
  });
  const app = renderApp(path);
  return { app, api, user };
}

type Ctx = ReturnType<typeof setup>;

function wizard() {
  return within(screen.getByRole('dialog'));
}

async function openWizard({ app }: Ctx, action = 'Clôturer le ticket') {
  await app.user.click(await screen.findByRole('button', { name: action }));
  return wizard();
}

async function fillStep1({ app }: Ctx) {
  await app.user.click(wizard().getByRole('radio', { name: 'Hors service' }));
  await app.user.click(wizard().getByRole('button', { name: 'Suivant' }));
}

async function fillStep2({ app }: Ctx, constat = 'Détecteur remplacé') {
  await app.user.type(wizard().getByLabelText('Constat du technicien'), constat);
  await app.user.click(wizard().getByRole('radio', { name: 'Fonctionnel' }));
  await app.user.click(wizard().getByRole('button', { name: 'Suivant' }));
}

function sign(label: string) {
  act(() => padFor(screen.getByRole('img', { name: label })).stroke());
}

async function finish(ctx: Ctx, submit = 'Valider la clôture') {
  await fillStep1(ctx);
  await fillStep2(ctx);
  sign('Signature du client');
  sign('Signature du technicien');
  await ctx.app.user.click(wizard().getByRole('button', { name: submit }));
}

describe('close wizard', () => {
  it('walks the 3 steps; states come from the spec lists; travel time defaults to 00:00', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    expect(screen.getByRole('dialog', { name: 'Clôturer le ticket' })).toBeTruthy();
    expect(dialog.getByRole('heading', { name: 'Étape 1 sur 3 : Arrivée sur site' })).toBeTruthy();
    expect((dialog.getByLabelText('Temps de trajet (HH:mm)') as HTMLInputElement).value).toBe('00:00');
    expect(dialog.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual([...TICKET_ARRIVAL_STATES]);
    expect((dialog.getByRole('combobox', { name: 'Technicien' }) as HTMLSelectElement).value).toBe(IDS.technicien);

    await ctx.app.user.click(dialog.getByRole('button', { name: 'Suivant' }));
    expect(dialog.getByRole('alert').textContent).toBe('Choisissez l’état de l’installation à l’arrivée.');

    await fillStep1(ctx);
    expect(dialog.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' })).toBeTruthy();
    expect(dialog.getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual([...TICKET_DEPARTURE_STATES]);

    await ctx.app.user.click(dialog.getByRole('button', { name: 'Précédent' }));
    expect(dialog.getByRole('heading', { name: 'Étape 1 sur 3 : Arrivée sur site' })).toBeTruthy();
    expect((dialog.getByRole('radio', { name: 'Hors service' }) as HTMLInputElement).checked).toBe(true);
  });

  it("requires the constat: 'Le constat du technicien est obligatoire'", async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    await fillStep1(ctx);
    await ctx.app.user.click(dialog.getByRole('radio', { name: 'Fonctionnel' }));
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Suivant' }));
    expect(dialog.getByText('Le constat du technicien est obligatoire')).toBeTruthy();
    expect(dialog.getByLabelText('Constat du technicien').getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' })).toBeTruthy();
  });

  it('never advances or sends on Enter outside a text area; Enter in the constat is a new line', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    await ctx.app.user.click(dialog.getByRole('radio', { name: 'En service' }));
    await ctx.app.user.type(dialog.getByLabelText('Temps de trajet (HH:mm)'), '{Enter}');
    expect(dialog.getByRole('heading', { name: 'Étape 1 sur 3 : Arrivée sur site' })).toBeTruthy();

    await ctx.app.user.click(dialog.getByRole('button', { name: 'Suivant' }));
    const constat = dialog.getByLabelText('Constat du technicien') as HTMLTextAreaElement;
    await ctx.app.user.type(constat, 'Ligne 1{Enter}Ligne 2');
    expect(constat.value).toBe('Ligne 1\nLigne 2');
    expect(dialog.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' })).toBeTruthy();

    await ctx.app.user.click(dialog.getByRole('radio', { name: 'Fonctionnel' }));
    await ctx.app.user.type(dialog.getByLabelText('Date et heure de fin d’intervention'), '{Enter}');
    await ctx.app.user.type(dialog.getByRole('radio', { name: 'Fonctionnel' }), '{Enter}');
    expect(dialog.getByRole('heading', { name: 'Étape 2 sur 3 : Intervention' })).toBeTruthy();
    expect(ctx.api.calls('PATCH /api/tickets/:id/close')).toHaveLength(0);
  });

  it('asks for both signatures before sending', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    await fillStep1(ctx);
    await fillStep2(ctx);
    expect(dialog.getByRole('img', { name: 'Signature du client' })).toBeTruthy();
    expect(dialog.getByRole('img', { name: 'Signature du technicien' })).toBeTruthy();
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Valider la clôture' }));
    expect(dialog.getByText('La signature du client est obligatoire.')).toBeTruthy();
    expect(dialog.getByText('La signature du technicien est obligatoire.')).toBeTruthy();
    expect(ctx.api.calls('PATCH /api/tickets/:id/close')).toHaveLength(0);
  });

  it('sends the visit with PNG signatures, shows the result and clears the draft', async () => {
    const ctx = setup();
    await openWizard(ctx);
    await finish(ctx);

    expect(await screen.findByRole('heading', { name: 'Ticket clos' })).toBeTruthy();
    const body = sentBody(ctx.api.calls('PATCH /api/tickets/:id/close')[0]) as Record<string, unknown>;
    expect(body).toMatchObject({
      constat_tech: 'Détecteur remplacé',
      remarque_tech: '',
      devis: 0,
      etat_arrivee: 'Hors service',
      etat_depart: 'Fonctionnel',
      temps_trajet: '00:00',
      signature_client: PNG,
      signature_technicien: PNG,
      technicien_id: IDS.technicien,
    });
    expect(body.arrive_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
    // The end left empty: the visit ends when it is validated, by the server's clock (issue 32).
    expect(body).not.toHaveProperty('date_cloture');
    expect(window.localStorage.getItem(draftKey('u-7', IDS.ticket))).toBeNull();
    // Without tickets.devis no report is made.
    expect(ctx.api.requests.some((r) => r.path.startsWith('/api/reports'))).toBe(false);

    await ctx.app.user.click(screen.getByRole('button', { name: 'Terminer' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Ticket clos : aucune action.')).toBeTruthy();
  });

  it('asks who signs for the client: the requester by default, or the name and role typed', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    await fillStep1(ctx);
    await fillStep2(ctx);
    const name = dialog.getByLabelText('Nom du signataire (client)') as HTMLInputElement;
    const role = dialog.getByLabelText('Qualité du signataire') as HTMLInputElement;
    expect(name.value).toBe('Julie Bernard');
    expect(role.value).toBe('');
    sign('Signature du client');
    sign('Signature du technicien');
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Valider la clôture' }));
    await screen.findByRole('heading', { name: 'Ticket clos' });
    const body = sentBody(ctx.api.calls('PATCH /api/tickets/:id/close')[0]) as Record<string, unknown>;
    expect(body.signataire_nom).toBe('Julie Bernard');
    expect(body.signataire_qualite).toBeUndefined();
  });

  it('sends the signer typed in the wizard, and refuses a name longer than allowed with its French message', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    await fillStep1(ctx);
    await fillStep2(ctx);
    sign('Signature du client');
    sign('Signature du technicien');
    const name = dialog.getByLabelText('Nom du signataire (client)');
    await ctx.app.user.clear(name);
    await ctx.app.user.click(name);
    await ctx.app.user.paste('x'.repeat(201));
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Valider la clôture' }));
    expect(dialog.getByText('Texte trop long.')).toBeTruthy();
    expect(ctx.api.calls('PATCH /api/tickets/:id/close')).toHaveLength(0);

    await ctx.app.user.clear(name);
    await ctx.app.user.type(name, 'Marc Petit');
    await ctx.app.user.type(dialog.getByLabelText('Qualité du signataire'), 'Responsable sécurité');
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Valider la clôture' }));
    await screen.findByRole('heading', { name: 'Ticket clos' });
    const body = sentBody(ctx.api.calls('PATCH /api/tickets/:id/close')[0]) as Record<string, unknown>;
    expect(body).toMatchObject({ signataire_nom: 'Marc Petit', signataire_qualite: 'Responsable sécurité' });
  });

  it('shows the server refusal and keeps the draft', async () => {
    const ctx = setup({ extra: { 'PATCH /api/tickets/:id/close': jsonResponse(409, { error: 'Ce ticket est clos.' }) } });
    await openWizard(ctx);
    await finish(ctx);
    expect((await wizard().findByRole('alert')).textContent).toBe('Ce ticket est clos.');
    expect(window.localStorage.getItem(draftKey('u-7', IDS.ticket))).not.toBeNull();
  });

  it("a network drop at the final step keeps the user signed in on the wizard, says 'Erreur réseau.' and keeps what was entered", async () => {
    let online = false;
    const ctx = setup({
      extra: {
        'PATCH /api/tickets/:id/close': () => (online ? closed : Promise.reject(new TypeError('Failed to fetch'))),
      },
    });
    await openWizard(ctx);
    await finish(ctx);

    expect((await wizard().findByRole('alert')).textContent).toBe('Erreur réseau.');
    expect(ctx.app.pathname()).toBe(path);
    expect(getSession()).not.toBeNull();
    expect(wizard().getByRole('heading', { name: 'Étape 3 sur 3 : Signatures' })).toBeTruthy();
    expect(wizard().getAllByText('Signé')).toHaveLength(2);
    expect(window.localStorage.getItem(draftKey('u-7', IDS.ticket))).not.toBeNull();

    // The network is back: the same visit goes through without re-entering anything.
    online = true;
    await ctx.app.user.click(wizard().getByRole('button', { name: 'Valider la clôture' }));
    expect(await screen.findByRole('heading', { name: 'Ticket clos' })).toBeTruthy();
    expect(sentBody(ctx.api.calls('PATCH /api/tickets/:id/close')[1])).toMatchObject({ constat_tech: 'Détecteur remplacé', signature_client: PNG });
  });

  it('a session ended by the server at the final step: the login brings the user back to the ticket and the wizard where it was', async () => {
    let sessionValid = false;
    const ctx = setup({
      extra: {
        'PATCH /api/tickets/:id/close': () => (sessionValid ? closed : jsonResponse(401, { error: 'Jeton expiré' })),
        'POST /api/login': () => {
          sessionValid = true;
          return { token: 'jwt-neuf', user: makeUser({ id: 'u-7' }) };
        },
      },
    });
    await openWizard(ctx);
    await finish(ctx);

    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(ctx.app.router.state.location.search).toBe(`?retour=${encodeURIComponent(path)}`);
    await ctx.app.user.type(screen.getByLabelText('Email'), 'lucie@example.fr');
    await ctx.app.user.type(screen.getByLabelText('Mot de passe'), 'secret-1!');
    await ctx.app.user.click(screen.getByRole('button', { name: 'Se connecter' }));

    const dialog = await within(document.body).findByRole('dialog', { name: 'Clôturer le ticket' });
    expect(ctx.app.pathname()).toBe(path);
    expect(within(dialog).getByRole('heading', { name: 'Étape 3 sur 3 : Signatures' })).toBeTruthy();
    await ctx.app.user.click(within(dialog).getByRole('button', { name: 'Valider la clôture' }));
    expect(await screen.findByRole('heading', { name: 'Ticket clos' })).toBeTruthy();
  });

  it('keeps the draft across a reload and opens the wizard where it was, signatures included', async () => {
    const ctx = setup();
    await openWizard(ctx);
    await fillStep1(ctx);
    await fillStep2(ctx, 'Début du constat');
    sign('Signature du client');

    cleanup();
    const again = setup();
    const dialog = await within(document.body).findByRole('dialog', { name: 'Clôturer le ticket' });
    expect(within(dialog).getByRole('heading', { name: 'Étape 3 sur 3 : Signatures' })).toBeTruthy();
    expect(padFor(within(dialog).getByRole('img', { name: 'Signature du client' })).restoredFrom).toBe(PNG);
    expect(within(dialog).getByText('Signé')).toBeTruthy();
    await again.app.user.click(within(dialog).getByRole('button', { name: 'Précédent' }));
    expect((within(dialog).getByLabelText('Constat du technicien') as HTMLTextAreaElement).value).toBe('Début du constat');
  });

  it("'Plus tard' keeps the draft; the ticket then offers to resume or abandon it", async () => {
    const ctx = setup();
    await openWizard(ctx);
    await ctx.app.user.click(wizard().getByRole('radio', { name: 'En alarme feu' }));
    await ctx.app.user.click(wizard().getByRole('button', { name: 'Plus tard' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    await ctx.app.user.click(screen.getByRole('button', { name: 'Reprendre la saisie (clôturer le ticket)' }));
    expect((wizard().getByRole('radio', { name: 'En alarme feu' }) as HTMLInputElement).checked).toBe(true);
    await ctx.app.user.keyboard('{Escape}');

    // Asked first: Annuler keeps the draft, Abandonner drops it.
    await ctx.app.user.click(screen.getByRole('button', { name: 'Abandonner la saisie' }));
    const confirm = within(screen.getByRole('dialog', { name: 'Abandonner la saisie' }));
    expect(confirm.getByText('Abandonner la saisie en cours ? Ce qui a été saisi, signatures comprises, sera perdu.')).toBeTruthy();
    await ctx.app.user.click(confirm.getByRole('button', { name: 'Annuler' }));
    expect(window.localStorage.getItem(draftKey('u-7', IDS.ticket))).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Reprendre la saisie (clôturer le ticket)' })).toBeTruthy();
    await ctx.app.user.click(screen.getByRole('button', { name: 'Abandonner la saisie' }));
    await ctx.app.user.click(within(screen.getByRole('dialog', { name: 'Abandonner la saisie' })).getByRole('button', { name: 'Abandonner' }));
    expect(window.localStorage.getItem(draftKey('u-7', IDS.ticket))).toBeNull();
    expect(screen.getByRole('button', { name: 'Clôturer le ticket' })).toBeTruthy();
  });
});

describe('report after the visit (tickets.devis)', () => {
  const report = { success: true, downloadUrl: 'https://fsm.example/api/reports/download/r-1.pdf?token=abc', filename: 'r-1.pdf' };

  it('generates the report, saves its name on the ticket, offers it and e-mails the chosen recipients', async () => {
    const ctx = setup({
      permissions: ['tickets.devis'],
      extra: {
        'POST /api/reports/:file': report,
        'PATCH /api/tickets/:id': closed,
        'POST /api/reports/send-email': { success: true },
      },
    });
    await openWizard(ctx);
    await fillStep1(ctx);
    await fillStep2(ctx);
    const recipients = within(wizard().getByRole('group', { name: 'Envoyer le rapport à' }));
    expect((recipients.getByRole('checkbox', { name: /Julie Bernard .* demandeur/ }) as HTMLInputElement).checked).toBe(true);
    // Bruno has no e-mail: not offered.
    expect(recipients.getAllByRole('checkbox')).toHaveLength(2);
    await ctx.app.user.click(recipients.getByRole('checkbox', { name: 'Alice Durand (alice@example.fr)' }));
    sign('Signature du client');
    sign('Signature du technicien');
    await ctx.app.user.click(wizard().getByRole('button', { name: 'Valider la clôture' }));

    const link = await screen.findByRole('link', { name: 'Télécharger le rapport' });
    // The server's link, its token bound to the file: never the session token (issue 17).
    expect(link.getAttribute('href')).toBe(report.downloadUrl);
    expect(link.getAttribute('href')).not.toContain('test-token');

    const generate = ctx.api.calls('POST /api/reports/:file')[0] as RecordedRequest;
    expect(generate.path).toBe(`/api/reports/${IDS.ticket}.pdf`);
    expect(generate.query.get('isReintervention')).toBe('false');
    expect(sentBody(generate)).toEqual({
      signature: { client: PNG, technicien: PNG },
      demandeur: { prenom: 'Julie', nom: 'Bernard', email: 'julie.bernard@example.fr' },
      technicien: { nom: 'Petit', prenom: 'Lucie' },
    });
    await waitFor(() => expect(sentBody(ctx.api.calls('PATCH /api/tickets/:id')[0])).toEqual({ nom_rapport: 'r-1.pdf' }));
    expect(await screen.findByText('Rapport envoyé à julie.bernard@example.fr, alice@example.fr.')).toBeTruthy();
    expect(sentBody(ctx.api.calls('POST /api/reports/send-email')[0])).toEqual({
      recipients: [
        { email: 'julie.bernard@example.fr', nom: 'Bernard', prenom: 'Julie' },
        { email: 'alice@example.fr', nom: 'Durand', prenom: 'Alice' },
      ],
      ticketNumber: 'LYO-2026-0001',
      ticketInfo: { site: 'Bâtiment A', installation: 'SSI catégorie A' },
      downloadUrl: report.downloadUrl,
    });
  });

  it('saves a re-intervention report on the latest intervention', async () => {
    const ctx = setup({
      permissions: ['tickets.devis'],
      extra: {
        'POST /api/tickets/:id/intervention': jsonResponse(201, makeTicket({ ...inProgress, statut: 'intervention' })),
        'GET /api/tickets/:id/interventions': [makeIntervention({ id: IDS.intervention }), makeIntervention({ id: IDS.intervention2, created_at: '2026-03-11T10:00:00.000Z' })],
        'POST /api/reports/:file': report,
        'PATCH /api/tickets/:id/interventions/:iid': { ok: true },
        'POST /api/reports/send-email': { success: true },
      },
    });
    await openWizard(ctx, 'Ré-intervention');
    expect(screen.getByRole('dialog', { name: 'Ré-intervention' })).toBeTruthy();
    await finish(ctx, 'Valider la ré-intervention');
    expect(await screen.findByRole('heading', { name: 'Ré-intervention enregistrée' })).toBeTruthy();
    await waitFor(() => expect(ctx.api.calls('PATCH /api/tickets/:id/interventions/:iid')).toHaveLength(1));
    const save = ctx.api.calls('PATCH /api/tickets/:id/interventions/:iid')[0]!;
    expect(save.path).toBe(`/api/tickets/${IDS.ticket}/interventions/${IDS.intervention2}`);
    expect(sentBody(save)).toEqual({ nom_rapport: 'r-1.pdf' });
    expect(ctx.api.calls('POST /api/reports/:file')[0]!.query.get('isReintervention')).toBe('true');
    expect(ctx.api.calls('POST /api/tickets/:id/intervention')).toHaveLength(1);
  });

  it.each([
    [jsonResponse(500, 'Gabarit introuvable'), 'Erreur génération PDF: 500 - Gabarit introuvable'],
    [{ success: true }, 'Réponse invalide du serveur'],
  ])('shows the report error', async (reply, text) => {
    const ctx = setup({ permissions: ['tickets.devis'], extra: { 'POST /api/reports/:file': reply } });
    await openWizard(ctx);
    await finish(ctx);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    // The closure itself went through.
    expect(screen.getByRole('heading', { name: 'Ticket clos' })).toBeTruthy();
  });

  it("only logs a failed e-mail after the close, and says 'Erreur lors de l'envoi des emails' when a retry fails", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ctx = setup({
      permissions: ['tickets.devis'],
      extra: {
        'POST /api/reports/:file': report,
        'PATCH /api/tickets/:id': closed,
        'POST /api/reports/send-email': jsonResponse(502, {}),
      },
    });
    await openWizard(ctx);
    await finish(ctx);
    await screen.findByRole('link', { name: 'Télécharger le rapport' });
    const retry = await screen.findByRole('button', { name: 'Envoyer le rapport par e-mail' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(logged).toHaveBeenCalledWith('Envoi du rapport par e-mail impossible', expect.anything());
    await ctx.app.user.click(retry);
    expect((await screen.findByRole('alert')).textContent).toBe("Erreur lors de l'envoi des emails");
  });
});

describe('who and when, by default (issue 32)', () => {
  it('names the signed-in technician, as the take-in-charge dialog does, not the ticket’s', async () => {
    signIn(makeUser({ id: IDS.technicien2, prenom: 'Marc', nom: 'Roux', role: 'technicien_plus' }));
    const api = mockApi({
      ...ticketDetailRoutes({ ticket: inProgress, contacts: [] }),
      'PATCH /api/tickets/:id/close': () => closed,
    });
    const app = renderApp(path);
    const ctx = { app, api, user: getSession()!.user };
    const dialog = await openWizard(ctx);
    await waitFor(() => expect((dialog.getByRole('combobox', { name: 'Technicien' }) as HTMLSelectElement).value).toBe(IDS.technicien2));
    await finish(ctx);
    await screen.findByRole('heading', { name: 'Ticket clos' });
    expect(sentBody(api.calls('PATCH /api/tickets/:id/close')[0])).toMatchObject({ technicien_id: IDS.technicien2 });
  });

  it('names the ticket’s technician when the signed-in user is not in the list', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    expect((dialog.getByRole('combobox', { name: 'Technicien' }) as HTMLSelectElement).value).toBe(IDS.technicien);
  });

  it('takes the arrival recorded with « Je suis sur site », and leaves the end empty', async () => {
    const ctx = setup({ extra: { 'GET /api/tickets/:id': { ...inProgress, arrive_at: '2026-03-10T08:40:00.000Z' } } });
    const dialog = await openWizard(ctx);
    expect((dialog.getByLabelText('Date et heure d’arrivée') as HTMLInputElement).value).toBe('2026-03-10T09:40');
    await fillStep1(ctx);
    expect((dialog.getByLabelText('Date et heure de fin d’intervention') as HTMLInputElement).value).toBe('');
    await fillStep2(ctx);
    sign('Signature du client');
    sign('Signature du technicien');
    await ctx.app.user.click(dialog.getByRole('button', { name: 'Valider la clôture' }));
    await screen.findByRole('heading', { name: 'Ticket clos' });
    const body = sentBody(ctx.api.calls('PATCH /api/tickets/:id/close')[0]) as Record<string, unknown>;
    expect(body.arrive_at).toBe('2026-03-10T08:40:00.000Z');
    expect(body).not.toHaveProperty('date_cloture');
  });

  it('without a recorded arrival, takes the time the wizard was opened and keeps it across a reload; never the end’s', async () => {
    const ctx = setup();
    const dialog = await openWizard(ctx);
    const arrival = (dialog.getByLabelText('Date et heure d’arrivée') as HTMLInputElement).value;
    expect(arrival).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const saved = JSON.parse(window.localStorage.getItem(draftKey('u-7', IDS.ticket)) ?? '{}') as Record<string, unknown>;
    expect(saved).toMatchObject({ arrive_at: arrival, date_cloture: '' });
    cleanup();
    renderApp(path);
    expect((within(await screen.findByRole('dialog')).getByLabelText('Date et heure d’arrivée') as HTMLInputElement).value).toBe(arrival);
  });
});

describe('« Je suis sur site » (issue 32)', () => {
  it('records the arrival in one tap, then says since when', async () => {
    let current = inProgress;
    signIn(makeUser({ id: 'u-7' }));
    const api = mockApi({
      ...ticketDetailRoutes({ ticket: () => current, contacts: [] }),
      'POST /api/tickets/:id/sur-site': () => {
        current = { ...inProgress, arrive_at: '2026-03-10T08:40:00.000Z' };
        return current;
      },
    });
    const app = renderApp(path);
    await app.user.click(await screen.findByRole('button', { name: 'Je suis sur site' }));
    expect(await screen.findByText('Sur site depuis le 10/03/2026 09:40')).toBeTruthy();
    expect(api.calls('POST /api/tickets/:id/sur-site')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Je suis sur site' })).toBeNull();
  });

  it('is not offered on a ticket not taken in charge or closed', async () => {
    signIn(makeUser({ id: 'u-7' }));
    mockApi(ticketDetailRoutes({ ticket: closed, contacts: [] }));
    renderApp(path);
    expect(await screen.findByText('Ticket clos : aucune action.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Je suis sur site' })).toBeNull();
  });
});
