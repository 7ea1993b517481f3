import { randomUUID } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_CODE_KEY_PATTERN } from '@fsm/contracts';
import type { TestUser } from '../src/test-support/api-harness.js';
import { errorOf, useClientWorld } from './support/client-fixtures.js';

const w = useClientWorld('api_mgmt_qrcodes');

interface CodeJson {
  id: string;
  url: string;
  qr_key: string;
}

async function unused(user: TestUser, query = ''): Promise<number> {
  const res = await w.h.request(user, { method: 'GET', url: `/api/qrcodes/unused-count${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().unused;
}

async function batch(user: TestUser, count: unknown, extra: Record<string, unknown> = {}): Promise<CodeJson[]> {
  const res = await w.h.request(user, { method: 'POST', url: '/api/qrcodes/batch', payload: { count, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().codes;
}

async function byInstallation(user: TestUser, installationId: string): Promise<CodeJson[]> {
  const res = await w.h.request(user, { method: 'GET', url: `/api/qrcodes/by-installation/${installationId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items;
}

describe('POST /api/qrcodes/batch', () => {
  it('generates unused codes for the caller’s agency, each with a random key and its public URL', async () => {
    const before = await unused(w.adminA);
    const codes = await batch(w.adminA, 3);
    expect(codes).toHaveLength(3);
    for (const code of codes) {
      expect(code.qr_key).toMatch(QR_CODE_KEY_PATTERN);
      expect(code.qr_key.length).toBeGreaterThanOrEqual(32);
      expect(code.url).toBe(`${w.h.deps.env.PUBLIC_URL}/ticket?key=${code.qr_key}`);
    }
    expect(new Set(codes.map((code) => code.qr_key)).size).toBe(3);
    expect(await unused(w.adminA)).toBe(before + 3);
    expect(await unused(w.adminB)).toBe(0);
  });

  it('clamps the count to 100, defaults to 5, and refuses below 1 or a non-number with nothing generated', async () => {
    const agence = await w.h.createAgence();
    const admin = await w.h.createUser({ role: 'admin', agenceId: agence });
    expect(await batch(admin, 500)).toHaveLength(100);
    expect(await batch(admin, undefined)).toHaveLength(5);
    expect(await batch(admin, '2')).toHaveLength(2);
    const cases: [unknown, string][] = [
      [0, 'Générez au moins 1 QR code.'],
      [-4, 'Générez au moins 1 QR code.'],
      ['beaucoup', 'Le nombre de QR codes doit être un nombre.'],
    ];
    for (const [count, message] of cases) {
      const res = await w.h.request(admin, { method: 'POST', url: '/api/qrcodes/batch', payload: { count } });
      expect(res.statusCode, String(count)).toBe(400);
      expect(errorOf(res)).toBe(message);
    }
    expect(await unused(admin)).toBe(107);
  });

  it('lets admin_plus generate for another agency, never an agency admin', async () => {
    const before = await unused(w.adminB);
    expect(await batch(w.adminPlus, 2, { agence_id: w.agenceB })).toHaveLength(2);
    expect(await unused(w.adminB)).toBe(before + 2);
    expect(await unused(w.adminPlus, `?agence_id=${w.agenceB}`)).toBe(before + 2);
    const refused = await w.h.request(w.adminA, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 1, agence_id: w.agenceB } });
    expect(refused.statusCode).toBe(403);
    expect(await unused(w.adminB)).toBe(before + 2);
  });

  it('answers 403 without qrcodes.manage and 401 without token', async () => {
    for (const user of [w.techPlusA, w.techA, w.telesurvA]) {
      const res = await w.h.request(user, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 1 } });
      expect(res.statusCode, user.role).toBe(403);
      expect(errorOf(res)).toBe('Accès refusé.');
    }
    expect((await w.h.request(null, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 1 } })).statusCode).toBe(401);
  });
});

describe('GET /api/qrcodes/unused-count and /api/qrcodes/unused', () => {
  it('answers 403 without qrcodes.manage and 401 without token', async () => {
    for (const user of [w.techPlusA, w.techA, w.telesurvA]) {
      expect((await w.h.request(user, { method: 'GET', url: '/api/qrcodes/unused-count' })).statusCode, user.role).toBe(403);
    }
    expect((await w.h.request(null, { method: 'GET', url: '/api/qrcodes/unused-count' })).statusCode).toBe(401);
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/qrcodes/unused-count?agence_id=${w.agenceB}` })).statusCode).toBe(403);
  });

  it('lists the agency’s unused codes for the assign picker (qrcodes.manage or clients.edit)', async () => {
    const agence = await w.h.createAgence();
    const admin = await w.h.createUser({ role: 'admin', agenceId: agence });
    const editorOnly = await w.h.createUser({ role: 'technicien_plus', agenceId: agence, permissions: ['clients.view', 'clients.edit'] });
    const codes = await batch(admin, 2);
    for (const user of [admin, editorOnly]) {
      const res = await w.h.request(user, { method: 'GET', url: '/api/qrcodes/unused' });
      expect(res.statusCode, user.role).toBe(200);
      // One batch shares its instant: the list orders its codes by id. Each is at its first version.
      expect(res.json().items).toEqual([...codes].sort((x, y) => (x.id < y.id ? -1 : 1)).map((code) => ({ ...code, version: 0 })));
    }
    expect((await w.h.request(w.techPlusA, { method: 'GET', url: '/api/qrcodes/unused' })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'GET', url: '/api/qrcodes/unused' })).statusCode).toBe(401);
  });
});

describe('POST /api/qrcodes/batch onto an installation', () => {
  it('generates the codes already assigned to the installation (clients.edit), not counted as unused', async () => {
    const { installationId } = await w.f.tree(w.adminA, w.metierId);
    const before = await unused(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 3, installation_id: installationId } });
    expect(res.statusCode).toBe(201);
    const codes = res.json().codes as { id: string }[];
    expect(codes).toHaveLength(3);
    expect((await byInstallation(w.adminA, installationId)).map((c) => c.id).sort()).toEqual(codes.map((c) => c.id).sort());
    expect(await unused(w.adminA)).toBe(before);
    // The QR screen's permission alone does not change installations.
    const noEdit = await w.h.request(w.techPlusA, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 1, installation_id: installationId } });
    expect(noEdit.statusCode).toBe(403);
  });
});

describe('POST /api/qrcodes/export', () => {
  it('answers a CSV of the agency’s codes with key, URL, installation, site and client', async () => {
    const agence = await w.h.createAgence();
    const admin = await w.h.createUser({ role: 'admin', agenceId: agence });
    const codes = await batch(admin, 2);
    const { installationId } = await w.f.tree(admin, w.metierId);
    await w.h.request(admin, { method: 'POST', url: `/api/qrcodes/${codes[0]!.id}/assign`, payload: { installation_id: installationId } });
    const names = (await w.h.pool.query(
      `SELECT i.nom AS installation, s.nom AS site, c.nom AS client FROM rm.installations i JOIN rm.sites s ON s.id = i.site_id JOIN rm.clients c ON c.id = i.client_id WHERE i.id = $1`,
      [installationId],
    )).rows[0];
    const res = await w.h.request(admin, { method: 'POST', url: '/api/qrcodes/export' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="qrcodes_\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Clé;URL;Installation;Site;Client');
    expect(lines).toContain(`${codes[0]!.qr_key};${codes[0]!.url};${names.installation};${names.site};${names.client}`);
    expect(lines).toContain(`${codes[1]!.qr_key};${codes[1]!.url};;;`);
    expect(lines).toHaveLength(4); // header, two codes, final empty line
    // A JSON body (as some clients send) is accepted too.
    expect((await w.h.request(admin, { method: 'POST', url: '/api/qrcodes/export', payload: {} })).statusCode).toBe(200);
  });

  it('answers 403 without qrcodes.manage and 401 without token', async () => {
    expect((await w.h.request(w.techPlusA, { method: 'POST', url: '/api/qrcodes/export' })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'POST', url: '/api/qrcodes/export' })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'POST', url: '/api/qrcodes/export' })).statusCode).toBe(401);
  });
});

describe('assigning codes: POST and DELETE /api/qrcodes/{id}/assign, GET /api/qrcodes/by-installation/{id}', () => {
  it('assigns a code to an installation, lists it there, and unassigns it', async () => {
    const { installationId } = await w.f.tree(w.adminA, w.metierId);
    const [code] = await batch(w.adminA, 1);
    const before = await unused(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${code!.id}/assign`, payload: { installation_id: installationId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...code, installation_id: installationId, version: 1 });
    expect(await byInstallation(w.adminA, installationId)).toEqual([{ ...code, version: 1 }]);
    // The clients screen's readers see it too.
    expect(await byInstallation(w.techPlusA, installationId)).toEqual([{ ...code, version: 1 }]);
    expect(await unused(w.adminA)).toBe(before - 1);
    // Again on the same installation: nothing changes.
    expect((await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${code!.id}/assign`, payload: { installation_id: installationId } })).statusCode).toBe(200);

    const other = await w.f.tree(w.adminA, w.metierId);
    const elsewhere = await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${code!.id}/assign`, payload: { installation_id: other.installationId } });
    expect(elsewhere.statusCode).toBe(409);
    expect(errorOf(elsewhere)).toBe('Ce QR code est déjà affecté à une autre installation.');

    const off = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/qrcodes/${code!.id}/assign` });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ...code, installation_id: null, version: 2 });
    expect(await byInstallation(w.adminA, installationId)).toEqual([]);
    expect(await unused(w.adminA)).toBe(before);
  });

  it('answers 400 for a bad body, 404 for another agency’s code or installation, 400 across agencies for admin_plus', async () => {
    const a = await w.f.tree(w.adminA, w.metierId);
    const b = await w.f.tree(w.adminB, w.metierId);
    const [codeA] = await batch(w.adminA, 1);
    const [codeB] = await batch(w.adminB, 1);
    const bad = await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${codeA!.id}/assign`, payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('Installation invalide.');
    const foreignCode = await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${codeB!.id}/assign`, payload: { installation_id: a.installationId } });
    expect(foreignCode.statusCode).toBe(404);
    expect(errorOf(foreignCode)).toBe('QR code introuvable.');
    const foreignInstallation = await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${codeA!.id}/assign`, payload: { installation_id: b.installationId } });
    expect(foreignInstallation.statusCode).toBe(404);
    expect(errorOf(foreignInstallation)).toBe('Installation introuvable.');
    const crossAgency = await w.h.request(w.adminPlus, { method: 'POST', url: `/api/qrcodes/${codeA!.id}/assign`, payload: { installation_id: b.installationId } });
    expect(crossAgency.statusCode).toBe(400);
    expect(errorOf(crossAgency)).toBe("Ce QR code appartient à une autre agence que l'installation.");
    expect((await w.h.request(w.adminA, { method: 'POST', url: `/api/qrcodes/${randomUUID()}/assign`, payload: { installation_id: a.installationId } })).statusCode).toBe(404);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/qrcodes/${codeB!.id}/assign` })).statusCode).toBe(404);
    expect(await byInstallation(w.adminB, b.installationId)).toEqual([]);
    expect(await byInstallation(w.adminA, a.installationId)).toEqual([]);
  });

  it('answers 403 without clients.edit and 401 without token', async () => {
    const { installationId } = await w.f.tree(w.adminA, w.metierId);
    const [code] = await batch(w.adminA, 1);
    for (const user of [w.techPlusA, w.techA, w.telesurvA]) {
      expect((await w.h.request(user, { method: 'POST', url: `/api/qrcodes/${code!.id}/assign`, payload: { installation_id: installationId } })).statusCode, user.role).toBe(403);
      expect((await w.h.request(user, { method: 'DELETE', url: `/api/qrcodes/${code!.id}/assign` })).statusCode, user.role).toBe(403);
    }
    expect((await w.h.request(null, { method: 'POST', url: `/api/qrcodes/${code!.id}/assign`, payload: { installation_id: installationId } })).statusCode).toBe(401);
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/qrcodes/${code!.id}/assign` })).statusCode).toBe(401);
  });

  it('lists by installation only in scope: 404 outside, 403 for technicians without clients.view and télésurveillance', async () => {
    const { installationId } = await w.f.tree(w.adminA, w.metierId);
    const out = await w.h.request(w.adminB, { method: 'GET', url: `/api/qrcodes/by-installation/${installationId}` });
    expect(out.statusCode).toBe(404);
    expect(errorOf(out)).toBe('Installation introuvable.');
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/qrcodes/by-installation/${randomUUID()}` })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'GET', url: `/api/qrcodes/by-installation/${installationId}` })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'GET', url: `/api/qrcodes/by-installation/${installationId}` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'GET', url: `/api/qrcodes/by-installation/${installationId}` })).statusCode).toBe(401);
  });
});

describe('GET /api/qrcodes/{id}/image.svg', () => {
  it('renders the code’s URL as an SVG QR code, here and not by a third party', async () => {
    const [code] = await batch(w.adminA, 1);
    const res = await w.h.request(w.adminA, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.body).toBe(await QRCode.toString(code!.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
    expect(res.body).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
  });

  it('answers 404 for another agency’s or an unknown code, 403 without a QR permission, 401 without token', async () => {
    const [code] = await batch(w.adminA, 1);
    expect((await w.h.request(w.adminB, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/qrcodes/${randomUUID()}/image.svg` })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` })).statusCode).toBe(401);
    expect((await w.h.request(w.techPlusA, { method: 'GET', url: `/api/qrcodes/${code!.id}/image.svg` })).statusCode).toBe(200);
  });
});
