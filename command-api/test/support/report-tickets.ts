import { randomUUID } from 'node:crypto';
import { QUEUE_NAMES, createQueues } from '@fsm/workers';
import { signaturePng } from '@fsm/workers/test-support';
import { commandContext } from '../../src/commands/command-context.js';
import { runTicketCommand } from '../../src/commands/tickets/ticket-command-support.js';
import type { TicketCommand } from '../../src/domain/ticket/index.js';
import type { ApiHarness, TestUser } from '../../src/test-support/api-harness.js';

/*
 * Tickets for the report tests (reports-api, report-failure-api): opened and
 * taken in charge by `tech`, closed with two signatures, through the ticket
 * decider as the ticket routes do.
 */

/** The clock the commands below were decided at: the day after the visits. */
const DECIDED_AT = '2026-03-03T00:00:00.000Z';

export const visitData = {
  constatTech: 'Détecteur optique encrassé, remplacé',
  remarqueTech: 'RAS',
  devis: 1,
  arriveAt: '2026-03-02T09:00:00.000Z',
  closedAt: '2026-03-02T10:05:00.000Z',
  etatArrivee: 'En alarme feu',
  etatDepart: 'Fonctionnel',
  tempsTrajet: '00:35',
  now: DECIDED_AT,
};

/** `world` is read when a test runs: the harness, agency and technician are made in `beforeAll`. */
export function reportTickets(world: () => { h: ApiHarness; agenceId: string; tech: TestUser }) {
  const run = async (ticketId: string, command: TicketCommand): Promise<void> => {
    const { h } = world();
    await runTicketCommand({ context: commandContext(h.deps), actor: h.system }, ticketId, command);
  };

  async function openTicket(numChrono: string): Promise<string> {
    const ticketId = randomUUID();
    const { agenceId, tech } = world();
    const paul = { id: tech.id, prenom: 'Paul', nom: 'Durand' };
    await run(ticketId, {
      type: 'OpenTicket',
      data: {
        ticketId,
        numChrono,
        source: 'manual',
        agenceId,
        client: { id: randomUUID(), nom: 'Clinique du Parc' },
        site: { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
        installation: { id: randomUUID(), nom: 'SSI catégorie A', astreinte: 1 },
        metier: { id: randomUUID(), nom: 'Sécurité incendie' },
        delai: 4,
        urgent: false,
        probleme: 'Alarme feu sans cause',
        photo: null,
        requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
        operateur: null,
        openedAt: '2026-03-02T08:00:00.000Z',
        inCharge: { technicien: paul, takenAt: '2026-03-02T08:10:00.000Z' },
        now: DECIDED_AT,
      },
    });
    return ticketId;
  }

  /** The two signatures of a visit, in the file store. */
  async function visit(): Promise<{ signatureClient: string; signatureTechnicien: string }> {
    const { blobs } = world().h.deps;
    return { signatureClient: await blobs.put(signaturePng(1), 'png'), signatureTechnicien: await blobs.put(signaturePng(2), 'png') };
  }

  async function closedTicket(numChrono: string): Promise<string> {
    const ticketId = await openTicket(numChrono);
    await run(ticketId, { type: 'CloseTicket', data: { ...visitData, ...(await visit()) } });
    return ticketId;
  }

  return { run, openTicket, visit, closedTicket };
}

/** Empties a test file's queues (its own prefix) in Redis. */
export async function obliterateQueues(redisUrl: string, prefix: string): Promise<void> {
  const queues = createQueues(redisUrl, prefix);
  for (const name of QUEUE_NAMES) await queues.get(name).obliterate({ force: true }).catch(() => undefined);
  await queues.close();
}
