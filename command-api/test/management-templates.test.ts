import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
let counter = 0;
const template = (overrides: Record<string, unknown> = {}) => ({
  name: `Rapport ${++counter}`,
  content_html: '<h1>Rapport {{ticket.num_chrono}}</h1><p>{{client.nom}}</p>',
  css: 'h1 { color: #b91c1c; }',
  ...overrides,
});

let h: ApiHarness;
let lyon: string;
let adminPlus: TestUser;
let viewer: TestUser;
let manager: TestUser;
let tech: TestUser;
let telesurv: TestUser;

beforeAll(async () => {
  h = await createApiHarness('api_mgmt_templates');
  lyon = await h.createAgence('Agence Lyon');
  adminPlus = await h.createUser({ role: 'admin_plus', agenceId: lyon });
  viewer = await h.createUser({ role: 'admin', agenceId: lyon }); // templates.view by default
  manager = await h.createUser({ role: 'technicien_plus', agenceId: lyon, permissions: ['templates.manage'] });
  tech = await h.createUser({ role: 'technicien', agenceId: lyon });
  telesurv = await h.createUser({ role: 'telesurveillance', telesurvAgences: [lyon] });
});
afterAll(async () => h?.close());

const list = async () => (await h.request(viewer, { method: 'GET', url: '/api/templates' })).json() as { id: string; name: string; content_html: string; css: string }[];

async function create(payload = template()): Promise<string> {
  const res = await h.request(manager, { method: 'POST', url: '/api/templates', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function storedTemplateEvents(): Promise<string> {
  const { rows } = await h.pool.query<{ text: string }>(`SELECT data::text AS text FROM es.events WHERE type LIKE 'Template%'`);
  return rows.map((row) => row.text).join('\n');
}

describe('GET /api/templates', () => {
  it('lists the templates for templates.view or templates.manage', async () => {
    const id = await create(template({ name: 'Rapport A' }));
    for (const user of [viewer, manager, adminPlus]) {
      const res = await h.request(user, { method: 'GET', url: '/api/templates' });
      expect(res.statusCode, user.role).toBe(200);
      expect(res.json()).toContainEqual({ id, name: 'Rapport A', content_html: '<h1>Rapport {{ticket.num_chrono}}</h1><p>{{client.nom}}</p>', css: 'h1 { color: #b91c1c; }', version: 0 });
    }
  });

  it('answers 401 without a token (the spec’s builder sends none: we require one) and 403 without permission', async () => {
    expect((await h.request(null, { method: 'GET', url: '/api/templates' })).statusCode).toBe(401);
    for (const user of [tech, telesurv]) {
      const res = await h.request(user, { method: 'GET', url: '/api/templates' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Accès refusé.');
    }
  });
});

describe('POST /api/templates', () => {
  it('answers the new id; the name is trimmed and css optional', async () => {
    const res = await h.request(manager, { method: 'POST', url: '/api/templates', payload: { name: '  Rapport B ', content_html: '<p>x</p>' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), version: 0 });
    expect(await list()).toContainEqual({ id: res.json().id, name: 'Rapport B', content_html: '<p>x</p>', css: '', version: 0 });
  });

  it.each([
    ['a blank name', { name: '   ' }],
    ['no name', { name: undefined }],
    ['a blank content', { content_html: ' \n ' }],
    ['content that is only forbidden markup', { content_html: '<script>alert(1)</script><iframe src="https://evil.example"></iframe>' }],
  ])('refuses %s with "Nom et contenu requis." and creates nothing', async (_label, overrides) => {
    const before = (await list()).length;
    const res = await h.request(manager, { method: 'POST', url: '/api/templates', payload: template(overrides) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Nom et contenu requis.');
    expect((await list()).length).toBe(before);
  });

  it('answers 401 and 403 without templates.manage', async () => {
    expect((await h.request(null, { method: 'POST', url: '/api/templates', payload: template() })).statusCode).toBe(401);
    for (const user of [viewer, tech, telesurv]) expect((await h.request(user, { method: 'POST', url: '/api/templates', payload: template() })).statusCode, user.role).toBe(403);
  });
});

describe('sanitising', () => {
  it('keeps the layout allow-list and drops scripts, handlers, external URLs and other styles', async () => {
    const html = [
      '<h2 style="text-align:center;position:fixed" onclick="steal()">Titre</h2>',
      '<script>alert(1)</script><style>body{display:none}</style>',
      '<p><strong>a</strong><b>b</b><em>c</em><i>d</i><u>e</u><br><a href="javascript:alert(1)">lien</a></p>',
      '<ul><li>un</li></ul><ol><li>deux</li></ol><hr>',
      '<table><thead><tr><th colspan="2">Entête</th></tr></thead><tbody><tr><td rowspan="2" onmouseover="x()">1</td><td colspan="abc">2</td></tr></tbody></table>',
      `<img src="${PNG}" alt="logo" width="120" height="40" onerror="x()">`,
      '<img src="/api/files/logo.png" alt="local"><img src="http://localhost:3000/api/files/a.png" alt="public">',
      '<img src="https://evil.example/pixel.png" alt="externe"><img src="//evil.example/p.png"><img src="data:image/svg+xml;base64,PHN2Zz4=">',
      '<div style="font-weight:bold;font-size:12pt;color:#333;background-image:url(https://evil.example)">bloc</div>',
      '<span style="color:red">rouge</span><iframe src="https://evil.example"></iframe><object data="x"></object>',
    ].join('');
    const id = await create(template({ content_html: html, css: '@import url(https://evil.example/a.css); body { background: url("https://evil.example/x.png"); } </style><script>alert(1)</script>' }));
    const saved = (await list()).find((t) => t.id === id)!;
    expect(saved.content_html).toBe(
      [
        '<h2 style="text-align:center">Titre</h2>',
        '<p><strong>a</strong><b>b</b><em>c</em><i>d</i><u>e</u><br />lien</p>',
        '<ul><li>un</li></ul><ol><li>deux</li></ol><hr />',
        '<table><thead><tr><th colspan="2">Entête</th></tr></thead><tbody><tr><td rowspan="2">1</td><td>2</td></tr></tbody></table>',
        `<img src="${PNG}" alt="logo" width="120" height="40" />`,
        '<img src="/api/files/logo.png" alt="local" /><img src="http://localhost:3000/api/files/a.png" alt="public" />',
        '<div style="font-weight:bold;font-size:12pt;color:#333">bloc</div>',
        '<span style="color:red">rouge</span>',
      ].join(''),
    );
    // Without "<" the stylesheet cannot close its <style> element; what is left of the markup is inert text.
    expect(saved.css).not.toMatch(/evil|@import|</);
    expect(saved.css).toContain('background: none');
    // What the log keeps is the sanitised version.
    const events = await storedTemplateEvents();
    expect(events).not.toMatch(/onclick|onerror|<script|evil\.example|javascript:/);
  });
});

describe('PUT /api/templates/{id}', () => {
  it('saves and answers the template as stored', async () => {
    const id = await create();
    const res = await h.request(manager, {
      method: 'PUT',
      url: `/api/templates/${id}`,
      payload: { id, name: 'Rapport renommé', content_html: '<p onclick="x()">{{site.nom}}</p>', css: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, name: 'Rapport renommé', content_html: '<p>{{site.nom}}</p>', css: '', version: 1 });
    expect((await list()).find((t) => t.id === id)).toEqual(res.json());
  });

  it('refuses a missing name or content with 400 and changes nothing', async () => {
    const id = await create();
    const before = (await list()).find((t) => t.id === id);
    for (const payload of [template({ name: '' }), template({ content_html: '' }), template({ content_html: '<script>x</script>' })]) {
      const res = await h.request(manager, { method: 'PUT', url: `/api/templates/${id}`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Nom et contenu requis.');
    }
    expect((await list()).find((t) => t.id === id)).toEqual(before);
  });

  it('answers 401, 403, 404 and 400 for a bad id', async () => {
    const id = await create();
    expect((await h.request(null, { method: 'PUT', url: `/api/templates/${id}`, payload: template() })).statusCode).toBe(401);
    expect((await h.request(viewer, { method: 'PUT', url: `/api/templates/${id}`, payload: template() })).statusCode).toBe(403);
    const unknown = await h.request(manager, { method: 'PUT', url: `/api/templates/${UNKNOWN}`, payload: template() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Modèle introuvable.');
    expect((await h.request(manager, { method: 'PUT', url: '/api/templates/abc', payload: template() })).statusCode).toBe(400);
  });
});

describe('DELETE /api/templates/{id}', () => {
  it('deletes an unused template', async () => {
    const id = await create();
    const res = await h.request(manager, { method: 'DELETE', url: `/api/templates/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await list()).map((t) => t.id)).not.toContain(id);
    expect((await h.request(manager, { method: 'DELETE', url: `/api/templates/${id}` })).statusCode).toBe(404);
  });

  it('refuses with 409 while an agency uses it, and deletes once unassigned', async () => {
    const id = await create();
    const agence = ((await h.request(adminPlus, { method: 'GET', url: '/api/agences' })).json() as Record<string, unknown>[]).find((a) => a['id'] === lyon)!;
    const assigned = await h.request(adminPlus, { method: 'PUT', url: `/api/agences/${lyon}`, payload: { ...agence, id_template: id } });
    expect(assigned.statusCode).toBe(200);
    const res = await h.request(manager, { method: 'DELETE', url: `/api/templates/${id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Impossible de supprimer ce modèle : il est affecté à une agence.');
    expect((await list()).map((t) => t.id)).toContain(id);
    await h.request(adminPlus, { method: 'PUT', url: `/api/agences/${lyon}`, payload: { ...agence, id_template: null, version: assigned.json().version } });
    expect((await h.request(manager, { method: 'DELETE', url: `/api/templates/${id}` })).statusCode).toBe(200);
  });

  it('answers 401, 403 and 404', async () => {
    const id = await create();
    expect((await h.request(null, { method: 'DELETE', url: `/api/templates/${id}` })).statusCode).toBe(401);
    expect((await h.request(viewer, { method: 'DELETE', url: `/api/templates/${id}` })).statusCode).toBe(403);
    expect((await h.request(manager, { method: 'DELETE', url: `/api/templates/${UNKNOWN}` })).statusCode).toBe(404);
    expect((await list()).map((t) => t.id)).toContain(id);
  });
});
