import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES as M } from '@fsm/contracts';
import { FREE_ATTEMPTS } from '../../src/auth/login-throttle.js';
import { LOGIN_RATE_LIMIT_PER_MINUTE } from '../../src/routes/auth/auth-routes.js';
import { PUBLIC_RATE_LIMIT } from '../../src/routes/tickets/public-ticket-routes.js';
import { createApiHarness, TEST_PASSWORD, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { PNG_BYTES, createQrCode, createWorld, multipart, requester, solvedCaptcha, type World } from '../tickets-fixtures.js';
import { eventStoreState, storedFiles } from './state-snapshot.js';

/*
 * Item 9 of issue 12: brute force on the login and floods of the public form.
 * The app's clock (setNow) drives the login backoff; the per-IP limits count
 * real requests within their one-minute window (never asserted on time).
 * No Redis or worker here: jobs derive one-to-one from events (job id = event
 * id), so "the queue stays bounded" is asserted on the events a flood leaves.
 */

const LOCKED = /^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/;
const INVALID = 'Identifiants invalides';
const TOO_MANY_PUBLIC = /^Trop de demandes depuis votre connexion\. Merci de réessayer dans \d+ secondes?\.$/;

let h: ApiHarness;
let world: World;
let qrKey: string;
let ip = 0;
const nextIp = () => `192.0.2.${++ip}`;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  h = await createApiHarness('api_security_brute_force');
  world = await createWorld(h);
  qrKey = await createQrCode(h, world.agenceId, world.installationId);
}, 60_000);

afterAll(async () => {
  console.info(`brute force and floods: ${JSON.stringify(figures)}`);
  await h?.close();
});

const login = (email: string, motdepasse: string, remoteAddress = '203.0.113.200') =>
  h.request(null, { method: 'POST', url: '/api/login', remoteAddress, payload: { email, motdepasse } });

describe('20 wrong passwords for one account', () => {
  let victim: TestUser;
  const t0 = new Date('2026-11-23T08:00:00Z');

  beforeAll(async () => {
    victim = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  });

  it('checks only the first few, then locks the account; the real user is told in French', async () => {
    h.setNow(t0);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Case variants of the address count as the same account.
      const email = i % 2 === 0 ? victim.email : victim.email.toUpperCase();
      const res = await login(email, `Mauvais-${i}!`, nextIp());
      statuses.push(res.statusCode);
      expect(res.json().error).toMatch(res.statusCode === 401 ? new RegExp(`^${INVALID}$`) : LOCKED);
    }
    figures.wrongPasswords = statuses.join(',');
    expect(statuses.filter((s) => s === 401)).toHaveLength(FREE_ATTEMPTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - FREE_ATTEMPTS);
    // The real user, right password, during the lock: refused, and told why and for how long.
    const real = await login(victim.email, TEST_PASSWORD);
    expect(real.statusCode).toBe(429);
    expect(real.json().error).toBe('Trop de tentatives de connexion. Réessayez dans 1 minute.');
  });

  it('lets a patient attacker test a dozen passwords an hour at most (backoff doubles to 15 min)', async () => {
    let checked = 0;
    let attempts = 0;
    for (let second = 0; second <= 3600; second += 20) {
      h.setNow(new Date(t0.getTime() + 61_000 + second * 1000));
      const res = await login(victim.email, `Encore-${second}!`, nextIp());
      attempts += 1;
      if (res.statusCode === 401) checked += 1;
      else expect(res.statusCode).toBe(429);
    }
    figures.patientAttacker = { attemptsInAnHour: attempts, passwordsChecked: checked };
    // Locks of 1, 2, 4, 8, 15, 15, 15 … minutes after the free ones: about 6 checks in the hour.
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(checked).toBeLessThanOrEqual(8);
  });

  it('lets the real user in once the lock has passed', async () => {
    h.setNow(new Date(t0.getTime() + 6 * 3600_000));
    try {
      const res = await login(victim.email, TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
    } finally {
      h.setNow(new Date());
    }
  });
});

describe('one address trying many accounts', () => {
  it('is cut off per IP, and cannot grow the failure table past the limit', async () => {
    const attacker = '203.0.113.66';
    const before = Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM auth.login_failures')).rows[0]!.n);
    const statuses = new Map<number, number>();
    for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE + 40; i++) {
      const res = await login(`inconnu.${i}@example.fr`, 'Mauvais-1!', attacker);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 429) expect(res.json().error).toMatch(LOCKED);
    }
    const after = Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM auth.login_failures')).rows[0]!.n);
    figures.ipFlood = { statuses: Object.fromEntries(statuses), failureRowsAdded: after - before };
    expect(statuses.get(401)).toBeLessThanOrEqual(LOGIN_RATE_LIMIT_PER_MINUTE);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(40);
    expect(after - before).toBeLessThanOrEqual(LOGIN_RATE_LIMIT_PER_MINUTE);
  });

  it('forgets old failures: the table does not keep growing over days', async () => {
    h.setNow(new Date(Date.now() + 3 * 3600_000));
    try {
      await login('encore.un@example.fr', 'Mauvais-1!', nextIp());
    } finally {
      h.setNow(new Date());
    }
    const { rows } = await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM auth.login_failures');
    figures.failureRowsAfterPurge = Number(rows[0]!.n);
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(2);
  });
});

describe('floods of the public QR form', () => {
  /** A PNG that differs per request (a text chunk), so each accepted one really adds a file. */
  function distinctPng(i: number): Buffer {
    const text = Buffer.from(`Comment\u0000photo ${i}`);
    const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from('tEXt'), text, Buffer.alloc(4)]);
    chunk.writeUInt32BE(text.length, 0);
    const iend = PNG_BYTES.length - 12;
    return Buffer.concat([PNG_BYTES.subarray(0, iend), chunk, PNG_BYTES.subarray(iend)]);
  }

  const submit = async (remoteAddress: string, captcha: string, photo: Buffer | null) =>
    h.request(null, {
      method: 'POST',
      url: '/api/public/ticket-create',
      remoteAddress,
      ...(await multipart({ key: qrKey, ...requester, probleme: 'Flood', 'g-recaptcha-response': captcha }, photo ? { bytes: photo, filename: 'p.png', type: 'image/png' } : undefined)),
    });

  it('accepts at most the per-IP limit from one address, each with a solved captcha; files and tickets stay bounded', async () => {
    const flooder = '198.51.100.250';
    const files = (await storedFiles(h)).length;
    const opened = await countOpened();
    const statuses: number[] = [];
    // Captchas solved beforehand, elsewhere (the widget's endpoint has its own limit): only the submission limit is under test.
    const captchas: string[] = [];
    for (let i = 0; i < 25; i++) captchas.push(await solvedCaptcha(h, nextIp()));
    for (let i = 0; i < 25; i++) {
      const res = await submit(flooder, captchas[i]!, distinctPng(i));
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().error).toMatch(TOO_MANY_PUBLIC);
      else expect(res.statusCode).toBe(201);
    }
    const filesAdded = (await storedFiles(h)).length - files;
    const ticketsAdded = (await countOpened()) - opened;
    figures.publicFlood = { requests: 25, accepted: statuses.filter((s) => s === 201).length, refused429: statuses.filter((s) => s === 429).length, filesAdded, ticketsAdded };
    expect(statuses.filter((s) => s === 201)).toHaveLength(PUBLIC_RATE_LIMIT.createPerMinute);
    expect(filesAdded).toBeLessThanOrEqual(PUBLIC_RATE_LIMIT.createPerMinute);
    expect(ticketsAdded).toBe(PUBLIC_RATE_LIMIT.createPerMinute);
  }, 120_000);

  it('without a solved captcha, from many addresses: nothing is stored, no ticket, no job', async () => {
    const files = await storedFiles(h);
    const state = await eventStoreState(h);
    const used = await solvedCaptcha(h, nextIp());
    expect((await submit(nextIp(), used, null)).statusCode).toBe(201); // the genuine one
    const afterGenuine = await eventStoreState(h);
    const afterGenuineFiles = await storedFiles(h);
    expect(afterGenuine).not.toBe(state);
    const attempts = ['', 'bidon', Buffer.from('{"challenge":{},"solution":{}}').toString('base64'), used /* replayed */];
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      const res = await submit(nextIp(), attempts[i % attempts.length]!, distinctPng(1000 + i));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(M.captchaFailed);
      refused += 1;
    }
    figures.captchaFlood = { requests: 40, refused, filesAdded: (await storedFiles(h)).length - afterGenuineFiles.length };
    expect(await storedFiles(h)).toEqual(afterGenuineFiles);
    expect(await eventStoreState(h)).toBe(afterGenuine);
    expect(files.length).toBeLessThanOrEqual(afterGenuineFiles.length);
  }, 120_000);
});

async function countOpened(): Promise<number> {
  const { rows } = await h.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es.events WHERE type = 'TicketOpened'`);
  return Number(rows[0]!.n);
}
