import { randomUUID } from 'node:crypto';
import { METIERS_STREAM_ID, agenceEventSchema, agenceStreamId, metierEventSchema, parseRecorded, type AgenceHoraire, type TicketPerson } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { commandContext } from '../../src/commands/command-context.js';
import { runTicketCommand } from '../../src/commands/tickets/ticket-command-support.js';
import { execute } from '../../src/commands/execute.js';
import { agenceDecider } from '../../src/domain/agence/index.js';
import { metiersDecider } from '../../src/domain/metier/index.js';
import { ticketDecider } from '../../src/domain/ticket/index.js';
import type { ApiHarness } from '../../src/test-support/api-harness.js';

/**
 * Tickets, trades and agency hours appended through their deciders, as the
 * ticket and management routes would: the stats tests do not depend on those
 * routes, which are built separately.
 */
export function ticketSeed(h: ApiHarness) {
  const context = commandContext(h.deps);
  const toMetierEvent = (r: RecordedEvent) => parseRecorded(metierEventSchema, r);
  const toAgenceEvent = (r: RecordedEvent) => parseRecorded(agenceEventSchema, r);
  const ticketCommand = (id: string, command: Parameters<typeof ticketDecider.decide>[0]) => runTicketCommand({ context, actor: h.system }, id, command);

  return {
    async metier(HO_stats: 0 | 1, nom = `Métier ${randomUUID().slice(0, 8)}`): Promise<{ id: string; nom: string }> {
      const metierId = randomUUID();
      await execute(
        context,
        metiersDecider,
        METIERS_STREAM_ID,
        { type: 'CreateMetier', data: { metierId, fields: { nom, ordre: null, delai_inter: 4, HO_stats }, createdAt: '2025-01-01T08:00:00.000Z' } },
        h.system,
        toMetierEvent,
      );
      return { id: metierId, nom };
    },

    async setHoStats(metier: { id: string; nom: string }, HO_stats: 0 | 1): Promise<void> {
      await execute(
        context,
        metiersDecider,
        METIERS_STREAM_ID,
        { type: 'UpdateMetier', data: { metierId: metier.id, fields: { nom: metier.nom, ordre: null, delai_inter: 4, HO_stats }, updatedAt: '2025-07-01T08:00:00.000Z' } },
        h.system,
        toMetierEvent,
      );
    },

    async setHoraires(agenceId: string, horaires: AgenceHoraire[]): Promise<void> {
      await execute(
        context,
        agenceDecider,
        agenceStreamId(agenceId),
        { type: 'SetAgenceHoraires', data: { agenceId, horaires, updatedAt: '2025-07-01T08:00:00.000Z' } },
        h.system,
        toAgenceEvent,
      );
    },

    async open(o: {
      agenceId: string;
      metier: { id: string; nom: string } | null;
      openedAt: string;
      delai?: number | null;
      clientNom?: string;
      siteNom?: string;
      installationNom?: string;
      numChrono?: string;
      urgent?: boolean;
    }): Promise<string> {
      const ticketId = randomUUID();
      await ticketCommand(ticketId, {
        type: 'OpenTicket',
        data: {
          ticketId,
          numChrono: o.numChrono ?? `LYO-2025-${ticketId.slice(0, 5)}`,
          source: 'manual',
          agenceId: o.agenceId,
          client: { id: randomUUID(), nom: o.clientNom ?? 'Hôpital Nord' },
          site: { id: randomUUID(), nom: o.siteNom ?? 'Bâtiment A', adresse: '1 rue du Feu', code_postal: '69001', ville: 'Lyon' },
          installation: { id: randomUUID(), nom: o.installationNom ?? 'SSI cat. A', astreinte: 1 },
          metier: o.metier,
          delai: o.delai === undefined ? 4 : o.delai,
          urgent: o.urgent ?? false,
          probleme: 'Alarme en dérangement',
          photo: null,
          requester: { nom: 'Durand', prenom: 'Paul', email: 'paul@client.fr', telephone: '0601020304' },
          operateur: null,
          openedAt: o.openedAt,
          now: h.deps.clock().toISOString(),
        },
      });
      return ticketId;
    },

    async take(ticketId: string, technicien: TicketPerson, takenAt: string): Promise<void> {
      await ticketCommand(ticketId, { type: 'TakeTicketInCharge', data: { technicien, takenAt } });
    },

    async close(ticketId: string, v: { arriveAt: string; closedAt: string; devis?: 0 | 1 }): Promise<void> {
      await ticketCommand(ticketId, {
        type: 'CloseTicket',
        data: {
          constatTech: 'Détecteur remplacé',
          devis: v.devis ?? 0,
          arriveAt: v.arriveAt,
          closedAt: v.closedAt,
          etatArrivee: 'En dérangement',
          etatDepart: 'Fonctionnel',
          signatureClient: 'sig-client',
          signatureTechnicien: 'sig-tech',
          now: h.deps.clock().toISOString(),
        },
      });
    },

    async reintervene(ticketId: string, v: { arriveAt: string; closedAt: string; devis?: 0 | 1 }): Promise<void> {
      await ticketCommand(ticketId, {
        type: 'RecordReintervention',
        data: {
          interventionId: randomUUID(),
          constatTech: 'Pièce à commander',
          devis: v.devis ?? 0,
          arriveAt: v.arriveAt,
          closedAt: v.closedAt,
          etatArrivee: 'Hors service',
          etatDepart: 'Partiellement fonctionnel',
          signatureClient: 'sig-client',
          signatureTechnicien: 'sig-tech',
          now: h.deps.clock().toISOString(),
        },
      });
    },

    async validateQuote(ticketId: string, dateEnregistrementDevis: string): Promise<void> {
      await ticketCommand(ticketId, { type: 'ValidateQuote', data: { numeroDevis: 'D-2025-001', dateEnregistrementDevis, validatedAt: '2025-06-30T08:00:00.000Z' } });
    },

    /**
     * The list tests' status cycle: `step` 0 leaves the ticket open, 1 in
     * charge, 2 with a re-intervention, 3 and 4 closed, 5 closed after a
     * re-intervention; `at(hours)` is that long after it opened, and a `late`
     * close comes after 80 hours.
     */
    async cycle(ticketId: string, step: number, technicien: TicketPerson, at: (hours: number) => string, close: { late: boolean; devis: 0 | 1 }): Promise<void> {
      if (step === 0) return; // ouvert
      await this.take(ticketId, technicien, at(0.5));
      if (step === 1) return; // en_cours
      if (step === 2 || step === 5) await this.reintervene(ticketId, { arriveAt: at(2), closedAt: at(3), devis: 1 }); // intervention
      if (step === 2) return;
      await this.close(ticketId, { arriveAt: at(close.late ? 80 : 5), closedAt: at(close.late ? 81 : 6), devis: close.devis });
    },
  };
}
