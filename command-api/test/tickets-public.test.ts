import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { TICKET_MESSAGES as M } from '@fsm/contracts';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { CAPTCHA_SETTINGS, createCaptchaService } from '../src/commands/tickets/public-captcha.js';
import { PUBLIC_RATE_LIMIT } from '../src/routes/tickets/public-ticket-routes.js';
import { createQrCode, createWorld, deleteInstallation, multipart, pngFile, requester, solvedCaptcha, type UploadFile, type World } from './tickets-fixtures.js';

let h: ApiHarness;
let world: World;
let admin: TestUser;
let key: string;
beforeAll(async () => {
  h = await createApiHarness('api_tickets_public');
  world = await createWorld(h, { agenceNom: 'Bordeaux' });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  key = await createQrCode(h, world.agenceId, world.installationId);
});
afterAll(async () => h?.close());

/** Each test uses its own address, so the per-IP limit of one does not touch the others. */
let lastIp = 0;
const nextIp = () => `203.0.113.${++lastIp}`;

async function submit(remoteAddress: string, fields: Record<string, string>, file?: UploadFile) {
  return h.request(null, { method: 'POST', url: '/api/public/ticket-create', remoteAddress, ...(await multipart(fields, file)) });
}

const form = (captcha: string, extra: Record<string, string> = {}) => ({ key, ...requester, probleme: 'Sirène déclenchée dans le hall', 'g-recaptcha-response': captcha, ...extra });

async function openTickets() {
  const res = await h.request(admin, { method: 'GET', url: '/api/tickets' });
  return res.json().tickets as { id: string; source: string; operateur_nom: string | null; photo: string | null }[];
}

async function expectNothingWritten(action: () => Promise<void>) {
  const before = await h.store.headPosition();
  await action();
  expect(await h.store.headPosition()).toBe(before);
}

describe('GET /api/public/captcha', () => {
  it('hands out a signed ALTCHA challenge that expires, without a token and not cached', async () => {
    const res = await h.request(null, { method: 'GET', url: '/api/public/captcha', remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const challenge = res.json();
    expect(challenge.signature).toMatch(/^[a-f0-9]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', nonce: expect.any(String), salt: expect.any(String), keyPrefix: expect.any(String) });
    expect(challenge.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());
  });
});

describe('captcha service', () => {
  const solve = async (challenge: Challenge) => {
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };

  it('accepts the challenges of another instance sharing TOKEN_SECRET, and no other', async () => {
    const secret = 'a-token-secret-that-is-long-enough-0123456789';
    const issuer = createCaptchaService({ db: h.pool, secret });
    const payload = await solve(await issuer.challenge());
    expect(await createCaptchaService({ db: h.pool, secret: 'another-secret-that-is-long-enough-0123456789' }).verifyAndConsume(payload)).toBe(false);
    expect(await createCaptchaService({ db: h.pool }).verifyAndConsume(payload)).toBe(false);
    expect(await createCaptchaService({ db: h.pool, secret }).verifyAndConsume(payload)).toBe(true);
    expect(await issuer.verifyAndConsume(payload)).toBe(false);
  });

  it('refuses a solution once its challenge has expired', async () => {
    const service = createCaptchaService({ db: h.pool });
    const payload = await solve(await service.challenge());
    const later = Date.now() + CAPTCHA_SETTINGS.ttlMs + 1000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect(await service.verifyAndConsume(payload)).toBe(false);
    } finally {
      clock.mockRestore();
    }
    expect(await service.verifyAndConsume(payload)).toBe(true);
  });
});

describe('POST /api/public/ticket-create', () => {
  it('opens a ticket on the QR code’s installation with a solved captcha, and answers the spec message', async () => {
    const ip = nextIp();
    const res = await submit(ip, form(await solvedCaptcha(h, ip)), pngFile());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: 'Votre demande a bien été enregistrée. Un technicien prendra contact avec vous rapidement.' });
    const opened = (await openTickets()).filter((ticket) => ticket.source === 'public');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ operateur_nom: null, photo: expect.stringMatching(/^\/api\/files\//) });
  });

  it('refuses a replayed captcha solution, even sent twice at the same moment', async () => {
    const ip = nextIp();
    const captcha = await solvedCaptcha(h, ip);
    const both = await Promise.all([submit(ip, form(captcha)), submit(ip, form(captcha))]);
    expect(both.map((res) => res.statusCode).sort()).toEqual([201, 400]);
    await expectNothingWritten(async () => {
      const replay = await submit(ip, form(captcha));
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error).toBe('Échec reCAPTCHA. Merci de réessayer.');
    });
  });

  it('refuses a missing, forged or tampered captcha', async () => {
    const ip = nextIp();
    const solved = JSON.parse(Buffer.from(await solvedCaptcha(h, ip), 'base64').toString());
    const key0 = solved.solution.derivedKey as string;
    const wrongKey = { ...solved, solution: { ...solved.solution, derivedKey: `${key0[0] === '0' ? '1' : '0'}${key0.slice(1)}` } };
    const tampered = { ...solved, challenge: { ...solved.challenge, parameters: { ...solved.challenge.parameters, expiresAt: solved.challenge.parameters.expiresAt + 3600 } } };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
    for (const captcha of ['', 'pas du base64 !', encode({ hello: 'world' }), encode(wrongKey), encode(tampered)]) {
      await expectNothingWritten(async () => {
        const res = await submit(ip, form(captcha));
        expect(res.statusCode, captcha).toBe(400);
        expect(res.json().error).toBe(M.captchaFailed);
      });
    }
  });

  it('answers the invalid-link message for a missing, unknown or unassigned key, or a deleted installation', async () => {
    const ip = nextIp();
    const unassigned = await createQrCode(h, world.agenceId, null);
    const gone = await createWorld(h, { agenceId: world.agenceId });
    const orphan = await createQrCode(h, world.agenceId, gone.installationId);
    await deleteInstallation(h, gone.installationId);
    for (const badKey of [undefined, '', 'inconnue-0123456789abcdef', unassigned, orphan]) {
      const fields: Record<string, string> = form('x');
      if (badKey === undefined) delete fields.key;
      else fields.key = badKey;
      await expectNothingWritten(async () => {
        const res = await submit(ip, fields);
        expect(res.statusCode, String(badKey)).toBe(400);
        expect(res.json().error).toBe('Lien non valide. Merci de scanner un QR code officiel.');
      });
    }
  });

  it('answers 400 "Merci de remplir tous les champs obligatoires." and keeps the captcha usable', async () => {
    const ip = nextIp();
    const captcha = await solvedCaptcha(h, ip);
    await expectNothingWritten(async () => {
      const res = await submit(ip, form(captcha, { probleme: '  ' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Merci de remplir tous les champs obligatoires.');
    });
    expect((await submit(ip, form(captcha))).statusCode).toBe(201);
  });

  it('refuses a photo that is not an image by its content', async () => {
    const ip = nextIp();
    await expectNothingWritten(async () => {
      const res = await submit(ip, form(await solvedCaptcha(h, ip)), { bytes: Buffer.from('<?php echo 1; ?>'), filename: 'photo.jpg', type: 'image/jpeg' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe("Le fichier sélectionné n'est pas une image.");
    });
  });

  it('limits each address to a few requests a minute, with a French 429', async () => {
    const ip = nextIp();
    for (let i = 0; i < PUBLIC_RATE_LIMIT.createPerMinute; i++) expect((await submit(ip, form('x'))).statusCode).toBe(400);
    const limited = await submit(ip, form('x'));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Trop de demandes depuis votre connexion\. Merci de réessayer dans \d+ secondes?\.$/);
    // Another address, and the signed-in routes, are not affected.
    expect((await submit(nextIp(), form('x'))).statusCode).toBe(400);
    expect((await h.request(admin, { method: 'GET', url: '/api/tickets', remoteAddress: ip })).statusCode).toBe(200);
  });
});

describe('GET /api/public/qr-keys/{key} (issue 32, item 6)', () => {
  const check = (ip: string, qrKey: string) => h.request(null, { method: 'GET', url: `/api/public/qr-keys/${encodeURIComponent(qrKey)}`, remoteAddress: ip });

  it('tells the form its link is valid, and nothing else', async () => {
    const res = await check(nextIp(), key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valide: true });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 404 with the spec message for an unknown or unassigned key, or a deleted installation', async () => {
    const ip = nextIp();
    const unassigned = await createQrCode(h, world.agenceId, null);
    const gone = await createWorld(h, { agenceId: world.agenceId });
    const orphan = await createQrCode(h, world.agenceId, gone.installationId);
    await deleteInstallation(h, gone.installationId);
    for (const badKey of ['NOPE1234', unassigned, orphan, ' ', 'x'.repeat(201)]) {
      const res = await check(ip, badKey);
      if (badKey.trim() === '' || badKey.length > 200) {
        expect(res.statusCode, badKey).toBeGreaterThanOrEqual(400);
        continue;
      }
      expect(res.statusCode, badKey).toBe(404); expect(res.json()).toEqual({ error: 'Lien non valide. Merci de scanner un QR code officiel.', code: 'NOT_FOUND' });
    }
  });

  it('is rate-limited per address, apart from the creation', async () => {
    const ip = nextIp();
    for (let i = 0; i < PUBLIC_RATE_LIMIT.keyCheckPerMinute; i++) expect((await check(ip, 'NOPE1234')).statusCode).toBe(404);
    expect((await check(ip, 'NOPE1234')).statusCode).toBe(429);
    expect((await check(nextIp(), key)).statusCode).toBe(200);
  });
});
