import { reportEventSchema, type ReportEvent } from '@fsm/contracts';
import { describe, expect, it } from 'vitest';
import { fold } from '../decider.js';
import { IDS, T1, T2 } from '../test-support/management-decider-spec.js';
import { reportDecider, type ReportCommand } from './decide.js';

const reportId = IDS.batch;
const ticketId = IDS.client;
const requestEventId = IDS.user;

function given(...history: ReportEvent[]) {
  const state = fold(reportDecider.evolve, reportDecider.initialState, history);
  return {
    when: (command: ReportCommand) => ({
      then(expected: ReportEvent[]) {
        const events = reportDecider.decide(command, state);
        expect(events).toEqual(expected);
        for (const event of events) expect(reportEventSchema.parse(event)).toEqual(event);
      },
    }),
  };
}

const requestedData = { reportId, ticketId, interventionId: null, demandeur: null, technicien: null, requestedAt: T1 };
const requested: ReportEvent = { type: 'ReportRequested', data: requestedData };
const request: ReportCommand = { type: 'RequestReport', data: requestedData };
const generated: ReportEvent = {
  type: 'ReportGenerated',
  data: {
    reportId,
    ticketId,
    interventionId: null,
    filename: 'rapport-LYO-2026-0001-abcdef12.pdf',
    blobRef: `${'a'.repeat(64)}.pdf`,
    sha256: 'a'.repeat(64),
    bytes: 1200,
    templateId: null,
    templateName: null,
    unknownVariables: [],
    templateFallback: null,
    generatedAt: T1,
  },
};
const generationFailed: ReportEvent = { type: 'ReportGenerationFailed', data: { reportId, ticketId, interventionId: null, error: 'boom', failedAt: T1 } };

const facts = { reportId, ticketId, ticketNumber: 'LYO-2026-0001', site: 'Bâtiment A', installation: 'SSI', agenceNom: 'Agence Lyon', requestedAt: T2 };
const alice = { email: 'alice@client.fr', nom: 'Martin', prenom: 'Alice' };
const bob = { email: 'bob@client.fr', nom: 'Petit', prenom: 'Bob' };
const emailTo = (...recipients: (typeof alice)[]): ReportCommand => ({ type: 'RequestReportEmails', data: { recipients, facts } });
const resendTo = (recipient: typeof alice, knownRequests: number): ReportCommand => ({
  type: 'RequestReportEmails',
  data: { recipients: [recipient], facts, resend: new Map([[recipient.email, knownRequests]]) },
});
const emailed = (recipient: typeof alice): ReportEvent => ({
  type: 'ReportEmailed',
  data: { reportId, requestEventId, recipient: recipient.email, messageId: '<m@x>', transport: 'smtp', sentAt: T2 },
});
const asked = (recipient: typeof alice): ReportEvent => ({ type: 'ReportEmailRequested', data: { ...facts, recipient } });
const failedFor = (recipient: typeof alice): ReportEvent => ({
  type: 'ReportEmailFailed',
  data: { reportId, requestEventId, recipient: recipient.email, error: '550', permanent: true, failedAt: T2 },
});

describe('when the report was never asked for', () => {
  it('asks for it', () => given().when(request).then([requested]));
});

describe('when the report was asked for', () => {
  it('asks nothing more while it is pending or generated', () => {
    given(requested).when(request).then([]);
    given(requested, generated).when(request).then([]);
  });

  it('asks again after a failed generation, not after a later success', () => {
    given(requested, generationFailed).when(request).then([requested]);
    given(requested, generationFailed, generated).when(request).then([]);
  });
});

describe('when the report is generated', () => {
  it('asks one e-mail per recipient not asked yet', () => {
    given(requested, generated).when(emailTo(alice, bob)).then([asked(alice), asked(bob)]);
    given(requested, generated, asked(alice)).when(emailTo(alice, bob)).then([asked(bob)]);
  });

  it('asks again a recipient whose latest e-mail failed', () => {
    given(requested, generated, asked(alice), failedFor(alice)).when(emailTo(alice)).then([asked(alice)]);
    given(requested, generated, asked(alice), failedFor(alice), asked(alice)).when(emailTo(alice)).then([]);
  });
});


describe('when the report was already e-mailed to an address (issue 32)', () => {
  it('sends it again only when the user confirmed, having seen every request', () => {
    given(requested, generated, asked(alice), emailed(alice)).when(emailTo(alice)).then([]);
    given(requested, generated, asked(alice), emailed(alice)).when(resendTo(alice, 1)).then([asked(alice)]);
  });

  it('sends a confirmed re-send once when the same call is retried', () => {
    given(requested, generated, asked(alice), emailed(alice), asked(alice)).when(resendTo(alice, 1)).then([]);
    given(requested, generated, asked(alice), emailed(alice), asked(alice)).when(resendTo(alice, 2)).then([asked(alice)]);
  });

  it('compares addresses without their case', () => {
    const upper = { ...alice, email: 'Alice@Client.fr' };
    given(requested, generated, asked(upper), emailed(upper)).when(emailTo(alice)).then([]);
  });
});
