import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFilename, reportStreamId, ticketStreamId, type ReportGeneratedData, type ReportRequestedData } from '@fsm/contracts';
import { DOWNLOAD_LINK_EXPIRED, DOWNLOAD_LINK_INVALID, DOWNLOAD_TOKEN_TTL_SECONDS } from '../../src/auth/tokens.js';
import { createApiHarness, TEST_PASSWORD, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { createWorld, openTicketId, visitBody, type World } from '../tickets-fixtures.js';

/*
 * Item 10 of issue 12: session tokens expire; a password change (one's own,
 * or a reset by an administrator) revokes every token issued before it; a
 * report download link carries a short-lived token bound to its one file.
 * Issue 17: Déconnexion ends the session on the server; no session token is
 * taken from a URL.
 * Time moves only through the harness's clock (setNow).
 */

const SESSION_EXPIRED = 'Session expirée';
const NEW_PASSWORD = 'Nouveau-2026!';

let h: ApiHarness;
let world: World;
let admin: TestUser;
const t0 = new Date('2026-11-23T09:00:00Z');

const me = (token: string) => h.request(null, { method: 'GET', url: '/api/tickets', headers: { authorization: `Bearer ${token}` } });
const login = async (email: string, motdepasse: string) => h.request(null, { method: 'POST', url: '/api/login', remoteAddress: `203.0.113.${Math.floor(Math.random() * 200) + 1}`, payload: { email, motdepasse } });

beforeAll(async () => {
  h = await createApiHarness('api_security_tokens');
  h.setNow(t0);
  world = await createWorld(h);
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
}, 60_000);

afterAll(async () => h?.close());

describe('session expiry', () => {
  it('honours the token’s expiry (one hour here) by the app’s clock', async () => {
    h.setNow(t0);
    const user = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    h.setNow(new Date(t0.getTime() + 59 * 60_000));
    expect((await me(user.token)).statusCode).toBe(200);
    h.setNow(new Date(t0.getTime() + 61 * 60_000));
    const expired = await me(user.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe(SESSION_EXPIRED);
    h.setNow(t0);
  });
});

describe('a password change', () => {
  it('revokes every older token of the account, and hands the caller a fresh one', async () => {
    h.setNow(t0);
    const user = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    const phone = (await login(user.email, TEST_PASSWORD)).json().token as string;
    const laptop = (await login(user.email, TEST_PASSWORD)).json().token as string;
    expect((await me(phone)).statusCode).toBe(200);
    expect((await me(laptop)).statusCode).toBe(200);

    const change = await h.request(null, {
      method: 'POST',
      url: '/api/utilisateurs/change-password',
      headers: { authorization: `Bearer ${laptop}` },
      payload: { oldPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(change.statusCode).toBe(200);
    const fresh = change.json().token as string;

    for (const old of [phone, laptop, user.token]) {
      const res = await me(old);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(SESSION_EXPIRED);
    }
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    const again = await login(user.email, NEW_PASSWORD);
    expect(again.statusCode).toBe(200);
    expect((await me(again.json().token)).statusCode).toBe(200);
  });

  it('made by an administrator (reset) revokes the user’s tokens too; other users keep theirs', async () => {
    const user = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    const bystander = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    const current = (await h.request(admin, { method: 'GET', url: '/api/utilisateurs' })).json() as { id: string; nom: string; prenom: string; email: string; telephone: string | null; role: string; agence_id: string }[];
    const row = current.find((u) => u.id === user.id)!;
    const reset = await h.request(admin, {
      method: 'PUT',
      url: `/api/utilisateurs/${user.id}`,
      payload: { nom: row.nom, prenom: row.prenom, email: row.email, telephone: row.telephone ?? '0600000000', role: 'technicien', agence_id: world.agenceId, motdepasse: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(bystander.token)).statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(200);
  });
});

describe('Déconnexion (POST /api/logout)', () => {
  const logout = (body: unknown) => h.request(null, { method: 'POST', url: '/api/logout', payload: body as Record<string, unknown> });

  it('makes the same token answer 401 everywhere; the account’s other sessions go on', async () => {
    h.setNow(t0);
    const user = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    // Two browsers signing in within the same second still get two sessions.
    const [laptop, phone] = [(await login(user.email, TEST_PASSWORD)).json().token as string, (await login(user.email, TEST_PASSWORD)).json().token as string];
    expect(laptop).not.toBe(phone);
    expect((await me(laptop)).statusCode).toBe(200);

    const res = await logout({ token: laptop });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const after = await me(laptop);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe(SESSION_EXPIRED);
    // Every door that takes a session token refuses it: another route, the password change.
    expect((await h.request(null, { method: 'GET', url: '/api/utilisateurs', headers: { authorization: `Bearer ${laptop}` } })).statusCode).toBe(401);
    expect(
      (await h.request(null, { method: 'POST', url: '/api/utilisateurs/change-password', headers: { authorization: `Bearer ${laptop}` }, payload: { oldPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD } })).statusCode,
    ).toBe(401);
    expect((await me(phone)).statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(200);
    // Logging out again, or with a token that is no session, ends nothing and says the same.
    expect((await logout({ token: laptop })).statusCode).toBe(200);
    expect((await logout({ token: 'a.b.c' })).statusCode).toBe(200);
    const { rows } = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.revoked_tokens WHERE user_id = $1', [user.id]);
    expect(rows[0]!.n).toBe(1);
  });

  it('stays revoked until the token would have expired anyway, then its entry goes', async () => {
    h.setNow(t0);
    const user = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    await logout({ token: user.token });
    h.setNow(new Date(t0.getTime() + 59 * 60_000));
    expect((await me(user.token)).statusCode).toBe(401);
    // Past its expiry (one hour here) the next logout sweeps the entry out.
    h.setNow(new Date(t0.getTime() + 61 * 60_000));
    const other = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    await logout({ token: other.token });
    const { rows } = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.revoked_tokens WHERE user_id = $1', [user.id]);
    expect(rows[0]!.n).toBe(0);
    h.setNow(t0);
  });

  it('refuses a body without a token with a French 400, and writes nothing', async () => {
    const before = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.revoked_tokens');
    for (const body of [{}, { token: '' }, { token: 42 }, { token: 'x'.repeat(5000) }]) {
      const res = await logout(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Jeton de session manquant.');
    }
    const after = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM auth.revoked_tokens');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
});

describe('report download links', () => {
  interface Report {
    ticketId: string;
    filename: string;
    bytes: Buffer;
  }
  let tech: TestUser;
  let a: Report;
  let b: Report;

  /** A closed ticket whose report "the workers" rendered: the events they would append, with a small PDF in the file store. */
  async function reportFor(label: string): Promise<Report> {
    // Opened straight into the technician's hands, so it can be closed.
    const ticketId = await openTicketId(h, admin, world.installationId, { id_technicien: tech.id });
    const closed = await h.request(admin, { method: 'PATCH', url: `/api/tickets/${ticketId}/close`, payload: visitBody({ technicien_id: tech.id }) });
    expect(closed.statusCode).toBe(200);
    const history = await h.store.readStream(ticketStreamId(ticketId));
    const closure = history.find((event) => event.type === 'TicketClosed')!;
    const opened = history.find((event) => event.type === 'TicketOpened')!;
    const numChrono = (opened.data as { numChrono: string }).numChrono;
    const bytes = Buffer.from(`%PDF-1.4\n% report ${label}\n%%EOF\n`);
    const blobRef = await h.deps.blobs.put(bytes, 'pdf');
    const filename = reportFilename(numChrono, null, closure.id);
    const at = h.deps.clock().toISOString();
    const metadata = { userId: null, userName: 'workers', correlationId: randomUUID(), causationId: closure.id };
    const requested: ReportRequestedData = { reportId: closure.id, ticketId, interventionId: null, demandeur: null, technicien: null, requestedAt: at };
    const generated: ReportGeneratedData = {
      reportId: closure.id,
      ticketId,
      interventionId: null,
      filename,
      blobRef,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      templateId: null,
      templateName: null,
      unknownVariables: [],
      templateFallback: null,
      generatedAt: at,
    };
    await h.store.appendToStream(
      reportStreamId(closure.id),
      [
        { id: randomUUID(), type: 'ReportRequested', data: requested, metadata },
        { id: randomUUID(), type: 'ReportGenerated', data: generated, metadata },
      ],
      { expectedRevision: 'no_stream' },
    );
    // The read model follows the log: wait until it lists the report.
    for (let i = 0; i < 100; i++) {
      const { rows } = await h.pool.query('SELECT 1 FROM rm.reports WHERE filename = $1', [filename]);
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { ticketId, filename, bytes };
  }

  const linkFor = async (report: Report): Promise<string> => {
    const res = await h.request(tech, { method: 'POST', url: `/api/reports/${report.ticketId}.pdf`, payload: {} });
    expect(res.statusCode).toBe(200);
    return res.json().downloadUrl as string;
  };
  const tokenOf = (url: string) => new URL(url, 'http://x').searchParams.get('token')!;
  const open = (url: string) => h.request(null, { method: 'GET', url });

  beforeAll(async () => {
    h.setNow(t0);
    tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
    a = await reportFor('A');
    b = await reportFor('B');
  }, 60_000);

  it('opens the one file it was made for', async () => {
    const url = await linkFor(a);
    expect(url.startsWith(`/api/reports/download/${a.filename}?token=`)).toBe(true);
    const res = await open(url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(a.bytes)).toBe(true);
  });

  it('takes a session token as a bearer header only, never from the URL', async () => {
    const inUrl = await open(`/api/reports/download/${a.filename}?token=${encodeURIComponent(tech.token)}`);
    expect(inUrl.statusCode).toBe(401);
    expect(inUrl.json().error).toBe(DOWNLOAD_LINK_INVALID);
    const asHeader = await h.request(tech, { method: 'GET', url: `/api/reports/download/${a.filename}` });
    expect(asHeader.statusCode).toBe(200);
    // What the ticket screens ask for instead: a link bound to the file.
    const link = await h.request(tech, { method: 'GET', url: `/api/reports/download/${a.filename}/link` });
    expect(link.statusCode).toBe(200);
    expect(tokenOf(link.json().downloadUrl)).not.toBe(tech.token);
    expect((await open(link.json().downloadUrl)).rawPayload.equals(a.bytes)).toBe(true);
    expect((await open(`/api/reports/download/${b.filename}?token=${tokenOf(link.json().downloadUrl)}`)).statusCode).toBe(403);
  });

  it('cannot fetch another report with the same token', async () => {
    const token = tokenOf(await linkFor(a));
    const res = await open(`/api/reports/download/${b.filename}?token=${token}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(DOWNLOAD_LINK_INVALID);
  });

  it('is short-lived: refused once its few minutes have passed', async () => {
    h.setNow(t0);
    const url = await linkFor(a);
    h.setNow(new Date(t0.getTime() + (DOWNLOAD_TOKEN_TTL_SECONDS - 30) * 1000));
    expect((await open(url)).statusCode).toBe(200);
    h.setNow(new Date(t0.getTime() + (DOWNLOAD_TOKEN_TTL_SECONDS + 30) * 1000));
    const late = await open(url);
    expect(late.statusCode).toBe(401);
    expect(late.json().error).toBe(DOWNLOAD_LINK_EXPIRED);
    h.setNow(t0);
  });

  it('is no session: it opens no API route, and a forged file claim is refused', async () => {
    const token = tokenOf(await linkFor(a));
    expect((await me(token)).statusCode).toBe(401);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, file: b.filename })).toString('base64url')}.${signature}`;
    const res = await open(`/api/reports/download/${b.filename}?token=${forged}`);
    expect(res.statusCode).toBe(401);
  });

  it('still checks the ticket’s scope: a link made for someone who lost access to the agency no longer opens', async () => {
    const url = await linkFor(a);
    // The technician moves to another agency: the link (for the old scope) must not follow.
    const other = await h.createAgence('Ailleurs');
    const rows = (await h.request(admin, { method: 'GET', url: '/api/utilisateurs' })).json() as { id: string; nom: string; prenom: string; email: string; telephone: string | null }[];
    const row = rows.find((u) => u.id === tech.id)!;
    const adminPlus = await h.createUser({ role: 'admin_plus', agenceId: world.agenceId });
    const move = await h.request(adminPlus, {
      method: 'PUT',
      url: `/api/utilisateurs/${tech.id}`,
      payload: { nom: row.nom, prenom: row.prenom, email: row.email, telephone: row.telephone ?? '0600000000', role: 'technicien', agence_id: other },
    });
    expect(move.statusCode).toBe(200);
    expect((await open(url)).statusCode).toBe(404);
  });
});
