import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { liveAccessOf } from '../src/live/live-access.js';
import { LiveHub } from '../src/live/live-hub.js';
import { createPositionSeal } from '../src/live/live-positions.js';
import { TEST_PASSWORD, createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { createWorld, openTicketId, type World } from './tickets-fixtures.js';

let h: ApiHarness;
let base: string;
beforeAll(async () => {
  h = await createApiHarness('api_health_live');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => h?.close());

interface Live {
  socket: WebSocket;
  messages: { position: string | null; streams?: string[]; resync?: boolean }[];
  closed: Promise<{ code: number; reason: string }>;
  /** Every id this socket was told about. */
  heard(): Set<string>;
}

/** The id in a stream name as the hub sends it (`ticket-<uuid>` → `<uuid>`); a bare id as it is. */
function idOfStream(stream: string): string {
  return stream.replace(/^[a-z_]+-(?=[0-9a-f]{8}-)/, '');
}

/** A socket as the browser opens it: `query` in the URL (no token), then `first` as its first message. */
function connect(query: string, first?: unknown): Promise<Live> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${base}/ws${query ? `?${query}` : ''}`);
    const messages: Live['messages'] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.on('close', (code, reason) => done({ code, reason: String(reason) })));
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    socket.on('open', () => {
      if (first !== undefined) socket.send(typeof first === 'string' ? first : JSON.stringify(first));
      resolve({ socket, messages, closed, heard: () => new Set(messages.flatMap((m) => m.streams ?? []).map(idOfStream)) });
    });
    socket.on('error', reject);
  });
}

/** Closes the sockets and waits until the hub has let them go. */
async function hangUp(...lives: Live[]): Promise<void> {
  const open = lives.filter((live) => live.socket.readyState === WebSocket.OPEN);
  const remaining = h.deps.live.size - open.length;
  for (const live of open) live.socket.close();
  await Promise.all(open.map((live) => live.closed));
  await until(() => h.deps.live.size <= remaining);
}

/** Signed in the way the web app does it: the token in the first message, none in the URL. */
async function signedIn(user: TestUser, query = ''): Promise<Live> {
  const before = h.deps.live.size;
  const live = await connect(query, { type: 'auth', token: user.token });
  await until(() => h.deps.live.size > before);
  return live;
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /api/health', () => {
  it('reports to admin_plus the event-store head, the projection checkpoint and lag, stopped read models, and Redis', async () => {
    const plus = await h.createUser({ role: 'admin_plus' });
    const res = await h.request(plus, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.eventStore.kind).toBe('postgres');
    expect(body.eventStore.head).toMatch(/^\d{20}-\d{20}$/);
    expect(body.projections.checkpoint >= body.eventStore.head).toBe(true);
    expect(body.projections.lag).toBe(0);
    expect(body.projections.lagSeconds).toBe(0);
    expect(body.eventStore.visibleHead).toBe(body.eventStore.head);
    expect(Object.keys(body.eventStore)).toEqual(expect.arrayContaining(['headRecordedAt', 'horizon']));
    expect(body.projections.stopped).toEqual([]);
    expect(body.redis.reachable).toBe(true);
  });

  it('answers anyone else the status alone, a bad token included (never a 401: probes carry none)', async () => {
    const admin = await h.createUser({ role: 'admin' });
    for (const user of [null, admin, { ...admin, token: 'forged' }]) {
      const res = await h.request(user, { method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
  });

  it('runs one check for probes arriving together: a flood of them costs one scan of the log at a time', async () => {
    const readAll = h.store.readAll;
    let scans = 0;
    h.store.readAll = (options) => {
      scans++;
      return readAll.call(h.store, options);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => h.request(null, { method: 'GET', url: '/api/health' })));
      expect(answers.map((res) => res.json())).toEqual(Array.from({ length: 50 }, () => ({ status: 'ok' })));
      expect(scans).toBeLessThan(50);
    } finally {
      h.store.readAll = readAll;
    }
  });

  it('says degraded when Redis does not answer, since commands still work', async () => {
    const plus = await h.createUser({ role: 'admin_plus' });
    const ping = h.deps.redisPing;
    h.deps.redisPing = async () => false;
    try {
      const body = (await h.request(plus, { method: 'GET', url: '/api/health' })).json();
      expect(body.status).toBe('degraded');
      expect(body.redis.reachable).toBe(false);
      expect((await h.request(null, { method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'degraded' });
    } finally {
      h.deps.redisPing = ping;
    }
  });
});

describe('live updates over WebSocket', () => {
  it('joins with the session token in the first message, none in the URL, and pushes the changed ids with the projection position', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const live = await signedIn(admin);
    const { messages } = live;
    const tech = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    await until(() => messages.some((m) => m.streams?.includes(`user-${tech.id}`) ?? false));
    const message = messages.find((m) => m.streams?.includes(`user-${tech.id}`))!;
    // Sealed (issue 32, item 13): not the store's platform-wide position.
    expect(message.position).toMatch(/^[A-Za-z0-9_-]{100,140}$/);
    await hangUp(live);

    // Reconnecting with the last position seen replays what was missed.
    const since = message.position!;
    const other = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    const again = await signedIn(admin, `since=${since}`);
    await until(() => again.messages.length > 0);
    expect(again.messages[0]!.streams).toContain(`user-${other.id}`);
    await hangUp(again);
  });

  it('sends positions that say nothing of the other agencies: sealed, different for every socket, and a clear one is refused (issue 32, item 13)', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const [first, second] = [await signedIn(admin), await signedIn(admin)];
    const tech = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    await until(() => first.heard().has(tech.id) && second.heard().has(tech.id));
    const [one, two] = [first, second].map((live) => live.messages.find((m) => m.streams?.includes(`user-${tech.id}`))!.position!);
    const head = (await h.store.headPosition())!;
    expect(one).not.toBe(two);
    for (const sealed of [one!, two!]) {
      expect(sealed).not.toContain(head.slice(-8));
      expect(sealed).not.toMatch(/\d{20}/);
    }
    await hangUp(first, second);
    // A store position in clear, as the hub used to send them, is not taken for one: resync.
    const clear = await signedIn(admin, `since=${encodeURIComponent(head)}`);
    await until(() => clear.messages.length > 0);
    expect(clear.messages[0]).toMatchObject({ resync: true });
    expect(clear.messages[0]!.position).not.toBe(head);
    await hangUp(clear);
  });

  it('answers a position it never gave with resync, and goes on (it used to throw where nothing caught it)', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const odd = await signedIn(admin, 'since=1');
    await until(() => odd.messages.length > 0);
    expect(odd.messages[0]).toMatchObject({ resync: true });
    const tech = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    await until(() => odd.heard().has(tech.id));
    await hangUp(odd);
  });

  it('still takes ?token= from an older client', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const before = h.deps.live.size;
    const legacy = await connect(`token=${admin.token}`);
    await until(() => h.deps.live.size > before);
    await hangUp(legacy);
  });

  it('closes with 4401 a socket whose token is forged, whose first message is not a valid auth, or that never authenticates', async () => {
    expect((await (await connect('token=forged')).closed).code).toBe(4401);
    expect((await (await connect('', { type: 'auth', token: 'forged' })).closed).code).toBe(4401);
    expect((await (await connect('', 'bonjour')).closed).code).toBe(4401);
    expect((await (await connect('', { type: 'auth' })).closed).code).toBe(4401);
    const timing = h.deps.live.timing.authTimeoutMs;
    h.deps.live.timing.authTimeoutMs = 200;
    try {
      const silent = await connect('');
      expect(await silent.closed).toEqual({ code: 4401, reason: 'Session expirée' });
    } finally {
      h.deps.live.timing.authTimeoutMs = timing;
    }
  });

  it('refuses at the door a token the HTTP routes refuse (revoked by a password change)', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    const change = await h.request(tech, { method: 'POST', url: '/api/utilisateurs/change-password', payload: { oldPassword: TEST_PASSWORD, newPassword: 'Nouveau-2026!' } });
    expect(change.statusCode).toBe(200);
    expect((await (await connect('', { type: 'auth', token: tech.token })).closed).code).toBe(4401);
  });
});

describe('what a socket hears: its user’s scope only', () => {
  let a: World;
  let b: World;
  let techA: TestUser;
  let techB: TestUser;
  let plus: TestUser;
  let veilleA: TestUser;

  beforeAll(async () => {
    a = await createWorld(h, { agenceNom: 'Agence A' });
    b = await createWorld(h, { agenceNom: 'Agence B' });
    techA = await h.createUser({ role: 'technicien', agenceId: a.agenceId });
    techB = await h.createUser({ role: 'technicien', agenceId: b.agenceId });
    plus = await h.createUser({ role: 'admin_plus', agenceId: a.agenceId });
    veilleA = await h.createUser({ role: 'telesurveillance', telesurvAgences: [a.agenceId] });
  }, 60_000);

  it('another agency’s ticket ids never reach a socket; admin_plus hears both', async () => {
    const [sockA, sockB, sockPlus, sockVeille] = [await signedIn(techA), await signedIn(techB), await signedIn(plus), await signedIn(veilleA)];
    const inA = await openTicketId(h, techA, a.installationId);
    const inB = await openTicketId(h, techB, b.installationId);
    // A later change in each agency, so every socket has surely been sent everything before it.
    const lastA = await h.createUser({ role: 'technicien', agenceId: a.agenceId });
    const lastB = await h.createUser({ role: 'technicien', agenceId: b.agenceId });
    await until(() => sockA.heard().has(lastA.id) && sockB.heard().has(lastB.id) && sockPlus.heard().has(lastA.id) && sockPlus.heard().has(lastB.id));

    expect(sockA.heard().has(inA)).toBe(true);
    expect(sockA.heard().has(inB)).toBe(false);
    expect(sockA.heard().has(lastB.id)).toBe(false);
    expect(sockB.heard().has(inB)).toBe(true);
    expect(sockB.heard().has(inA)).toBe(false);
    expect(sockPlus.heard().has(inA) && sockPlus.heard().has(inB)).toBe(true);
    // Télésurveillance sees its form only: no ticket, no user, of any agency.
    expect([inA, inB, lastA.id, lastB.id].filter((id) => sockVeille.heard().has(id))).toEqual([]);
    // Named as the browser's invalidators read them (stream category first): a ticket's change
    // refetches the ticket lists and that ticket, not every query on screen.
    const named = sockA.messages.flatMap((m) => m.streams ?? []);
    expect(named).toContain(`ticket-${inA}`);
    expect(named).toContain(`user-${lastA.id}`);
    expect(named).not.toContain(inA);
    await hangUp(sockA, sockB, sockPlus, sockVeille);
  });

  it('management ids follow the same rule (clients, sites, installations; the form’s for télésurveillance)', async () => {
    const [sockA, sockB, sockVeille] = [await signedIn(techA), await signedIn(techB), await signedIn(veilleA)];
    const moreA = await createWorld(h, { agenceId: a.agenceId, clientNom: 'Clinique Est' });
    const moreB = await createWorld(h, { agenceId: b.agenceId, clientNom: 'Lycée Sud' });
    await until(() => sockA.heard().has(moreA.installationId) && sockB.heard().has(moreB.installationId) && sockVeille.heard().has(moreA.installationId));
    for (const id of [moreA.clientId, moreA.siteId, moreA.installationId]) {
      expect(sockA.heard().has(id)).toBe(true);
      expect(sockVeille.heard().has(id)).toBe(true);
      expect(sockB.heard().has(id)).toBe(false);
    }
    for (const id of [moreB.clientId, moreB.siteId, moreB.installationId]) {
      expect(sockA.heard().has(id)).toBe(false);
      expect(sockVeille.heard().has(id)).toBe(false);
    }
    // Métiers are one catalogue for all staff.
    expect(sockA.heard().has(moreB.metierId)).toBe(true);
    await hangUp(sockA, sockB, sockVeille);
  });

  it('when the scope lookup fails, restricted sockets are told to refetch, never given the ids', async () => {
    const [sockA, sockPlus] = [await signedIn(techA), await signedIn(plus)];
    h.deps.live.useAccess({ ...liveAccessOf(h.deps), scopesOf: async () => Promise.reject(new Error('Postgres injoignable')) });
    try {
      const inB = await openTicketId(h, techB, b.installationId);
      await until(() => sockPlus.heard().has(inB));
      await until(() => sockA.messages.some((m) => m.resync === true));
      expect(sockA.heard().has(inB)).toBe(false);
    } finally {
      h.deps.live.useAccess(liveAccessOf(h.deps));
    }
    await hangUp(sockA, sockPlus);
  });

  it('a reconnecting socket’s replay is filtered the same way', async () => {
    const [first, watcher] = [await signedIn(techA), await signedIn(plus)];
    const seen = await openTicketId(h, techA, a.installationId);
    await until(() => first.heard().has(seen));
    const since = first.messages.at(-1)!.position!;
    await hangUp(first);
    const inB = await openTicketId(h, techB, b.installationId);
    const inA = await openTicketId(h, techA, a.installationId);
    // Both are in the hub's history once admin_plus has heard of them.
    await until(() => watcher.heard().has(inA) && watcher.heard().has(inB));
    const again = await signedIn(techA, `since=${since}`);
    await until(() => again.heard().has(inA));
    expect(again.heard().has(inB)).toBe(false);
    await hangUp(again, watcher);
  });
});

describe('a socket’s session ends with the session', () => {
  it('closes with 4401 on logout (the same browser’s token only)', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    // Two browsers signed in within the same second: two distinct tokens of one account.
    const laptop = await signedIn(tech);
    const phone = await signedIn({ ...tech, token: await h.deps.tokens.sign({ sub: tech.id }) });
    const logout = await h.request(null, { method: 'POST', url: '/api/logout', payload: { token: tech.token } });
    expect(logout.statusCode).toBe(200);
    expect(await laptop.closed).toEqual({ code: 4401, reason: 'Session expirée' });
    // The other browser stays signed in, socket included.
    const more = await h.createUser({ role: 'technicien', agenceId: tech.agenceId });
    await until(() => phone.heard().has(more.id));
    expect(phone.socket.readyState).toBe(WebSocket.OPEN);
    await hangUp(phone);
  });

  it('closes with 4401 on a password change: the other sessions at once, the changing one once it failed to switch to its fresh token', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    const laptop = await signedIn(tech);
    const phone = await signedIn({ ...tech, token: await h.deps.tokens.sign({ sub: tech.id }) });
    const change = await h.request(tech, { method: 'POST', url: '/api/utilisateurs/change-password', payload: { oldPassword: TEST_PASSWORD, newPassword: 'Nouveau-2026!' } });
    expect(change.statusCode).toBe(200);
    expect((await phone.closed).code).toBe(4401);
    // The laptop's browser reconnects with the token the answer carries; were it not to, the next check ends it.
    expect(laptop.socket.readyState).toBe(WebSocket.OPEN);
    const renewed = await signedIn({ ...tech, token: change.json().token as string });
    await h.deps.live.recheckAll();
    expect((await laptop.closed).code).toBe(4401);
    expect(renewed.socket.readyState).toBe(WebSocket.OPEN);
    await hangUp(renewed);
  });

  it('closes with 4401 when the account is deleted', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const tech = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    const live = await signedIn(tech);
    const removed = await h.request(admin, { method: 'DELETE', url: `/api/utilisateurs/${tech.id}` });
    expect(removed.statusCode).toBe(200);
    expect((await live.closed).code).toBe(4401);
  });

  it('closes with 4401 at its next check when another API instance ended the session', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    const live = await signedIn(tech);
    const elsewhere = await buildApp({ ...h.deps, live: new LiveHub((x, y) => h.store.comparePositions(x, y), createPositionSeal(h.deps.tokens.derivedKey('live-position'))) });
    try {
      expect((await elsewhere.inject({ method: 'POST', url: '/api/logout', payload: { token: tech.token } })).statusCode).toBe(200);
    } finally {
      await elsewhere.close();
    }
    // This instance was not told; its periodic check finds out.
    await h.deps.live.recheckAll();
    expect((await live.closed).code).toBe(4401);
  });
});
