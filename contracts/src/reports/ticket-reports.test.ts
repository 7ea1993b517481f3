import { describe, expect, it } from 'vitest';
import { reportEmailFailure } from './ticket-reports.js';

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
