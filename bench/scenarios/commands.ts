import { call, callForm, login, pool } from '../lib/http.js';
import { cpuCost, postgresCpuMs, type CpuCost } from '../lib/cpu.js';
import { distribution, type Distribution } from '../lib/stats.js';
import type { StackProcess } from '../lib/stack-process.js';
import { PNG_DATA_URL, type BenchDatabase } from './context.js';

export interface CommandLevelResult {
  clients: number;
  commands: number;
  seconds: number;
  commandsPerSecond: number;
  /** Client-side latency of take-in-charge and close together. */
  latency: Distribution;
  takeServer: Distribution;
  closeServer: Distribution;
  openServer: Distribution;
  failures: number;
  peakRssMb: number;
  /** CPU per command (stack and Postgres) and the most the machine's cores could do at that cost. */
  cpu: CpuCost;
}

interface OpenTicket {
  id: string;
  agency: number;
}

/**
 * Take in charge then close, over HTTP, by `clients` concurrent clients for
 * `seconds`. The tickets are opened just before, through the same API (their
 * timings are reported apart), so the measured window holds only the two
 * commands. Each agency's admin works on its own agency's tickets.
 */
export async function commandsScenario(db: BenchDatabase, stack: StackProcess, levels: readonly number[], seconds: number, say: (m: string) => void): Promise<CommandLevelResult[]> {
  const agencies = db.seed.master.agencies;
  const tokens = await Promise.all(agencies.map((agency) => login(stack.url, agency.admin.email)));
  const installationsByAgency = agencies.map((agency) => db.seed.master.installations.filter((i) => i.agenceId === agency.id));
  const results: CommandLevelResult[] = [];
  let expectedRate = 40; // commands/s, refined after each level
  let opened = 0;
  let openConflicts = 0;
  for (const clients of levels) {
    const wanted = Math.max(clients * 4, Math.ceil((expectedRate * seconds * 1.5) / 2));
    say(`  ${clients} client(s) : ouverture de ${wanted} tickets…`);
    stack.mark();
    const tickets: OpenTicket[] = (
      await pool(wanted, 16, async (index) => {
        // Client c works for agency c % agencies: open tickets only where some client will take them.
        const agency = index % Math.min(clients, agencies.length);
        const installations = installationsByAgency[agency]!;
        const installation = installations[(opened + index) % installations.length]!;
        const open = () =>
          callForm<{ ticket_id?: string; id?: string }>(stack.url, tokens[agency]!, '/api/tickets/manual/ticket-create', {
            installation_id: installation.id,
            nom: 'Martin',
            prenom: 'Claire',
            email: 'claire.martin@client.fr',
            telephone: '06 12 34 56 78',
            probleme: 'Banc de mesure : alarme en dérangement.',
          });
        let answer = await open();
        // Many openings at once in one agency race for its num_chrono counter; past its own
        // retries the API answers 409, and the screen's user would simply send again.
        for (let retry = 0; answer.status === 409 && retry < 5; retry++) {
          openConflicts++;
          answer = await open();
        }
        if (answer.status >= 300) throw new Error(`ouverture : ${answer.status} ${JSON.stringify(answer.body)}`);
        return { id: answer.body.ticket_id ?? answer.body.id ?? '', agency };
      })
    ).filter((ticket) => ticket.id !== '');
    opened += wanted;
    const openTimings = (await stack.collect()).timings.filter((t) => t.method === 'POST' && t.url.startsWith('/api/tickets/manual'));

    const queues = agencies.map((_, agency) => tickets.filter((ticket) => ticket.agency === agency));
    stack.mark();
    const latencies: number[] = [];
    let failures = 0;
    const postgresBefore = await postgresCpuMs();
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        const agency = client % agencies.length;
        const queue = queues[agency]!;
        const technicians = agencies[agency]!.technicians;
        while (performance.now() < deadline) {
          const ticket = queue.pop();
          if (!ticket) break;
          const take = await call(stack.url, tokens[agency]!, 'PATCH', `/api/tickets/${ticket.id}`, { statut: 'en_cours', technicien_id: technicians[client % technicians.length]!.id });
          if (take.status !== 200) failures++;
          else latencies.push(take.ms);
          const close = await call(stack.url, tokens[agency]!, 'PATCH', `/api/tickets/${ticket.id}/close`, {
            constat_tech: 'Banc de mesure : détecteur remplacé, essais concluants.',
            remarque_tech: '',
            devis: 0,
            etat_arrivee: 'En dérangement',
            etat_depart: 'Fonctionnel',
            temps_trajet: '00:20',
            signature_client: PNG_DATA_URL,
            signature_technicien: PNG_DATA_URL,
          });
          if (close.status !== 200) failures++;
          else latencies.push(close.ms);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const collected = await stack.collect();
    const postgresAfter = await postgresCpuMs();
    const postgresUsed = postgresBefore === null || postgresAfter === null ? null : postgresAfter - postgresBefore;
    const patches = collected.timings.filter((t) => t.method === 'PATCH');
    const result: CommandLevelResult = {
      clients,
      commands: latencies.length,
      seconds: elapsed,
      commandsPerSecond: latencies.length / elapsed,
      latency: distribution(latencies),
      takeServer: distribution(patches.filter((t) => !t.url.endsWith('/close')).map((t) => t.ms)),
      closeServer: distribution(patches.filter((t) => t.url.endsWith('/close')).map((t) => t.ms)),
      openServer: distribution(openTimings.map((t) => t.ms)),
      failures,
      peakRssMb: collected.peakRssMb,
      cpu: cpuCost(latencies.length, elapsed, collected.cpuMs, postgresUsed),
    };
    if (openConflicts > 0) say(`  (${openConflicts} ouverture(s) refusée(s) en 409 par la concurrence sur le compteur num_chrono, renvoyée(s))`);
    openConflicts = 0;
    if (queues.slice(0, Math.min(clients, agencies.length)).some((queue) => queue.length === 0)) say(`  (réserve de tickets épuisée avant la fin : mesure sur ${elapsed.toFixed(1)} s)`);
    say(`  ${clients} client(s) : ${result.commandsPerSecond.toFixed(0)} commandes/s, p50 ${result.latency.median.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, échecs ${failures}`);
    say(`    CPU par commande : pile ${result.cpu.stackMs.toFixed(1)} ms, Postgres ${result.cpu.postgresMs?.toFixed(1) ?? '—'} ms ; cœurs occupés à ${(result.cpu.utilisation * 100).toFixed(0)} % ; plafond ${result.cpu.ceilingPerSecond.toFixed(0)} commandes/s`);
    expectedRate = Math.max(expectedRate, result.commandsPerSecond);
    results.push(result);
  }
  return results;
}
