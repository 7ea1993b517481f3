import type { TicketReport } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../lib/format';
import { IDS, jsonResponse, makeIntervention, makeTicket, makeUser, mockApi, renderApp, sentBody, signIn, ticketDetailRoutes } from '../../../testing/render-app';

/*
 * Issue 18: the ticket detail says how each report's e-mails went (to whom
 * and when, pending, or why they failed) and sends a report again.
 */

const path = `/tickets/${IDS.ticket}`;
const CLOSURE_REPORT = 'rapport-LYO-2026-0001-aaaaaaaa.pdf';
const REINTERVENTION_REPORT = 'rapport-LYO-2026-0001-intervention-1-bbbbbbbb.pdf';
const REFUSED = 'L’envoi du rapport a échoué : adresse refusée par le serveur de messagerie (550 5.1.1 User unknown). Vérifiez l’adresse, puis renvoyez le rapport.';

const closedTicket = () =>
  makeTicket({
    statut: 'clos',
    arrive_at: '2026-03-10T15:00:00.000Z',
    clos_at: '2026-03-10T16:00:00.000Z',
    nom_rapport: CLOSURE_REPORT,
    interventions_count: 2,
    interventions_supp_count: 1,
  });

const email = (overrides: Partial<TicketReport['emails'][number]>): TicketReport['emails'][number] => ({
  id: '99999999-9999-4999-8999-999999999991',
  email: 'julie.bernard@example.fr',
  nom: 'Bernard',
  prenom: 'Julie',
  status: 'sent',
  requested_at: '2026-03-10T16:01:00.000Z',
  sent_at: '2026-03-10T16:02:00.000Z',
  failed_at: null,
  failure: null,
  ...overrides,
});

const closureReport = (emails: TicketReport['emails']): TicketReport => ({
  id: '88888888-8888-4888-8888-888888888881',
  intervention_id: null,
  status: 'generated',
  filename: CLOSURE_REPORT,
  generated_at: '2026-03-10T16:00:30.000Z',
  emails,
});

const REPORTS: TicketReport[] = [
  {
    id: '88888888-8888-4888-8888-888888888882',
    intervention_id: IDS.intervention,
    status: 'generated',
    filename: REINTERVENTION_REPORT,
    generated_at: '2026-03-10T10:00:30.000Z',
    emails: [],
  },
  closureReport([
    email({}),
    email({ id: '99999999-9999-4999-8999-999999999992', email: 'syndic@example.fr', nom: '', prenom: '', status: 'requested', sent_at: null }),
    email({
      id: '99999999-9999-4999-8999-999999999993',
      email: 'inconu@example.fr',
      nom: '',
      prenom: '',
      status: 'failed',
      sent_at: null,
      failed_at: '2026-03-10T16:03:00.000Z',
      failure: { reason: 'address-refused', message: REFUSED },
    }),
  ]),
];

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...ticketDetailRoutes({
      ticket: closedTicket(),
      interventions: [makeIntervention({ nom_rapport: REINTERVENTION_REPORT })],
      contacts: [{ id: IDS.contact, nom: 'Durand', prenom: 'Alice', email: 'alice@example.fr', telephone: null }],
    }),
    'GET /api/tickets/:id/reports': { reports: REPORTS },
    'GET /api/reports/download/:filename/link': (_request: unknown, params: Record<string, string>) => ({
      success: true,
      filename: params.filename,
      downloadUrl: `/api/reports/download/${params.filename}?token=lien`,
    }),
    ...extra,
  };
}

const withDevis = () => signIn(makeUser({ permissions: ['tickets.devis'] }));

async function closureVisit() {
  const timeline = within(await screen.findByRole('region', { name: 'Historique des interventions' }));
  const item = (await timeline.findByRole('link', { name: `Télécharger le rapport (${CLOSURE_REPORT})` })).closest('li')!;
  return within(item as HTMLElement);
}

describe('report e-mails on the ticket detail (issue 18)', () => {
  it('says, under each visit, to whom its report was sent and when, what is pending, and why an e-mail failed', async () => {
    withDevis();
    mockApi(routes());
    renderApp(path);
    const visit = await closureVisit();
    const list = within(await visit.findByRole('list', { name: 'Envois du rapport par e-mail' }));
    expect(list.getByText(`Envoyé à Julie Bernard (julie.bernard@example.fr) le ${formatDateTime('2026-03-10T16:02:00.000Z')}`)).toBeTruthy();
    expect(list.getByText('Envoi en cours à syndic@example.fr…')).toBeTruthy();
    expect(list.getByText('Non envoyé à inconu@example.fr')).toBeTruthy();
    expect(list.getByText(REFUSED)).toBeTruthy();

    const timeline = within(screen.getByRole('region', { name: 'Historique des interventions' }));
    const reintervention = within(timeline.getByRole('link', { name: `Télécharger le rapport (${REINTERVENTION_REPORT})` }).closest('li') as HTMLElement);
    expect(reintervention.getByText('Rapport non envoyé par e-mail.')).toBeTruthy();
    expect(timeline.getAllByRole('button', { name: 'Envoyer le rapport par e-mail' })).toHaveLength(2);
  });

  it('shows the statuses but no send button without tickets.devis (spec §6)', async () => {
    signIn(makeUser({ permissions: [] }));
    mockApi(routes());
    renderApp(path);
    const visit = await closureVisit();
    expect(await visit.findByText(REFUSED)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Envoyer le rapport par e-mail' })).toBeNull();
  });

  it('links a report the workers generated even when its name was never saved on the ticket', async () => {
    withDevis();
    mockApi(routes({ 'GET /api/tickets/:id': { ...closedTicket(), nom_rapport: null }, 'GET /api/tickets/:id/reports': { reports: [closureReport([])] } }));
    renderApp(path);
    const visit = await closureVisit();
    expect(visit.getByText('Rapport non envoyé par e-mail.')).toBeTruthy();
    const summary = within(screen.getByRole('region', { name: 'Résumé' }));
    expect((await summary.findByRole('link', { name: 'Télécharger le rapport' })).getAttribute('href')).toBe(`/api/reports/download/${CLOSURE_REPORT}?token=lien`);
  });

  it('sends it again to corrected addresses, checked in French, then shows the new e-mails as pending', async () => {
    withDevis();
    let reports = REPORTS;
    const api = mockApi(
      routes({
        'GET /api/tickets/:id/reports': () => ({ reports }),
        'POST /api/reports/send-email': () => {
          reports = [REPORTS[0]!, closureReport([email({ id: '99999999-9999-4999-8999-999999999994', email: 'inconnu@example.fr', nom: '', prenom: '', status: 'requested', sent_at: null })])];
          return { success: true, queued: 2, alreadyRequested: 0 };
        },
      }),
    );
    const app = renderApp(path);
    const visit = await closureVisit();
    await app.user.click(visit.getByRole('button', { name: 'Envoyer le rapport par e-mail' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Envoyer le rapport par e-mail' }));
    const field = dialog.getByRole('textbox', { name: 'Destinataires' }) as HTMLTextAreaElement;
    // Prefilled with the address whose e-mail failed, to be corrected in place.
    expect(field.value).toBe('inconu@example.fr');

    await app.user.clear(field);
    await app.user.click(dialog.getByRole('button', { name: 'Envoyer' }));
    expect(dialog.getByText('Merci d’indiquer au moins un destinataire.')).toBeTruthy();
    // Pasted rather than typed key by key: the addresses are the point here, not the keyboard.
    await app.user.click(field);
    await app.user.paste('inconnu@example.fr, pas-une-adresse');
    await app.user.click(dialog.getByRole('button', { name: 'Envoyer' }));
    expect(dialog.getByText('Adresse email invalide. (pas-une-adresse)')).toBeTruthy();
    expect(api.calls('POST /api/reports/send-email')).toHaveLength(0);
    // The message goes as soon as the addresses are right, before any new submit.
    await app.user.clear(field);
    await app.user.click(field);
    await app.user.paste('inconnu@example.fr\nAlice@example.fr');
    expect(dialog.queryByText(/Adresse email invalide/)).toBeNull();

    await app.user.click(dialog.getByRole('button', { name: 'Envoyer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(api.calls('POST /api/reports/send-email')[0])).toEqual({
      recipients: [
        { email: 'inconnu@example.fr', nom: '', prenom: '' },
        { email: 'alice@example.fr', nom: 'Durand', prenom: 'Alice' },
      ],
      ticketNumber: 'LYO-2026-0001',
      ticketInfo: { site: 'Bâtiment A', installation: 'SSI catégorie A' },
      downloadUrl: `/api/reports/download/${CLOSURE_REPORT}?token=lien`,
    });
    expect(await screen.findByText('Envoi du rapport demandé (2 destinataires).')).toBeTruthy();
    expect(await (await closureVisit()).findByText('Envoi en cours à inconnu@example.fr…')).toBeTruthy();
  });

  it("keeps the dialog open with 'Erreur lors de l'envoi des emails' when the server fails", async () => {
    withDevis();
    mockApi(routes({ 'POST /api/reports/send-email': jsonResponse(502, {}) }));
    const app = renderApp(path);
    const visit = await closureVisit();
    await app.user.click(visit.getByRole('button', { name: 'Envoyer le rapport par e-mail' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Envoyer le rapport par e-mail' }));
    await app.user.click(dialog.getByRole('button', { name: 'Envoyer' }));
    expect((await dialog.findByRole('alert')).textContent).toBe("Erreur lors de l'envoi des emails");
  });

  it('sends a report again to an address that already got it only after saying when and an explicit « Renvoyer », offering the site’s and installation’s contacts (issue 32)', async () => {
    withDevis();
    const sent = email({});
    const alreadySent = {
      email: sent.email,
      nom: sent.nom,
      prenom: sent.prenom,
      status: 'sent',
      requestedAt: sent.requested_at,
      sentAt: sent.sent_at,
      knownRequests: 1,
      message: 'Déjà envoyé le 10/03/2026 à 17:02 à julie.bernard@example.fr.',
    };
    const api = mockApi(
      routes({
        'GET /api/tickets/:id/reports': { reports: [closureReport([sent])] },
        'GET /api/interlocuteurs/site-only/:id': [{ id: 'site-contact', nom: 'Leroy', prenom: 'Jean', email: 'syndic@example.fr', telephone: null }],
        'POST /api/reports/send-email': (request: { init: RequestInit }) => {
          const body = JSON.parse(String(request.init.body)) as { resend?: unknown };
          return body.resend
            ? { success: true, queued: 1, alreadyRequested: 0, alreadySent: [] }
            : { success: true, queued: 1, alreadyRequested: 1, alreadySent: [alreadySent] };
        },
      }),
    );
    const app = renderApp(path);
    const visit = await closureVisit();
    await app.user.click(visit.getByRole('button', { name: 'Envoyer le rapport par e-mail' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Envoyer le rapport par e-mail' }));
    const offered = within(dialog.getByRole('group', { name: 'Destinataires proposés' }));
    // The requester (prefilled), the installation's contact and the site's.
    expect((offered.getByRole('checkbox', { name: /Julie Bernard .* demandeur/ }) as HTMLInputElement).checked).toBe(true);
    await app.user.click(offered.getByRole('checkbox', { name: 'Alice Durand (alice@example.fr)' }));
    await app.user.click(await offered.findByRole('checkbox', { name: 'Jean Leroy (syndic@example.fr)' }));
    expect((dialog.getByRole('textbox', { name: 'Destinataires' }) as HTMLTextAreaElement).value).toBe('julie.bernard@example.fr\nalice@example.fr\nsyndic@example.fr');
    await app.user.click(offered.getByRole('checkbox', { name: 'Alice Durand (alice@example.fr)' }));
    await app.user.click(dialog.getByRole('button', { name: 'Envoyer' }));

    // Not sent twice by accident: the server said when it was, the user decides.
    const confirm = within(await screen.findByRole('dialog', { name: 'Renvoyer le rapport ?' }));
    expect(confirm.getByText('Déjà envoyé le 10/03/2026 à 17:02 à julie.bernard@example.fr.')).toBeTruthy();
    expect(confirm.getByText('Renvoyer le rapport à cette adresse ?')).toBeTruthy();
    expect(await screen.findByText('Envoi du rapport demandé (un destinataire).')).toBeTruthy();
    expect(sentBody(api.calls('POST /api/reports/send-email')[0])).not.toHaveProperty('resend');
    await app.user.click(confirm.getByRole('button', { name: 'Renvoyer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(api.calls('POST /api/reports/send-email')[1])).toMatchObject({
      recipients: [{ email: 'julie.bernard@example.fr', nom: 'Bernard', prenom: 'Julie' }],
      resend: [{ email: 'julie.bernard@example.fr', knownRequests: 1 }],
    });
    expect(await screen.findByText('Rapport renvoyé (un destinataire).')).toBeTruthy();
  });

  it('says why a report could not be generated and offers « Relancer » (issue 32)', async () => {
    withDevis();
    const failure = 'La génération du rapport a échoué : le ticket ou sa visite est introuvable. Vous pouvez la relancer.';
    let reports: TicketReport[] = [{ ...closureReport([]), status: 'failed', filename: null, generated_at: null, failure }];
    const api = mockApi(
      routes({
        'GET /api/tickets/:id': { ...closedTicket(), nom_rapport: null },
        'GET /api/tickets/:id/reports': () => ({ reports }),
        'POST /api/reports/:file': () => {
          reports = [closureReport([])];
          return { success: true, filename: CLOSURE_REPORT, downloadUrl: `/api/reports/download/${CLOSURE_REPORT}?token=lien` };
        },
      }),
    );
    const app = renderApp(path);
    const timeline = within(await screen.findByRole('region', { name: 'Historique des interventions' }));
    expect(await timeline.findByText(failure)).toBeTruthy();
    await app.user.click(timeline.getByRole('button', { name: 'Relancer' }));
    expect(await timeline.findByRole('link', { name: `Télécharger le rapport (${CLOSURE_REPORT})` })).toBeTruthy();
    const call = api.calls('POST /api/reports/:file')[0];
    expect(call?.path).toBe(`/api/reports/${IDS.ticket}.pdf`);
    expect(call?.query.get('isReintervention')).toBe('false');
  });
});
