import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parisDateInput } from '../../../lib/format';
import { getSession } from '../../../lib/session';
import { makeInstallation, makeSite } from '../../../testing/management';
import { IDS, jsonResponse, mockApi, renderApp, sentForm, signIn, TECHNICIANS } from '../../../testing/render-app';

const lookups = {
  'GET /api/tickets': [],
  'GET /api/clients': [
    { id: IDS.client, nom: 'Hôpital Nord', ville: 'Lyon' },
    { id: IDS.client2, nom: 'Clinique Sud', ville: 'Vienne' },
  ],
  'GET /api/clients/:id/sites': (_req: unknown, params: Record<string, string>) =>
    params.id === IDS.client
      ? [
          makeSite({ id: IDS.site, nom: 'Bâtiment A', ville: 'Lyon', installations: [makeInstallation({ id: IDS.installation, nom: 'SSI catégorie A', site_id: IDS.site })] }),
          makeSite({ id: IDS.site2, nom: 'Bâtiment B', ville: 'Lyon', installations: [makeInstallation({ id: IDS.installation2, nom: 'Désenfumage', site_id: IDS.site2 })] }),
        ]
      : [makeSite({ id: IDS.site2, nom: 'Annexe', ville: 'Vienne', installations: [] })],
  'GET /api/interlocuteurs/site-only/:id': [
    { id: IDS.contact, nom: 'Durand', prenom: 'Alice', email: 'alice@example.fr', telephone: '0102030405' },
    { id: IDS.contact2, nom: 'Morel', prenom: 'Bruno', email: 'bruno@example.fr', telephone: null },
  ],
  'GET /api/interlocuteurs/installation/:id': [
    { id: IDS.contact2, nom: 'Morel', prenom: 'Bruno', email: 'bruno@example.fr', telephone: null },
    { id: IDS.contact3, nom: 'Zola', prenom: 'Chloé', email: 'chloe@example.fr', telephone: '0600000000' },
  ],
  'GET /api/utilisateurs': TECHNICIANS,
};

async function openForm(routes: Record<string, unknown> = {}) {
  signIn();
  const api = mockApi({ ...lookups, ...routes });
  const app = renderApp('/tickets', { user: { applyAccept: false } });
  await app.user.click(screen.getByRole('button', { name: '+ Ajouter un ticket' }));
  const dialog = within(screen.getByRole('dialog', { name: 'Ajouter un ticket' }));
  return { app, api, dialog };
}

type Ctx = Awaited<ReturnType<typeof openForm>>;

async function pickCascade({ app, dialog }: Ctx) {
  await app.user.type(dialog.getByRole('combobox', { name: 'Client' }), 'nord');
  await app.user.click(await dialog.findByRole('option', { name: /Hôpital Nord/ }));
  const site = dialog.getByRole('combobox', { name: 'Site' });
  await dialog.findByRole('option', { name: 'Bâtiment A (Lyon)' });
  await app.user.selectOptions(site, IDS.site);
  await app.user.selectOptions(dialog.getByRole('combobox', { name: 'Installation' }), IDS.installation);
}

async function fillContact({ app, dialog }: Ctx) {
  await app.user.type(dialog.getByLabelText('Nom'), 'Bernard');
  await app.user.type(dialog.getByLabelText('Prénom'), 'Julie');
  await app.user.type(dialog.getByLabelText('Email'), 'julie@example.fr');
  await app.user.type(dialog.getByLabelText('Téléphone'), '0612345678');
  await app.user.type(dialog.getByLabelText('Problème constaté'), 'Sirène muette');
}

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:apercu');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("'Ajouter un ticket'", () => {
  it('enables site after a client and installation after a site; a parent change resets its children', async () => {
    const ctx = await openForm();
    const { app, dialog } = ctx;
    const site = dialog.getByRole('combobox', { name: 'Site' }) as HTMLSelectElement;
    const installation = dialog.getByRole('combobox', { name: 'Installation' }) as HTMLSelectElement;
    expect(site.disabled).toBe(true);
    expect(installation.disabled).toBe(true);

    await pickCascade(ctx);
    expect(installation.value).toBe(IDS.installation);

    await app.user.selectOptions(site, IDS.site2);
    expect(installation.value).toBe('');

    const client = dialog.getByRole('combobox', { name: 'Client' });
    await app.user.clear(client);
    await app.user.type(client, 'sud');
    await app.user.click(await dialog.findByRole('option', { name: /Clinique Sud/ }));
    expect(site.value).toBe('');
    expect(installation.disabled).toBe(true);
  });

  it('says what to choose first under the disabled fields, in full, not in a select too narrow for it', async () => {
    const ctx = await openForm();
    const site = ctx.dialog.getByRole('combobox', { name: 'Site' });
    const installation = ctx.dialog.getByRole('combobox', { name: 'Installation' });
    expect(site.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(site.getAttribute('aria-describedby')!)?.textContent).toBe('Choisissez d’abord un client.');
    expect(document.getElementById(installation.getAttribute('aria-describedby')!)?.textContent).toBe('Choisissez d’abord un site.');
    await pickCascade(ctx);
    expect(site.hasAttribute('aria-describedby')).toBe(false);
    expect(installation.hasAttribute('aria-describedby')).toBe(false);
  });

  it("says 'Aucun client trouvé' when no client name contains the text", async () => {
    const { app, dialog } = await openForm();
    await app.user.type(dialog.getByRole('combobox', { name: 'Client' }), 'Garage');
    expect(await dialog.findByText('Aucun client trouvé')).toBeTruthy();
  });

  it("refuses a missing field with 'Merci de remplir tous les champs obligatoires.'", async () => {
    const ctx = await openForm();
    await pickCascade(ctx);
    await ctx.app.user.type(ctx.dialog.getByLabelText('Nom'), 'Bernard');
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));
    expect(ctx.dialog.getByRole('alert').textContent).toBe('Merci de remplir tous les champs obligatoires.');
    expect(ctx.dialog.getByLabelText('Prénom').getAttribute('aria-invalid')).toBe('true');
    expect(ctx.api.calls('POST /api/tickets/manual/ticket-create')).toHaveLength(0);
  });

  it('offers the site and installation contacts merged without duplicates, and fills the fields', async () => {
    const ctx = await openForm();
    await pickCascade(ctx);
    const pick = ctx.dialog.getByRole('combobox', { name: 'Choisir un interlocuteur' });
    await waitFor(() => expect(within(pick).getAllByRole('option')).toHaveLength(4));
    expect(within(pick).getAllByRole('option').map((o) => o.textContent)).toEqual([
      '—',
      'Alice Durand · alice@example.fr',
      'Bruno Morel · bruno@example.fr',
      'Chloé Zola · chloe@example.fr',
    ]);
    await ctx.app.user.selectOptions(pick, IDS.contact3);
    expect((ctx.dialog.getByLabelText('Nom') as HTMLInputElement).value).toBe('Zola');
    expect((ctx.dialog.getByLabelText('Prénom') as HTMLInputElement).value).toBe('Chloé');
    expect((ctx.dialog.getByLabelText('Email') as HTMLInputElement).value).toBe('chloe@example.fr');
    expect((ctx.dialog.getByLabelText('Téléphone') as HTMLInputElement).value).toBe('0600000000');
  });

  it('checks that the photo is an image and shows a preview', async () => {
    const { app, dialog } = await openForm();
    const input = dialog.getByLabelText('Photo');
    await app.user.upload(input, new File(['%PDF'], 'devis.pdf', { type: 'application/pdf' }));
    expect(dialog.getByRole('alert').textContent).toBe("Le fichier sélectionné n'est pas une image.");
    expect(dialog.queryByRole('img', { name: 'Aperçu de la photo' })).toBeNull();

    await app.user.upload(input, new File(['jpeg'], 'panne.jpg', { type: 'image/jpeg' }));
    expect(dialog.queryByRole('alert')).toBeNull();
    expect(dialog.getByRole('img', { name: 'Aperçu de la photo' }).getAttribute('src')).toBe('blob:apercu');
  });

  it('defaults the registration date and time to now, both required', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-07-01T06:30:00Z'));
    const { dialog } = await openForm();
    const date = dialog.getByLabelText('Date d’enregistrement') as HTMLInputElement;
    const time = dialog.getByLabelText('Heure d’enregistrement') as HTMLInputElement;
    expect(date.value).toBe('2026-07-01');
    expect(time.value).toBe('08:30');
    expect(date.required && time.required).toBe(true);
  });

  it('sends the form as multipart, then shows the success banner for 5 seconds', async () => {
    const ctx = await openForm({
      'POST /api/tickets/manual/ticket-create': { success: true, message: 'Ticket LYO-2026-0042 enregistré.', ticket_id: IDS.ticket },
    });
    await pickCascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.upload(ctx.dialog.getByLabelText('Photo'), new File(['jpeg'], 'panne.jpg', { type: 'image/jpeg' }));
    await ctx.app.user.selectOptions(ctx.dialog.getByRole('combobox', { name: 'Technicien (facultatif)' }), IDS.technicien);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));

    const banner = await screen.findByText('Ticket LYO-2026-0042 enregistré.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const form = sentForm(ctx.api.calls('POST /api/tickets/manual/ticket-create')[0]);
    expect(form).toMatchObject({
      installation_id: IDS.installation,
      nom: 'Bernard',
      prenom: 'Julie',
      email: 'julie@example.fr',
      telephone: '0612345678',
      probleme: 'Sirène muette',
      date_enregistrement: parisDateInput(),
      id_technicien: IDS.technicien,
    });
    expect(form.heure_enregistrement).toMatch(/^\d{2}:\d{2}$/);
    expect((form.photo as File).name).toBe('panne.jpg');
    expect(form).not.toHaveProperty('date_cloture');
    expect(form).not.toHaveProperty('remarque_tech');

    act(() => vi.advanceTimersByTime(4900));
    expect(banner.isConnected).toBe(true);
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Ticket LYO-2026-0042 enregistré.')).toBeNull();
  });

  it("uses 'Le ticket a bien été enregistré.' when the server gives no message", async () => {
    const ctx = await openForm({ 'POST /api/tickets/manual/ticket-create': { success: true, ticket_id: IDS.ticket } });
    await pickCascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));
    expect(await screen.findByText('Le ticket a bien été enregistré.')).toBeTruthy();
  });

  it.each([
    [jsonResponse(400, { error: 'Adresse email invalide.' }), 'Adresse email invalide.'],
    [jsonResponse(500, {}), 'Erreur lors de l’enregistrement.'],
  ])('shows the server error or its fallback', async (reply, text) => {
    const ctx = await openForm({ 'POST /api/tickets/manual/ticket-create': reply });
    await pickCascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));
    expect((await ctx.dialog.findByRole('alert')).textContent).toBe(text);
  });

  it("a network drop at submit keeps the user signed in, says 'Erreur lors de l’envoi du ticket.' and keeps every value", async () => {
    const ctx = await openForm({
      'POST /api/tickets/manual/ticket-create': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await pickCascade(ctx);
    await fillContact(ctx);
    await ctx.app.user.upload(ctx.dialog.getByLabelText('Photo'), new File(['jpeg'], 'panne.jpg', { type: 'image/jpeg' }));
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));

    expect((await ctx.dialog.findByRole('alert')).textContent).toBe('Erreur lors de l’envoi du ticket.');
    expect(ctx.app.pathname()).toBe('/tickets');
    expect(getSession()).not.toBeNull();
    expect((ctx.dialog.getByRole('combobox', { name: 'Installation' }) as HTMLSelectElement).value).toBe(IDS.installation);
    expect((ctx.dialog.getByLabelText('Nom') as HTMLInputElement).value).toBe('Bernard');
    expect((ctx.dialog.getByLabelText('Prénom') as HTMLInputElement).value).toBe('Julie');
    expect((ctx.dialog.getByLabelText('Email') as HTMLInputElement).value).toBe('julie@example.fr');
    expect((ctx.dialog.getByLabelText('Téléphone') as HTMLInputElement).value).toBe('0612345678');
    expect((ctx.dialog.getByLabelText('Problème constaté') as HTMLTextAreaElement).value).toBe('Sirène muette');
    expect(ctx.dialog.getByRole('img', { name: 'Aperçu de la photo' })).toBeTruthy();

    // The network is back: the same form goes through as it stands, as the same submission
    // (same Idempotency-Key: if the first one did reach the server, it is not created twice).
    ctx.api.fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { success: true, ticket_id: IDS.ticket })));
    await ctx.app.user.click(ctx.dialog.getByRole('button', { name: 'Enregistrer le ticket' }));
    expect(await screen.findByText('Le ticket a bien été enregistré.')).toBeTruthy();
    const keys = ctx.api.fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
  });
});
