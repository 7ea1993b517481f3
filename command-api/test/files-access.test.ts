import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_LINK_TTL_SECONDS, fileLinkValidFor } from '../src/files/file-links.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { createTicket, createWorld, pngFile, requester, type World } from './tickets-fixtures.js';

/*
 * Issue 32, item 11: "/api/files/<sha256> answers 200 to anyone with the
 * link, any agency or no session, cached for a year". A photo is served to a
 * short-lived link bound to the file (what ticket answers carry), or to a
 * session that may see a ticket holding it; to nobody else.
 */

let h: ApiHarness;
let lyon: World;
let admin: TestUser;
let otherAgency: TestUser;
let telesurv: TestUser;
let photoUrl: string;
let bare: string;

beforeAll(async () => {
  h = await createApiHarness('api_files_access');
  lyon = await createWorld(h, { agenceNom: 'Lyon Photos' });
  const paris = await createWorld(h, { agenceNom: 'Paris Photos' });
  admin = await h.createUser({ role: 'admin', agenceId: lyon.agenceId });
  otherAgency = await h.createUser({ role: 'admin', agenceId: paris.agenceId });
  telesurv = await h.createUser({ role: 'telesurveillance', agenceId: lyon.agenceId });
  const res = await createTicket(h, admin, { installation_id: lyon.installationId, ...requester, probleme: 'Détecteur arraché' }, pngFile());
  expect(res.statusCode).toBe(201);
  const ticket = (await h.request(admin, { method: 'GET', url: `/api/tickets/${res.json().ticket_id}` })).json();
  photoUrl = ticket.photo;
  bare = photoUrl.split('?')[0]!;
});
afterAll(async () => h?.close());

const get = (user: TestUser | null, url: string) => h.request(user, { method: 'GET', url });

describe('GET /api/files/{ref}', () => {
  it('serves the signed link a ticket answer carries, to anyone holding it, cached privately for less than two hours', async () => {
    expect(photoUrl).toMatch(/^\/api\/files\/[a-f0-9]{64}\.png\?exp=\d+&sig=[\w-]{43}$/);
    const res = await get(null, photoUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(res.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(2 * FILE_LINK_TTL_SECONDS);
  });

  it('refuses the bare reference to no session, another agency and télésurveillance, without saying whether it exists', async () => {
    for (const user of [null, otherAgency, telesurv]) {
      const res = await get(user, bare);
      expect(res.statusCode, user?.role ?? 'anonyme').toBe(404);
      expect(res.json().error).toBe('Fichier introuvable.');
    }
    expect((await get(null, `/api/files/${'0'.repeat(64)}.png`)).statusCode).toBe(404);
  });

  it('serves the bare reference to a session that may see a ticket holding it', async () => {
    expect((await get(admin, bare)).statusCode).toBe(200);
  });

  it('refuses a forged, tampered, expired or borrowed signature', async () => {
    const url = new URL(photoUrl, 'http://x');
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    for (const query of [`exp=${exp}&sig=${flipped}`, `exp=${Number(exp) + 3600}&sig=${sig}`, `exp=${exp}`, `sig=${sig}`]) {
      expect((await get(null, `${bare}?${query}`)).statusCode, query).toBe(404);
    }
    // Another file under this file's signature.
    const ref = decodeURIComponent(bare.slice('/api/files/'.length));
    const key = h.deps.tokens.derivedKey('file-link');
    expect(fileLinkValidFor(key, ref, exp, sig, new Date())).not.toBeNull();
    expect(fileLinkValidFor(key, `${'0'.repeat(64)}.png`, exp, sig, new Date())).toBeNull();
    // Two hours later the link has expired.
    h.setNow(new Date(Date.now() + 2 * FILE_LINK_TTL_SECONDS * 1000 + 1000));
    try {
      expect((await get(null, photoUrl)).statusCode).toBe(404);
    } finally {
      h.setNow(new Date());
    }
  });
});
