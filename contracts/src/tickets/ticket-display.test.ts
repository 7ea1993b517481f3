import { describe, expect, it } from 'vitest';
import type { TicketStatus } from './ticket-constants.js';
import {
  compareTicketsForList,
  formatLateDuration,
  formatOverrunHours,
  sortTicketsForList,
  ticketCardLabel,
  ticketErrorText,
  ticketLateLabel,
  ticketOverrunHours,
  ticketQuoteState,
  ticketUrgentClosure,
} from './ticket-display.js';

describe('ticketCardLabel', () => {
  it.each([
    ['ouvert', false, 'Ouvert'],
    ['en_cours', false, 'En cours'],
    ['intervention', false, 'En cours'],
    ['clos', false, 'Clos'],
    ['ouvert', true, 'Urgent'],
    ['en_cours', true, 'Urgent'],
    ['clos', true, 'Urgent'],
  ] as const)('%s with urgent=%s reads %s', (statut, urgent, label) => {
    expect(ticketCardLabel({ statut, urgent })).toBe(label);
  });
});

function ticket(id: string, statut: TicketStatus, urgent: boolean, created_at: string) {
  return { id, statut, urgent, created_at };
}

describe('sortTicketsForList', () => {
  it('puts non-closed urgent first, then ouvert, then other non-closed, clos last', () => {
    const tickets = [
      ticket('closed-urgent', 'clos', true, '2026-03-05T10:00:00Z'),
      ticket('in-progress', 'en_cours', false, '2026-03-05T10:00:00Z'),
      ticket('open', 'ouvert', false, '2026-03-01T10:00:00Z'),
      ticket('urgent-intervention', 'intervention', true, '2026-03-01T10:00:00Z'),
      ticket('intervention', 'intervention', false, '2026-03-04T10:00:00Z'),
      ticket('urgent-open', 'ouvert', true, '2026-03-02T10:00:00Z'),
    ];
    expect(sortTicketsForList(tickets).map((t) => t.id)).toEqual([
      'urgent-open',
      'urgent-intervention',
      'open',
      'in-progress',
      'intervention',
      'closed-urgent',
    ]);
  });

  it('orders a group newest first, then by id descending for equal instants', () => {
    const sameTime = '2026-03-05T10:00:00Z';
    const tickets = [ticket('a', 'ouvert', false, sameTime), ticket('old', 'ouvert', false, '2026-03-01T00:00:00Z'), ticket('b', 'ouvert', false, sameTime)];
    expect(sortTicketsForList(tickets).map((t) => t.id)).toEqual(['b', 'a', 'old']);
  });

  it('does not reorder the input array', () => {
    const tickets = [ticket('closed', 'clos', false, '2026-03-01T00:00:00Z'), ticket('open', 'ouvert', false, '2026-03-01T00:00:00Z')];
    sortTicketsForList(tickets);
    expect(tickets[0]?.id).toBe('closed');
  });

  it('is a consistent comparator (a before b means b after a)', () => {
    const a = ticket('a', 'ouvert', true, '2026-03-01T00:00:00Z');
    const b = ticket('b', 'en_cours', false, '2026-03-09T00:00:00Z');
    expect(Math.sign(compareTicketsForList(a, b))).toBe(-Math.sign(compareTicketsForList(b, a)));
    expect(compareTicketsForList(a, a)).toBe(0);
  });
});

describe('ticketOverrunHours', () => {
  it('gives the overrun to one decimal', () => {
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', '2026-03-01T11:30:00Z')).toBe(1.5);
  });

  it('rounds up so a small overrun never reads zero', () => {
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', '2026-03-01T10:02:00Z')).toBe(0.1);
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', '2026-03-01T11:07:00Z')).toBe(1.2);
  });

  it('is null when closed on or before the deadline, or without one', () => {
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', '2026-03-01T10:00:00Z')).toBeNull();
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', '2026-03-01T09:00:00Z')).toBeNull();
    expect(ticketOverrunHours(null, '2026-03-01T09:00:00Z')).toBeNull();
    expect(ticketOverrunHours('2026-03-01T10:00:00Z', null)).toBeNull();
  });

  it('formats with a French decimal comma', () => {
    expect(formatOverrunHours(1.5)).toBe('1,5 h');
    expect(formatOverrunHours(12)).toBe('12,0 h');
  });
});

describe('ticketUrgentClosure', () => {
  const late = { echeance: '2026-03-01T10:00:00Z', clos_at: '2026-03-01T12:15:00Z' };

  it("flags a closed urgent ticket 'Fermé en urgence' with its overrun", () => {
    expect(ticketUrgentClosure({ statut: 'clos', urgent: true, ...late })).toEqual({ closedUrgent: true, overrunHours: 2.3, label: 'Fermé en urgence' });
  });

  it('flags it without overrun when closed in time', () => {
    expect(ticketUrgentClosure({ statut: 'clos', urgent: true, echeance: '2026-03-01T10:00:00Z', clos_at: '2026-03-01T09:00:00Z' })).toMatchObject({ closedUrgent: true, overrunHours: null });
  });

  it('does not flag open urgent tickets nor closed ordinary ones', () => {
    expect(ticketUrgentClosure({ statut: 'en_cours', urgent: true, ...late }).closedUrgent).toBe(false);
    expect(ticketUrgentClosure({ statut: 'clos', urgent: false, ...late }).closedUrgent).toBe(false);
  });
});

describe('ticketQuoteState', () => {
  it('has no quote when devis is 0', () => {
    expect(ticketQuoteState({ devis: 0, numero_devis: null })).toBe('none');
  });

  it('is pending with devis and no number, validated with one', () => {
    expect(ticketQuoteState({ devis: 1, numero_devis: null })).toBe('pending');
    expect(ticketQuoteState({ devis: 1, numero_devis: '  ' })).toBe('pending');
    expect(ticketQuoteState({ devis: 1, numero_devis: 'D-2026-17' })).toBe('validated');
  });
});

describe('ticketErrorText', () => {
  it("shows the server's error field, else the screen's fallback", () => {
    expect(ticketErrorText({ error: 'Ce ticket est clos.' })).toBe('Ce ticket est clos.');
    expect(ticketErrorText({ error: '' }, 'Erreur lors de la validation du devis')).toBe('Erreur lors de la validation du devis');
    expect(ticketErrorText('<html>', 'Erreur lors de la création.')).toBe('Erreur lors de la création.');
    expect(ticketErrorText(null)).toBe('Erreur serveur');
  });
});

describe('ticketLateLabel (issue 32: late tickets say how late)', () => {
  const now = Date.parse('2026-03-12T12:00:00.000Z');
  const hoursBefore = (hours: number) => new Date(now - hours * 3_600_000).toISOString();

  it('says « En retard de 2 j 5 h » for a non-closed ticket past its échéance, rounded down', () => {
    expect(ticketLateLabel({ statut: 'en_cours', echeance: hoursBefore(53.9) }, now)).toBe('En retard de 2 j 5 h');
    expect(ticketLateLabel({ statut: 'ouvert', echeance: hoursBefore(10.5) }, now)).toBe('En retard de 10 h');
    expect(ticketLateLabel({ statut: 'intervention', echeance: hoursBefore(0.2) }, now)).toBe('En retard de 12 min');
  });

  it('says nothing for a ticket on time, closed, or without échéance', () => {
    expect(ticketLateLabel({ statut: 'ouvert', echeance: hoursBefore(-1) }, now)).toBeNull();
    expect(ticketLateLabel({ statut: 'ouvert', echeance: hoursBefore(0) }, now)).toBeNull();
    expect(ticketLateLabel({ statut: 'clos', echeance: hoursBefore(30) }, now)).toBeNull();
    expect(ticketLateLabel({ statut: 'ouvert', echeance: null }, now)).toBeNull();
  });

  it('formats whole days with their hours, and never less than a minute', () => {
    expect(formatLateDuration(24 * 3_600_000)).toBe('1 j 0 h');
    expect(formatLateDuration(1_000)).toBe('1 min');
  });
});
