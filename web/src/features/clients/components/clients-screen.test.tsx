import { MANAGEMENT_MESSAGES as M } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAgence, makeClient, makeContact, makeInstallation, makeMetier, makeQrCode, makeSite, MIDS, nthId } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn, type RecordedRequest } from '../../../testing/render-app';

const HOPITAL = makeClient();
const LYCEE = makeClient({ id: MIDS.client2, nom: 'Lycée Ampère', adresse: '31 rue de la Bourse', code_postal: '69002' });
const BATIMENT_A = makeSite();
const BATIMENT_B = makeSite({ id: MIDS.site2, nom: 'Bâtiment B', installations: [makeInstallation({ id: MIDS.installation2, site_id: MIDS.site2, nom: 'Désenfumage', delai: 24, astreinte: 1 })] });
const LYCEE_SITE = makeSite({ id: nthId('b', 9), client_id: MIDS.client2, nom: 'Internat', installations: [] });
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>';

const page = (items: unknown[], total = items.length, pageNumber = 1) => ({ items, total, page: pageNumber, pageSize: 10 });

function api(overrides: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/clients': (req: RecordedRequest) => (req.query.get('search') === 'lyc' ? page([LYCEE]) : page([HOPITAL, LYCEE], 12, Number(req.query.get('page')))),
    'GET /api/clients/:id/sites': (_req: RecordedRequest, params: Record<string, string>) => (params.id === MIDS.client ? [BATIMENT_A, BATIMENT_B] : [LYCEE_SITE]),
    'GET /api/metiers': [makeMetier(), makeMetier({ id: MIDS.metier2, nom: 'Électricité', ordre: 2 })],
    'GET /api/interlocuteurs/client/:id': [makeContact()],
    'GET /api/qrcodes/by-installation/:id': { items: [makeQrCode(1)] },
    'GET /api/qrcodes/unused': { items: [makeQrCode(2), makeQrCode(3)] },
    'GET /api/qrcodes/:id/image.svg': () => new Response(SVG, { status: 200, headers: { 'Content-Type': 'image/svg+xml' } }),
    ...overrides,
  });
}

const editor = () => signIn(makeUser({ role: 'admin', permissions: ['clients.view', 'clients.edit'], agence_id: MIDS.agence }));

async function openClient(app: ReturnType<typeof renderApp>, nom = 'Hôpital Nord') {
  await app.user.click(await screen.findByRole('button', { name: nom }));
  return screen.getByRole('region', { name: `Sites et installations de ${nom}` });
}

describe('Clients screen', () => {
  it('asks the server for 10 clients a page, pages and searches', async () => {
    editor();
    const mock = api();
    const app = renderApp('/clients');
    expect(await screen.findByRole('button', { name: 'Hôpital Nord' })).toBeTruthy();
    const first = mock.calls('GET /api/clients')[0];
    expect(first?.query.get('page')).toBe('1');
    expect(first?.query.get('pageSize')).toBe('10');
    expect(screen.getByText('Page 1 sur 2')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Suivant' }));
    await waitFor(() => expect(mock.calls('GET /api/clients').at(-1)?.query.get('page')).toBe('2'));

    await app.user.type(screen.getByLabelText('Rechercher un client'), 'lyc');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Hôpital Nord' })).toBeNull());
    const last = mock.calls('GET /api/clients').at(-1);
    expect(last?.query.get('search')).toBe('lyc');
    expect(last?.query.get('page')).toBe('1');
  });

  it("shows a client's sites on the left and the chosen site's installations on the right, and resets on another client", async () => {
    editor();
    api();
    const app = renderApp('/clients');
    const detail = await openClient(app);
    expect(await within(detail).findByRole('button', { name: /^Bâtiment A/ })).toBeTruthy();
    expect(within(detail).getByText('Sélectionnez un site pour voir ses installations.')).toBeTruthy();
    await app.user.click(within(detail).getByRole('button', { name: /^Bâtiment B/ }));
    expect(within(detail).getByRole('heading', { name: 'Installations — Bâtiment B' })).toBeTruthy();
    expect(within(detail).getByText('Désenfumage')).toBeTruthy();
    expect(within(detail).getByText('Dépannage sous 24h')).toBeTruthy();
    expect(within(detail).getByText('Astreinte')).toBeTruthy();

    const other = await openClient(app, 'Lycée Ampère');
    expect(await within(other).findByRole('button', { name: /^Internat/ })).toBeTruthy();
    expect(within(other).queryByText('Désenfumage')).toBeNull();
    expect(within(other).getByText('Sélectionnez un site pour voir ses installations.')).toBeTruthy();
  });

  it('adds a client: a silent return on missing fields, then the own agency for a non admin_plus', async () => {
    editor();
    const mock = api({ 'POST /api/clients': () => jsonResponse(201, makeClient({ id: nthId('c', 5), nom: 'Mairie' })) });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter un client' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un client' });
    expect(within(dialog).queryByLabelText('Agence')).toBeNull();
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Mairie');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByLabelText('Adresse').getAttribute('aria-invalid')).toBe('true');
    expect(mock.calls('POST /api/clients')).toHaveLength(0);

    await app.user.type(within(dialog).getByLabelText('Adresse'), '1 place Bellecour');
    await app.user.type(within(dialog).getByLabelText('Code postal'), '69002');
    await app.user.type(within(dialog).getByLabelText('Ville'), 'Lyon');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/clients')[0])).toEqual({ nom: 'Mairie', adresse: '1 place Bellecour', ville: 'Lyon', code_postal: '69002', agence_id: MIDS.agence });
  });

  it("makes admin_plus pick an agency: 'Veuillez sélectionner une agence.'", async () => {
    signIn(makeUser({ role: 'admin_plus', permissions: ['clients.view'] }));
    const mock = api({ 'GET /api/agences': [makeAgence(), makeAgence({ id: MIDS.agence2, nom: 'Agence Grenoble' })] });
    const app = renderApp('/clients');
    expect(await screen.findByRole('columnheader', { name: 'Agence' })).toBeTruthy();
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter un client' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un client' });
    for (const [label, value] of [['Nom', 'Mairie'], ['Adresse', '1 place Grenette'], ['Code postal', '38000'], ['Ville', 'Grenoble']] as const) {
      await app.user.type(within(dialog).getByLabelText(label), value);
    }
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(M.agenceRequired);
    expect(mock.calls('POST /api/clients')).toHaveLength(0);
    await app.user.selectOptions(within(dialog).getByLabelText('Agence'), await within(dialog).findByRole('option', { name: 'Agence Grenoble' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('POST /api/clients')).toHaveLength(1));
  });

  it("requires every site field: 'Tous les champs sont obligatoires !'", async () => {
    editor();
    const mock = api({ 'POST /api/sites': () => jsonResponse(201, makeSite({ id: nthId('b', 7), nom: 'Parking' })) });
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(within(detail).getByRole('button', { name: '+ Ajouter un site' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un site' });
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Parking');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Tous les champs sont obligatoires !');
    await app.user.type(within(dialog).getByLabelText('Adresse'), '2 rue Basse');
    await app.user.type(within(dialog).getByLabelText('Code postal'), '69004');
    await app.user.type(within(dialog).getByLabelText('Ville'), 'Lyon');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/sites')[0])).toEqual({ nom: 'Parking', adresse: '2 rue Basse', ville: 'Lyon', code_postal: '69004', client_id: MIDS.client });
  });

  it('checks an installation: métier required, délai a whole number of at least 1 hour', async () => {
    editor();
    const mock = api({ 'POST /api/installations': () => jsonResponse(201, makeInstallation({ id: nthId('d', 7) })) });
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    await app.user.click(within(detail).getByRole('button', { name: '+ Ajouter une installation' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter une installation' });
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Sprinklers');
    await app.user.type(within(dialog).getByLabelText('Description'), 'Réseau sprinkler du parking');
    await app.user.type(within(dialog).getByLabelText("Délai d'intervention (h)"), '0');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByText(M.installationMetierRequired)).toBeTruthy();
    expect(within(dialog).getByText(M.installationDelaiInvalid)).toBeTruthy();
    expect(mock.calls('POST /api/installations')).toHaveLength(0);

    await app.user.selectOptions(within(dialog).getByLabelText('Métier'), 'Électricité');
    await app.user.clear(within(dialog).getByLabelText("Délai d'intervention (h)"));
    await app.user.type(within(dialog).getByLabelText("Délai d'intervention (h)"), '8');
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Astreinte' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/installations')[0])).toEqual({
      nom: 'Sprinklers',
      id_metier: MIDS.metier2,
      description: 'Réseau sprinkler du parking',
      delai: 8,
      astreinte: 1,
      site_id: MIDS.site,
    });
  });

  it('asks before deleting a client, a site or an installation, and shows a refusal', async () => {
    editor();
    const mock = api({
      'DELETE /api/clients/:id': () => jsonResponse(409, { error: M.clientHasOpenTickets }),
      'DELETE /api/installations/:id': { success: true },
    });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer le client Hôpital Nord' }));
    let dialog = screen.getByRole('dialog', { name: 'Supprimer le client' });
    expect(within(dialog).getByText('Supprimer le client « Hôpital Nord » et tous ses sites ?')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(M.clientHasOpenTickets);
    await app.user.click(within(dialog).getByRole('button', { name: 'Annuler' }));

    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    await app.user.click(within(detail).getByRole('button', { name: "Supprimer l'installation SSI catégorie A" }));
    dialog = screen.getByRole('dialog', { name: "Supprimer l'installation" });
    expect(mock.calls('DELETE /api/installations/:id')).toHaveLength(0);
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(mock.calls('DELETE /api/installations/:id')[0]?.path).toBe(`/api/installations/${MIDS.installation}`));
  });

  it("manages an installation's QR codes: images, assign a free one, take one off", async () => {
    editor();
    const mock = api({
      'POST /api/qrcodes/:id/assign': (req: RecordedRequest) => ({ ...makeQrCode(2), installation_id: (sentBody(req) as { installation_id: string }).installation_id }),
      'DELETE /api/qrcodes/:id/assign': { ...makeQrCode(1), installation_id: null },
    });
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    await app.user.click(within(detail).getByRole('button', { name: 'QR codes de SSI catégorie A' }));
    const dialog = screen.getByRole('dialog', { name: 'QR codes — SSI catégorie A' });
    const image = (await within(dialog).findByRole('img', { name: `QR code ${makeQrCode(1).qr_key}` })) as HTMLImageElement;
    expect(image.src).toMatch(/^blob:/);
    await app.user.selectOptions(await within(dialog).findByLabelText('QR code libre'), makeQrCode(3).qr_key);
    await app.user.click(within(dialog).getByRole('button', { name: 'Affecter' }));
    await waitFor(() => expect(mock.calls('POST /api/qrcodes/:id/assign')).toHaveLength(1));
    expect(mock.calls('POST /api/qrcodes/:id/assign')[0]?.path).toBe(`/api/qrcodes/${makeQrCode(3).id}/assign`);
    expect(sentBody(mock.calls('POST /api/qrcodes/:id/assign')[0])).toEqual({ installation_id: MIDS.installation });
    await app.user.click(within(dialog).getByRole('button', { name: `Retirer le QR code ${makeQrCode(1).qr_key}` }));
    await waitFor(() => expect(mock.calls('DELETE /api/qrcodes/:id/assign')[0]?.path).toBe(`/api/qrcodes/${makeQrCode(1).id}/assign`));
  });

  it('edits a client on the version it loaded; when somebody else changed it meanwhile, keeps what was typed and reloads it on request', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    const renamed = { ...HOPITAL, nom: 'Hôpital Nord-Est', version: 5 };
    const puts: { version?: number; adresse?: string }[] = [];
    api({
      'GET /api/clients': (req: RecordedRequest) => (req.query.get('page') ? page([{ ...HOPITAL, version: 4 }, LYCEE]) : [renamed, LYCEE]),
      'PUT /api/clients/:id': (req: RecordedRequest) => {
        const body = sentBody(req) as { version?: number; adresse?: string };
        puts.push(body);
        return body.version === renamed.version ? { ...renamed, ...body, version: 6 } : jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' });
      },
    });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier le client Hôpital Nord' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier le client' });
    await app.user.clear(within(dialog).getByLabelText('Adresse'));
    await app.user.type(within(dialog).getByLabelText('Adresse'), '1 place Bellecour');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(puts[0]).toMatchObject({ adresse: '1 place Bellecour', version: 4 });
    expect((within(dialog).getByLabelText('Adresse') as HTMLInputElement).value).toBe('1 place Bellecour');
    expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Hôpital Nord');

    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Hôpital Nord-Est'));
    expect((within(dialog).getByLabelText('Adresse') as HTMLInputElement).value).toBe(HOPITAL.adresse);
    await app.user.clear(within(dialog).getByLabelText('Adresse'));
    await app.user.type(within(dialog).getByLabelText('Adresse'), '1 place Bellecour');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Modifier le client' })).toBeNull());
    expect(puts[1]).toMatchObject({ nom: 'Hôpital Nord-Est', adresse: '1 place Bellecour', version: 5 });
  });

  it('edits an installation on the version it loaded and keeps the typed values on a conflict', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let sites = [{ ...BATIMENT_A, installations: [makeInstallation({ version: 7 })] }, BATIMENT_B];
    const mock = api({
      'GET /api/clients/:id/sites': () => sites,
      'PUT /api/installations/:id': () => jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    await app.user.click(within(detail).getByRole('button', { name: "Modifier l'installation SSI catégorie A" }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'installation" });
    sites = [{ ...BATIMENT_A, installations: [makeInstallation({ version: 8, description: 'Centrale remplacée' })] }, BATIMENT_B];
    await app.user.clear(within(dialog).getByLabelText('Description'));
    await app.user.type(within(dialog).getByLabelText('Description'), 'Centrale Esser');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/installations/:id')[0])).toMatchObject({ description: 'Centrale Esser', version: 7 });
    expect((within(dialog).getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Centrale Esser');
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByLabelText('Description') as HTMLTextAreaElement).value).toBe('Centrale remplacée'));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('PUT /api/installations/:id')).toHaveLength(2));
    expect(sentBody(mock.calls('PUT /api/installations/:id')[1])).toMatchObject({ description: 'Centrale remplacée', version: 8 });
  });

  it('takes a QR code off on the version it was listed at, and shows the codes as they are now when it moved meanwhile', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let assigned = [{ ...makeQrCode(1), version: 1 }];
    const mock = api({
      'GET /api/qrcodes/by-installation/:id': () => ({ items: assigned }),
      'DELETE /api/qrcodes/:id/assign': () => {
        assigned = [];
        return jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' });
      },
    });
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    await app.user.click(within(detail).getByRole('button', { name: 'QR codes de SSI catégorie A' }));
    const dialog = screen.getByRole('dialog', { name: 'QR codes — SSI catégorie A' });
    await app.user.click(await within(dialog).findByRole('button', { name: `Retirer le QR code ${makeQrCode(1).qr_key}` }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(CONFLICT);
    expect(new Headers(mock.calls('DELETE /api/qrcodes/:id/assign')[0]?.init.headers).get('If-Match')).toBe('"1"');
    expect(await within(dialog).findByText('Aucun QR code affecté à cette installation.')).toBeTruthy();
  });

  it('lists the contacts with their assignments and adds one with its sites and installations', async () => {
    editor();
    const mock = api({ 'POST /api/interlocuteurs': () => jsonResponse(201, makeContact({ id: nthId('f', 2), nom: 'Morel' })) });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Interlocuteurs de Hôpital Nord' }));
    const panel = screen.getByRole('dialog', { name: 'Interlocuteurs — Hôpital Nord' });
    expect(await within(panel).findByText('Marc Roux')).toBeTruthy();
    expect(within(panel).getByText(/1 site · 0 installation/)).toBeTruthy();
    expect(await within(panel).findByText(/Sites : Bâtiment A/)).toBeTruthy();

    await app.user.click(within(panel).getByRole('button', { name: '+ Ajouter un interlocuteur' }));
    await app.user.type(within(panel).getByLabelText('Prénom'), 'Anne');
    await app.user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    expect(within(panel).getAllByText(M.interlocuteurNomPrenomRequired).length).toBeGreaterThan(0);
    await app.user.type(within(panel).getByLabelText('Nom'), 'Morel');
    await app.user.click(within(panel).getByRole('checkbox', { name: 'Site\u202F: Bâtiment B' }));
    await app.user.click(within(panel).getByRole('checkbox', { name: 'Installation\u202F: SSI catégorie A' }));
    await app.user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('POST /api/interlocuteurs')).toHaveLength(1));
    expect(sentBody(mock.calls('POST /api/interlocuteurs')[0])).toEqual({
      nom: 'Morel',
      prenom: 'Anne',
      fonction: null,
      telephone: null,
      email: null,
      client_id: MIDS.client,
      affect_sites: [MIDS.site2],
      affect_installations: [MIDS.installation],
    });
    expect(await within(panel).findByRole('button', { name: '+ Ajouter un interlocuteur' })).toBeTruthy();
  });

  it("takes a contact's field error and red border away as soon as the field is fixed", async () => {
    editor();
    api();
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Interlocuteurs de Hôpital Nord' }));
    const panel = screen.getByRole('dialog', { name: 'Interlocuteurs — Hôpital Nord' });
    await app.user.click(await within(panel).findByRole('button', { name: '+ Ajouter un interlocuteur' }));
    await app.user.type(within(panel).getByLabelText('Prénom'), 'Anne');
    await app.user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    const nom = within(panel).getByLabelText('Nom');
    expect(nom.getAttribute('aria-invalid')).toBe('true');
    expect(within(panel).getAllByText(M.interlocuteurNomPrenomRequired).length).toBeGreaterThan(0);
    await app.user.type(nom, 'Morel');
    expect(nom.getAttribute('aria-invalid')).not.toBe('true');
    expect(within(panel).queryAllByText(M.interlocuteurNomPrenomRequired)).toHaveLength(0);
  });

  it("confirms a contact's deletion and says when it failed", async () => {
    editor();
    api({ 'DELETE /api/interlocuteurs/:id': () => jsonResponse(500, {}) });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Interlocuteurs de Hôpital Nord' }));
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Marc Roux' }));
    const confirm = screen.getByRole('dialog', { name: "Supprimer l'interlocuteur" });
    await app.user.click(within(confirm).getByRole('button', { name: 'Supprimer' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe("Erreur lors de la suppression de l'interlocuteur");
  });

  it("shows 'Erreur chargement des interlocuteurs'", async () => {
    editor();
    api({ 'GET /api/interlocuteurs/client/:id': () => jsonResponse(500, {}) });
    const app = renderApp('/clients');
    await app.user.click(await screen.findByRole('button', { name: 'Interlocuteurs de Hôpital Nord' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Erreur chargement des interlocuteurs');
  });

  it('is read-only with clients.view alone', async () => {
    signIn(makeUser({ role: 'technicien_plus', permissions: ['clients.view'] }));
    const mock = api();
    const app = renderApp('/clients');
    const detail = await openClient(app);
    await app.user.click(await within(detail).findByRole('button', { name: /^Bâtiment A/ }));
    expect(screen.queryByRole('button', { name: '+ Ajouter un client' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Modifier/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Supprimer/ })).toBeNull();
    expect(within(detail).queryByRole('button', { name: '+ Ajouter un site' })).toBeNull();
    await app.user.click(within(detail).getByRole('button', { name: 'QR codes de SSI catégorie A' }));
    expect(await screen.findByRole('img', { name: `QR code ${makeQrCode(1).qr_key}` })).toBeTruthy();
    expect(screen.queryByLabelText('QR code libre')).toBeNull();
    expect(mock.calls('GET /api/qrcodes/unused')).toHaveLength(0);
  });
});
