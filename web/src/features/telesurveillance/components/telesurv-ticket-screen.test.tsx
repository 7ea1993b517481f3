import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IDS, jsonResponse, makeUser, mockApi, renderApp, sentForm, signIn } from '../../../testing/render-app';

const path = '/telesurv/ticket';

function routes(extra: Record<string, unknown> = {}) {
  return {
    'GET /api/telesurv/me/agences': [
      { id: IDS.agence, nom: 'Agence Lyon' },
      { id: IDS.agence2, nom: 'Agence Grenoble' },
    ],
    'GET /api/clients/by-agence/:id': (_r: unknown, p: Record<string, string>) =>
      p.id === IDS.agence
        ? [
            { id: IDS.client, nom: 'Hôpital Nord', ville: 'Lyon' },
            { id: IDS.client2, nom: 'Clinique Sud', ville: 'Vienne' },
          ]
        : [{ id: IDS.client2, nom: 'Clinique des Alpes', ville: 'Grenoble' }],
    'GET /api/sites/client/:id': [
      { id: IDS.site, nom: 'Bâtiment A', ville: 'Lyon' },
      { id: IDS.site2, nom: 'Bâtiment B', ville: 'Lyon' },
    ],
    'GET /api/sites/:id/installations': [
      { id: IDS.installation, nom: 'SSI catégorie A' },
      { id: IDS.installation2, nom: 'Désenfumage' },
    ],
    'GET /api/interlocuteurs/installation/:id': [
      { id: IDS.contact, nom: 'Durand', prenom: 'Alice', email: null, telephone: '0472000000' },
    ],
    ...extra,
  };
}

function setup(extra: Record<string, unknown> = {}) {
  signIn(makeUser({ role: 'telesurveillance', agence_id: null, agence_nom: null }));
  const api = mockApi(routes(extra));
  const app = renderApp(path);
  return { app, api };
}

type Ctx = ReturnType<typeof setup>;

const field = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const text = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

async function cascade({ app }: Ctx) {
  await screen.findByRole('option', { name: 'Agence Lyon' });
  await app.user.selectOptions(field('Agence'), IDS.agence);
  await app.user.type(screen.getByRole('combobox', { name: 'Client' }), 'nord');
  await app.user.click(await screen.findByRole('option', { name: /Hôpital Nord/ }));
  await screen.findByRole('option', { name: 'Bâtiment A (Lyon)' });
  await app.user.selectOptions(field('Site'), IDS.site);
  await screen.findByRole('option', { name: 'SSI catégorie A' });
  await app.user.selectOptions(field('Installation'), IDS.installation);
}

async function fillContact({ app }: Ctx) {
  await app.user.type(text('Nom'), 'Bernard');
  await app.user.type(text('Prénom'), 'Julie');
  await app.user.type(text('Email'), 'julie@example.fr');
  await app.user.type(text('Téléphone'), '0612345678');
  await app.user.type(screen.getByLabelText('Problème constaté'), 'Alarme feu zone 3');
}

describe("'Nouveau ticket (Télésurveillance)'", () => {
  it("keeps 'Créer le ticket' disabled until every required field is there", async () => {
    const ctx = setup();
    expect(screen.getByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' })).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Créer le ticket' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(field('Site').disabled).toBe(true);
    expect(field('Installation').disabled).toBe(true);
    await cascade(ctx);
    expect(submit.disabled).toBe(true);
    await fillContact(ctx);
    expect(submit.disabled).toBe(false);
  });

  it('pre-fills only the fields the chosen interlocutor has', async () => {
    const ctx = setup();
    await cascade(ctx);
    await ctx.app.user.type(text('Email'), 'deja@saisi.fr');
    await screen.findByRole('option', { name: 'Alice Durand' });
    await ctx.app.user.selectOptions(field('Interlocuteur (facultatif)'), IDS.contact);
    expect(text('Nom').value).toBe('Durand');
    expect(text('Prénom').value).toBe('Alice');
    expect(text('Téléphone').value).toBe('0472000000');
    // The contact has no e-mail: what was typed stays.
    expect(text('Email').value).toBe('deja@saisi.fr');
  });

  it('takes the site contacts when the installation has none, and the client ones after that', async () => {
    const ctx = setup({
      'GET /api/interlocuteurs/installation/:id': [],
      'GET /api/interlocuteurs/site/:id': [],
      'GET /api/interlocuteurs/client/:id': [{ id: IDS.contact3, nom: 'Zola', prenom: 'Chloé', email: 'chloe@example.fr', telephone: null }],
    });
    await cascade(ctx);
    expect(await screen.findByRole('option', { name: 'Chloé Zola' })).toBeTruthy();
  });

  it('clears client, site, installation, contact choice and search when the agency changes', async () => {
    const ctx = setup();
    await cascade(ctx);
    await screen.findByRole('option', { name: 'Alice Durand' });
    await ctx.app.user.selectOptions(field('Interlocuteur (facultatif)'), IDS.contact);
    await ctx.app.user.selectOptions(field('Agence'), IDS.agence2);
    expect((screen.getByRole('combobox', { name: 'Client' }) as HTMLInputElement).value).toBe('');
    expect(field('Site').value).toBe('');
    expect(field('Site').disabled).toBe(true);
    expect(field('Installation').value).toBe('');
    expect(field('Interlocuteur (facultatif)').value).toBe('');
  });

  it('clears site and installation when the client changes, the installation when the site changes', async () => {
    const ctx = setup();
    await cascade(ctx);
    await ctx.app.user.selectOptions(field('Site'), IDS.site2);
    expect(field('Installation').value).toBe('');
    await screen.findByRole('option', { name: 'Désenfumage' });
    await ctx.app.user.selectOptions(field('Installation'), IDS.installation2);

    const client = screen.getByRole('combobox', { name: 'Client' });
    await ctx.app.user.clear(client);
    await ctx.app.user.type(client, 'sud');
    await ctx.app.user.click(await screen.findByRole('option', { name: /Clinique Sud/ }));
    expect(field('Site').value).toBe('');
    expect(field('Installation').value).toBe('');
  });

  it("shows 'Envoi...' while sending, then 'Ticket créé.', clears the contact and keeps the agency", async () => {
    let release: () => void = () => {};
    const ctx = setup({
      'POST /api/tickets/manual/ticket-create': () =>
        new Promise((resolve) => {
          release = () => resolve({ success: true, message: 'ok', ticket_id: IDS.ticket });
        }),
    });
    await cascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.click(screen.getByRole('button', { name: 'Créer le ticket' }));
    const sending = await screen.findByRole('button', { name: 'Envoi...' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    release();

    expect(await screen.findByText('Ticket créé.')).toBeTruthy();
    const form = sentForm(ctx.api.calls('POST /api/tickets/manual/ticket-create')[0]);
    expect(form).toEqual({
      installation_id: IDS.installation,
      nom: 'Bernard',
      prenom: 'Julie',
      email: 'julie@example.fr',
      telephone: '0612345678',
      probleme: 'Alarme feu zone 3',
    });
    for (const label of ['Nom', 'Prénom', 'Email', 'Téléphone']) expect(text(label).value).toBe('');
    expect(field('Agence').value).toBe(IDS.agence);
    expect((screen.getByRole('button', { name: 'Créer le ticket' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    [jsonResponse(400, { success: false, error: 'Installation hors de vos agences.' }), 'Installation hors de vos agences.'],
    [jsonResponse(200, { success: false }), 'Erreur lors de la création.'],
    [jsonResponse(500, {}), 'Erreur lors de la création.'],
  ])('shows the server error or its fallback', async (reply, message) => {
    const ctx = setup({ 'POST /api/tickets/manual/ticket-create': reply });
    await cascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.click(screen.getByRole('button', { name: 'Créer le ticket' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    // Nothing was lost.
    expect(text('Nom').value).toBe('Bernard');
  });

  it('picks the only agency by itself', async () => {
    signIn(makeUser({ role: 'telesurveillance' }));
    mockApi(routes({ 'GET /api/telesurv/me/agences': [{ id: IDS.agence, nom: 'Agence Lyon' }] }));
    renderApp(path);
    await waitFor(() => expect(field('Agence').value).toBe(IDS.agence));
    expect(within(field('Agence')).getAllByRole('option')).toHaveLength(2);
  });
});
