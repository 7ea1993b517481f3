import { describe, expect, it } from 'vitest';
import { ticketEventSchema, ticketStreamId, type TicketEvent } from './ticket-events.js';

const opened: TicketEvent = {
  type: 'TicketOpened',
  data: {
    ticketId: 't-1',
    numChrono: 'LYO-2026-00001',
    source: 'public',
    agenceId: 'a-1',
    client: { id: 'c-1', nom: 'Clinique du Parc' },
    site: { id: 's-1', nom: 'Bâtiment A', adresse: '1 rue des Lilas', code_postal: '69003', ville: 'Lyon' },
    installation: { id: 'i-1', nom: 'SSI catégorie A', astreinte: 1 },
    metier: null,
    delai: 4,
    echeance: '2026-03-02T12:00:00.000Z',
    urgent: true,
    probleme: 'Alarme feu sans cause',
    photo: null,
    requester: { nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678' },
    operateur: null,
    openedAt: '2026-03-02T08:00:00.000Z',
  },
};

const visit = {
  constatTech: 'Détecteur remplacé',
  remarqueTech: '',
  devis: 1 as const,
  arriveAt: '2026-03-02T09:00:00.000Z',
  closedAt: '2026-03-02T10:00:00.000Z',
  etatArrivee: 'En alarme feu' as const,
  etatDepart: 'Fonctionnel' as const,
  tempsTrajet: '00:30',
  signatureClient: 'sha256-client',
  signatureTechnicien: 'sha256-tech',
  technicien: { id: 'u-1', prenom: 'Paul', nom: 'Durand' },
};

describe('ticketEventSchema', () => {
  it('round-trips every event type through JSON', () => {
    const events: TicketEvent[] = [
      opened,
      { type: 'TicketTakenInCharge', data: { technicien: visit.technicien, takenAt: '2026-03-02T08:30:00.000Z' } },
      { type: 'ReinterventionRecorded', data: { ...visit, interventionId: 'iv-1' } },
      { type: 'TicketClosed', data: visit },
      { type: 'TicketReportAttached', data: { nomRapport: 'rapport.pdf', interventionId: null } },
      { type: 'QuoteValidated', data: { numeroDevis: 'D-17', dateEnregistrementDevis: '2026-03-04', validatedAt: '2026-03-04T10:00:00.000Z' } },
    ];
    for (const event of events) {
      expect(ticketEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
    }
  });

  it('refuses an unknown type and a state outside the lists', () => {
    expect(ticketEventSchema.safeParse({ type: 'TicketDeleted', data: {} }).success).toBe(false);
    expect(ticketEventSchema.safeParse({ type: 'TicketClosed', data: { ...visit, etatDepart: 'Cassé' } }).success).toBe(false);
  });

  it('names the stream ticket-<id>', () => {
    expect(ticketStreamId('8d1f')).toBe('ticket-8d1f');
  });
});
