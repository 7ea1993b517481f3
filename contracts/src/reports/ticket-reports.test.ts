import { describe, expect, it } from 'vitest';
import { reportEmailFailure, reportGenerationFailure } from './ticket-reports.js';
import { reportAlreadySentMessage } from './report.js';

// What nodemailer and the e-mail worker record in ReportEmailFailed, as the ticket detail explains it.
describe('reportEmailFailure', () => {
  it('quotes the server’s reply when it refused the address, and says what to do', () => {
    expect(reportEmailFailure("Can't send mail - all recipients were rejected: 550 5.1.1 <x@y.fr>: User unknown", true)).toEqual({
      reason: 'address-refused',
      message: 'L’envoi du rapport a échoué : adresse refusée par le serveur de messagerie (550 5.1.1 <x@y.fr>: User unknown). Vérifiez l’adresse, puis renvoyez le rapport.',
    });
  });

  it('tells a refused message from a refused address', () => {
    expect(reportEmailFailure('Message failed: 552 5.3.4 Message size exceeds fixed limit', true).reason).toBe('message-refused');
  });

  it('says the server could not be reached, without its host or port', () => {
    const failure = reportEmailFailure('connect ECONNREFUSED 10.0.0.5:2525', false);
    expect(failure.reason).toBe('server-unreachable');
    expect(failure.message).not.toContain('10.0.0.5');
    expect(failure.message).toContain('injoignable');
  });

  it('sends a login refusal to the administrator, and a missing report back to the user', () => {
    expect(reportEmailFailure('Invalid login: 535 5.7.8 Authentication failed', false).reason).toBe('server-login');
    expect(reportEmailFailure('report 1b2c is not generated yet', false).reason).toBe('report-missing');
  });

  it('bounds what it quotes, and never fails on an empty or odd text', () => {
    const long = reportEmailFailure(`rejected: 550 ${'x'.repeat(3000)}\u0000`, true);
    expect(long.message.length).toBeLessThan(400);
    expect(reportEmailFailure(null, null).reason).toBe('other');
    expect(reportEmailFailure('', false).message).toMatch(/^L’envoi du rapport a échoué : /);
  });
});

// Issue 32: what a failed generation and an address already sent tell the user.
describe('reportGenerationFailure', () => {
  it('names the reason and says it can be asked again', () => {
    expect(reportGenerationFailure('report x: ticket y not found')).toBe('La génération du rapport a échoué : le ticket ou sa visite est introuvable. Vous pouvez la relancer.');
    expect(reportGenerationFailure('Rendu interrompu : plus de 30 s de calcul.')).toBe('La génération du rapport a échoué : Rendu interrompu : plus de 30 s de calcul. Vous pouvez la relancer.');
  });

  it('does not quote an unknown technical text', () => {
    expect(reportGenerationFailure('connect ECONNREFUSED /var/run/postgresql')).not.toContain('postgresql');
  });
});

describe('reportAlreadySentMessage', () => {
  it('says when, in Paris time', () => {
    expect(reportAlreadySentMessage({ email: 'x@y.fr', status: 'sent', requestedAt: '2026-11-12T13:04:00.000Z', sentAt: '2026-11-12T13:05:00.000Z' })).toBe(
      'Déjà envoyé le 12/11/2026 à 14:05 à x@y.fr.',
    );
    expect(reportAlreadySentMessage({ email: 'x@y.fr', status: 'requested', requestedAt: '2026-07-01T12:00:00.000Z', sentAt: null })).toBe(
      'Envoi en cours à x@y.fr (demandé le 01/07/2026 à 14:00).',
    );
  });
});
