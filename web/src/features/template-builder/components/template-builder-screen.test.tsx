import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAgence, makeTemplate, MIDS } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn, type RecordedRequest } from '../../../testing/render-app';

const STANDARD = makeTemplate();
const COURT = makeTemplate({ id: MIDS.template2, name: 'Rapport court', content_html: '<p>Court</p>' });

const manager = () => signIn(makeUser({ role: 'admin_plus', permissions: ['templates.view', 'templates.manage'] }));

function api(overrides: Record<string, unknown> = {}) {
  return mockApi({ 'GET /api/templates': [STANDARD, COURT], ...overrides });
}

// The route loads the screen lazily; load it once up front so a busy test run does not time out.
beforeAll(async () => {
  await import('./template-builder-screen');
});

async function open(path = '/template-builder') {
  const app = renderApp(path);
  await screen.findByRole('button', { name: 'Preview A4' }, { timeout: 5000 });
  return app;
}

const editorArea = () => screen.getByRole('textbox', { name: 'Contenu du modèle' });

describe('Template builder', () => {
  it('lists the templates and opens one in the editor (500 px high)', async () => {
    manager();
    api();
    const app = await open();
    expect(await screen.findByRole('button', { name: 'Rapport court' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nouveau modèle' })).toBeTruthy();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    expect(editorArea().textContent).toContain('Rapport {{ticket.num_chrono}}');
    expect((document.querySelector('.rich-editor__area') as HTMLElement).style.height).toBe('500px');
    await app.user.click(screen.getByRole('button', { name: 'Rapport court' }));
    expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport court');
    expect(editorArea().textContent).toBe('Court');
  });

  it("refuses to save without a name or content: 'Nom et contenu requis.'", async () => {
    manager();
    const mock = api();
    const app = await open();
    await screen.findByRole('button', { name: 'Rapport court' });
    await app.user.click(screen.getByRole('button', { name: 'Nouveau modèle' }));
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    expect(screen.getByRole('alert').textContent).toBe('Nom et contenu requis.');
    await app.user.type(screen.getByLabelText('Nom du modèle'), '   ');
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    expect(screen.getByRole('alert').textContent).toBe('Nom et contenu requis.');
    expect(mock.calls('POST /api/templates')).toHaveLength(0);
  });

  it('inserts variables in double braces from collapsible groups, and creates the template', async () => {
    manager();
    const mock = api({ 'POST /api/templates': () => jsonResponse(201, { id: '60000000-0000-4000-8000-000000000009' }) });
    const app = await open();
    await screen.findByRole('button', { name: 'Rapport court' });
    await app.user.click(screen.getByRole('button', { name: 'Nouveau modèle' }));
    expect((screen.getByRole('button', { name: 'Agence' }) as HTMLButtonElement).disabled).toBe(true);
    await app.user.type(screen.getByLabelText('Nom du modèle'), 'Bon d’intervention');

    const clientGroup = screen.getByRole('button', { name: /^Client$/ });
    expect(clientGroup.getAttribute('aria-expanded')).toBe('false');
    await app.user.click(clientGroup);
    expect(clientGroup.getAttribute('aria-expanded')).toBe('true');
    await app.user.click(screen.getByRole('button', { name: 'Insérer {{client.nom}}' }));
    await app.user.click(screen.getByRole('button', { name: 'Insérer {{ticket.num_chrono}}' }));
    expect(editorArea().textContent).toBe('{{client.nom}}{{ticket.num_chrono}}');

    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    await waitFor(() => expect(mock.calls('POST /api/templates')).toHaveLength(1));
    const body = sentBody(mock.calls('POST /api/templates')[0]) as { name: string; content_html: string; css: string };
    expect(body.name).toBe('Bon d’intervention');
    expect(body.content_html).toContain('{{client.nom}}{{ticket.num_chrono}}');
    expect(body.css).toBe('');
    // Saved: it now has an id, so it can go to an agency.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Agence' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("duplicates as an unsaved copy named ' (copie)' and saves it as a new template", async () => {
    manager();
    const mock = api({ 'POST /api/templates': () => jsonResponse(201, { id: '60000000-0000-4000-8000-000000000009' }) });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Dupliquer' }));
    expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard (copie)');
    expect(screen.getByText('Nouveau modèle, pas encore sauvegardé.')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    await waitFor(() => expect(mock.calls('POST /api/templates')).toHaveLength(1));
    expect(mock.calls('PUT /api/templates/:id')).toHaveLength(0);
    expect(sentBody(mock.calls('POST /api/templates')[0])).toMatchObject({ name: 'Rapport standard (copie)' });
  });

  it("updates a saved template and shows 'Erreur lors de la sauvegarde' on failure", async () => {
    manager();
    let answer: Response | unknown = STANDARD;
    const mock = api({ 'PUT /api/templates/:id': () => answer });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    await waitFor(() => expect(mock.calls('PUT /api/templates/:id')).toHaveLength(1));
    expect(mock.calls('PUT /api/templates/:id')[0]?.path).toBe(`/api/templates/${MIDS.template}`);
    answer = jsonResponse(500, {});
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors de la sauvegarde');
  });

  it('saves on the version it loaded, then on the one each save answers; a conflict keeps what was typed until the template is reloaded', async () => {
    manager();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let listed = [{ ...STANDARD, version: 2 }, COURT];
    const mock = api({
      'GET /api/templates': () => listed,
      'PUT /api/templates/:id': (req: RecordedRequest) => {
        const body = sentBody(req) as { version?: number };
        const current = listed[0]!.version ?? 0;
        return body.version === current ? { ...listed[0], ...body, version: current + 1 } : jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' });
      },
    });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    await waitFor(() => expect(mock.calls('PUT /api/templates/:id')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/templates/:id')[0])).toMatchObject({ version: 2 });
    // Somebody else saves it meanwhile (the list was not reloaded here).
    listed = [{ ...STANDARD, name: 'Rapport standard v2', version: 5 }, COURT];
    const name = screen.getByLabelText('Nom du modèle');
    await app.user.clear(name);
    await app.user.type(name, 'Rapport maison');
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/templates/:id')[1])).toMatchObject({ name: 'Rapport maison', version: 3 });
    expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport maison');
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard v2'));
    await app.user.click(screen.getByRole('button', { name: 'Sauvegarder' }));
    await waitFor(() => expect(mock.calls('PUT /api/templates/:id')).toHaveLength(3));
    expect(sentBody(mock.calls('PUT /api/templates/:id')[2])).toMatchObject({ name: 'Rapport standard v2', version: 5 });
  });

  it('asks before deleting and shows why it was refused', async () => {
    manager();
    const mock = api({ 'DELETE /api/templates/:id': () => jsonResponse(409, { success: false, error: 'Impossible de supprimer ce modèle : il est affecté à une agence.' }) });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Supprimer' }));
    const dialog = screen.getByRole('dialog', { name: 'Supprimer le modèle' });
    expect(within(dialog).getByText('Supprimer le modèle « Rapport standard » ?')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Impossible de supprimer ce modèle : il est affecté à une agence.');
    expect(mock.calls('DELETE /api/templates/:id')).toHaveLength(1);
  });

  it('assigns the template to an agency with the whole agency, and takes it off', async () => {
    manager();
    const lyon = makeAgence();
    const grenoble = makeAgence({ id: MIDS.agence2, nom: 'Agence Grenoble', id_template: MIDS.template });
    const mock = api({
      'GET /api/agences': [lyon, grenoble],
      'PUT /api/agences/:id': (req: RecordedRequest) => ({ ...(req.path.endsWith(MIDS.agence) ? lyon : grenoble), ...(sentBody(req) as object) }),
    });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Agence' }));
    const dialog = screen.getByRole('dialog', { name: 'Affecter le modèle à une agence' });
    expect(await within(dialog).findByText('Utilise ce modèle')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Affecter le modèle à Agence Lyon' }));
    await waitFor(() => expect(mock.calls('PUT /api/agences/:id')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/agences/:id')[0])).toEqual({
      nom: 'Agence Lyon',
      adresse: '5 quai Rambaud',
      cp_postal: '69002',
      ville: 'Lyon',
      telephone: '04 78 00 00 00',
      id_template: MIDS.template,
    });
    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Retirer le modèle de Agence Grenoble' }) as HTMLButtonElement).disabled).toBe(false));
    await app.user.click(within(dialog).getByRole('button', { name: 'Retirer le modèle de Agence Grenoble' }));
    await waitFor(() => expect(mock.calls('PUT /api/agences/:id')).toHaveLength(2));
    expect(sentBody(mock.calls('PUT /api/agences/:id')[1])).toMatchObject({ nom: 'Agence Grenoble', id_template: null });
  });

  it('assigns with the agency as listed, its version included, and shows the agencies as they are now when one changed meanwhile', async () => {
    manager();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let agences = [makeAgence({ version: 3 })];
    const mock = api({
      'GET /api/agences': () => agences,
      'PUT /api/agences/:id': () => {
        agences = [makeAgence({ id_template: MIDS.template2, version: 4 })];
        return jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' });
      },
    });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Agence' }));
    const dialog = screen.getByRole('dialog', { name: 'Affecter le modèle à une agence' });
    await app.user.click(await within(dialog).findByRole('button', { name: 'Affecter le modèle à Agence Lyon' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/agences/:id')[0])).toMatchObject({ id_template: MIDS.template, version: 3 });
    expect(await within(dialog).findByText('Utilise : Rapport court')).toBeTruthy();
  });

  it("says 'Erreur lors du chargement des agences'", async () => {
    manager();
    api({ 'GET /api/agences': () => jsonResponse(500, {}) });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Agence' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Erreur lors du chargement des agences');
  });

  it('previews the unsaved content as the PDF the server renders, on an A4 page of 1200 × 1123', async () => {
    manager();
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);
    const mock = api({ 'POST /api/templates/preview': () => new Response(pdf, { status: 200, headers: { 'Content-Type': 'application/pdf' } }) });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.type(editorArea(), ' modifié');
    await app.user.click(screen.getByRole('button', { name: 'Preview A4' }));
    const dialog = screen.getByRole('dialog');
    const frame = (await within(dialog).findByTitle('Aperçu A4 du modèle')) as HTMLIFrameElement;
    expect(frame.getAttribute('width')).toBe('1200');
    expect(frame.getAttribute('height')).toBe('1123');
    expect(frame.getAttribute('src')).toMatch(/^blob:/);
    expect(within(dialog).getByRole('link', { name: 'Télécharger le PDF' }).getAttribute('download')).toBe('apercu-Rapport-standard.pdf');
    const sent = sentBody(mock.calls('POST /api/templates/preview')[0]) as { content_html: string };
    expect(sent.content_html).toContain('modifié');
  });

  it("says why there is no preview when the report service does not answer, and retries", async () => {
    manager();
    let calls = 0;
    api({
      'POST /api/templates/preview': () => {
        calls++;
        return calls === 1
          ? jsonResponse(503, { error: 'L’aperçu n’a pas pu être produit : le service de rendu des rapports ne répond pas. Réessayez dans quelques instants.' })
          : new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { 'Content-Type': 'application/pdf' } });
      },
    });
    const app = await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    await app.user.click(screen.getByRole('button', { name: 'Preview A4' }));
    const dialog = screen.getByRole('dialog');
    expect((await within(dialog).findByRole('alert')).textContent).toContain('le service de rendu des rapports ne répond pas');
    await app.user.click(within(dialog).getByRole('button', { name: 'Réessayer' }));
    expect(await within(dialog).findByTitle('Aperçu A4 du modèle')).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('folds both side panels', async () => {
    manager();
    api();
    const app = await open();
    const left = screen.getByRole('button', { name: 'Masquer : Modèles' });
    const right = screen.getByRole('button', { name: 'Masquer : Variables disponibles' });
    await app.user.click(left);
    await app.user.click(right);
    expect(screen.getByRole('button', { name: 'Afficher : Modèles' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByRole('button', { name: 'Afficher : Variables disponibles' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Nouveau modèle' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Insérer {{ticket.num_chrono}}' })).toBeNull();
  });

  it("says 'Erreur lors du chargement des modèles'", async () => {
    manager();
    api({ 'GET /api/templates': () => jsonResponse(500, {}) });
    await open();
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors du chargement des modèles');
  });

  it('only previews with templates.view', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['templates.view'] }));
    api();
    await open();
    await waitFor(() => expect((screen.getByLabelText('Nom du modèle') as HTMLInputElement).value).toBe('Rapport standard'));
    expect(screen.queryByRole('button', { name: 'Sauvegarder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Nouveau modèle' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Preview A4' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Insérer {{ticket.num_chrono}}' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
