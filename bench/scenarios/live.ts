import WebSocket from 'ws';
import { call, callForm, login } from '../lib/http.js';
import { distribution, type Distribution } from '../lib/stats.js';
import type { StackProcess } from '../lib/stack-process.js';
import { sleep, type BenchDatabase } from './context.js';

export interface LiveResult {
  samples: number;
  /** Command's HTTP answer → the WebSocket message naming the ticket, at a second connected client (0 when it came first). */
  writeToScreen: Distribution;
  /** How many messages reached the second client before the command's answer reached the first. */
  beforeAnswer: number;
  peakRssMb: number;
}

/**
 * Client A takes tickets in charge one after the other over HTTP; client B
 * (another user of the agency) listens on /ws. For each command: time from
 * A's answer to B's message naming the ticket.
 */
export async function liveScenario(db: BenchDatabase, stack: StackProcess, samples: number): Promise<LiveResult> {
  const agency = db.seed.master.agencies[0]!;
  const tokenA = await login(stack.url, agency.admin.email);
  const tokenB = await login(stack.url, agency.technicians[0]!.email);
  const installation = db.seed.master.installations.find((i) => i.agenceId === agency.id)!;
  const ids: string[] = [];
  for (let i = 0; i < samples; i++) {
    const answer = await callForm<{ ticket_id: string }>(stack.url, tokenA, '/api/tickets/manual/ticket-create', {
      installation_id: installation.id,
      nom: 'Martin',
      prenom: 'Claire',
      email: 'claire.martin@client.fr',
      telephone: '06 12 34 56 78',
      probleme: 'Banc de mesure : temps réel.',
    });
    if (answer.status !== 201) throw new Error(`ouverture : ${answer.status}`);
    ids.push(answer.body.ticket_id);
  }
  const seen = new Map<string, number>();
  const socket = new WebSocket(`${stack.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(tokenB)}`);
  socket.on('message', (raw) => {
    const at = performance.now();
    const message = JSON.parse(raw.toString()) as { streams?: string[] };
    for (const id of message.streams ?? []) if (!seen.has(id)) seen.set(id, at);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await sleep(300);
  stack.mark();
  const latencies: number[] = [];
  let beforeAnswer = 0;
  for (const id of ids) {
    const answer = await call(stack.url, tokenA, 'PATCH', `/api/tickets/${id}`, { statut: 'en_cours', technicien_id: agency.technicians[0]!.id });
    const answeredAt = performance.now();
    if (answer.status !== 200) throw new Error(`prise en charge : ${answer.status}`);
    const deadline = answeredAt + 5_000;
    while (!seen.has(id) && performance.now() < deadline) await sleep(1);
    const at = seen.get(id);
    if (at === undefined) {
      latencies.push(5_000);
      continue;
    }
    if (at < answeredAt) beforeAnswer++;
    latencies.push(Math.max(0, at - answeredAt));
    await sleep(50);
  }
  socket.close();
  const collected = await stack.collect();
  return { samples: latencies.length, writeToScreen: distribution(latencies), beforeAnswer, peakRssMb: collected.peakRssMb };
}
