import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

let h: ApiHarness;
let base: string;
beforeAll(async () => {
  h = await createApiHarness('api_health_live');
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => h?.close());

function connect(query: string): Promise<{ socket: WebSocket; messages: unknown[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${base}/ws?${query}`);
    const messages: unknown[] = [];
    const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    socket.on('open', () => resolve({ socket, messages, closed }));
    socket.on('error', reject);
  });
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('GET /api/health', () => {
  it('reports the event-store head, the projection checkpoint and lag, and Redis', async () => {
    await h.createUser({ role: 'admin' });
    const res = await h.request(null, { method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.eventStore.kind).toBe('postgres');
    expect(body.eventStore.head).toMatch(/^\d{20}-\d{20}$/);
    expect(body.projections.checkpoint >= body.eventStore.head).toBe(true);
    expect(body.projections.lag).toBe(0);
    expect(body.redis.reachable).toBe(true);
  });

  it('says degraded when Redis does not answer, since commands still work', async () => {
    const ping = h.deps.redisPing;
    h.deps.redisPing = async () => false;
    try {
      const body = (await h.request(null, { method: 'GET', url: '/api/health' })).json();
      expect(body.status).toBe('degraded');
      expect(body.redis.reachable).toBe(false);
    } finally {
      h.deps.redisPing = ping;
    }
  });
});

describe('live updates over WebSocket', () => {
  it('closes a connection without a valid token with 4401', async () => {
    const { closed } = await connect('token=forged');
    expect(await closed).toBe(4401);
  });

  it('pushes the changed ids with the projection position after a command', async () => {
    const admin = await h.createUser({ role: 'admin' });
    const { socket, messages } = await connect(`token=${admin.token}`);
    await until(() => h.deps.live.size > 0);
    const tech = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    await until(() => messages.some((m) => (m as { streams?: string[] }).streams?.includes(tech.id) ?? false));
    const message = messages.find((m) => (m as { streams?: string[] }).streams?.includes(tech.id)) as { position: string };
    expect(message.position).toMatch(/^\d{20}-\d{20}$/);
    socket.close();

    // Reconnecting with the last position seen replays what was missed.
    const since = message.position;
    const other = await h.createUser({ role: 'technicien', agenceId: admin.agenceId });
    const again = await connect(`token=${admin.token}&since=${since}`);
    await until(() => again.messages.length > 0);
    expect((again.messages[0] as { streams: string[] }).streams).toContain(other.id);
    again.socket.close();
  });
});
