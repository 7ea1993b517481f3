import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REPORT_ERROR_TEXT_MAX, type ReportEvent } from '@fsm/contracts';
import { expectSameRows, useReadModelHarness } from '../../test-support/read-model-harness.js';
import { reportsProjector } from './reports-projector.js';
import { findReport, findReportByFilename, listReportEmails, listTicketReportEmails, listTicketReports } from './reports-queries.js';

const h = useReadModelHarness('rm_reports', [reportsProjector]);

const at = '2026-03-02T10:06:00.000Z';
const reportId = randomUUID();
const ticketId = randomUUID();
const stream = `report-${reportId}`;
const requested: ReportEvent = {
  type: 'ReportRequested',
  data: { reportId, ticketId, interventionId: null, demandeur: { prenom: 'Claire', nom: 'Martin', email: 'c@x.fr' }, technicien: null, requestedAt: at },
};
const generated: ReportEvent = {
  type: 'ReportGenerated',
  data: {
    reportId,
    ticketId,
    interventionId: null,
    filename: 'rapport-LYO-2026-00042-aaaaaaaa.pdf',
    blobRef: `${'a'.repeat(64)}.pdf`,
    sha256: 'a'.repeat(64),
    bytes: 1234,
    templateId: null,
    templateName: null,
    unknownVariables: ['ticket.inconnu'],
    templateFallback: null,
    generatedAt: at,
  },
};
const emailRequested = (email: string): ReportEvent => ({
  type: 'ReportEmailRequested',
  data: { reportId, ticketId, recipient: { email, nom: 'Martin', prenom: 'Claire' }, ticketNumber: 'LYO-2026-00042', site: 'A', installation: 'B', agenceNom: null, requestedAt: at },
});

const tables = async () => ({
  reports: await h.selectAll('rm.reports'),
  emails: await h.selectAll('rm.report_emails', 'request_event_id'),
});

describe('reports read model', () => {
  it('follows a report from request to generation, and its e-mails to their outcome', async () => {
    await h.given(stream, [requested]);
    expect((await findReport(h.pool, reportId))?.status).toBe('requested');
    await h.given(stream, [generated, emailRequested('a@x.fr'), emailRequested('b@x.fr')]);
    const report = await findReportByFilename(h.pool, 'rapport-LYO-2026-00042-aaaaaaaa.pdf');
    expect(report).toMatchObject({ id: reportId, ticket_id: ticketId, status: 'generated', sha256: 'a'.repeat(64), unknown_variables: ['ticket.inconnu'] });
    expect(await listTicketReports(h.pool, ticketId)).toHaveLength(1);
    const emails = await listReportEmails(h.pool, reportId);
    expect(emails.map((email) => [email.recipient_email, email.status])).toEqual([
      ['a@x.fr', 'requested'],
      ['b@x.fr', 'requested'],
    ]);
    const [a, b] = emails;
    await h.given(stream, [
      { type: 'ReportEmailed', data: { reportId, requestEventId: a!.request_event_id, recipient: 'a@x.fr', messageId: '<m@x>', transport: 'smtp', sentAt: at } },
      { type: 'ReportEmailFailed', data: { reportId, requestEventId: b!.request_event_id, recipient: 'b@x.fr', error: '550', permanent: true, failedAt: at } },
    ]);
    expect((await listReportEmails(h.pool, reportId)).map((email) => [email.recipient_email, email.status, email.permanent])).toEqual([
      ['a@x.fr', 'sent', null],
      ['b@x.fr', 'failed', true],
    ]);
  });

  it('keeps a failure text bounded, and gives a ticket the latest e-mail per recipient (a failed one asked again)', async () => {
    const otherReport = randomUUID();
    const otherTicket = randomUUID();
    const otherStream = `report-${otherReport}`;
    const ask = (email: string, requestedAt: string): ReportEvent => ({
      type: 'ReportEmailRequested',
      data: { reportId: otherReport, ticketId: otherTicket, recipient: { email, nom: '', prenom: '' }, ticketNumber: 'N', site: 'S', installation: 'I', agenceNom: null, requestedAt },
    });
    await h.given(otherStream, [{ ...generated, data: { ...generated.data, reportId: otherReport, ticketId: otherTicket, filename: 'rapport-N-bbbbbbbb.pdf' } }, ask('a@x.fr', at)]);
    const [first] = await listReportEmails(h.pool, otherReport);
    await h.given(otherStream, [
      { type: 'ReportEmailFailed', data: { reportId: otherReport, requestEventId: first!.request_event_id, recipient: 'a@x.fr', error: `550 ${'x'.repeat(5000)}`, permanent: true, failedAt: at } },
      ask('A@x.fr', '2026-03-02T11:00:00.000Z'),
    ]);
    expect((await listReportEmails(h.pool, otherReport)).find((email) => email.status === 'failed')?.error).toHaveLength(REPORT_ERROR_TEXT_MAX);
    expect((await listTicketReportEmails(h.pool, otherTicket)).map((email) => [email.recipient_email, email.status])).toEqual([['A@x.fr', 'requested']]);
  });

  it('changes nothing when events are delivered again, and gives the same rows after a rebuild', async () => {
    await expectSameRows(tables, () => h.redeliver([stream]));
    await expectSameRows(tables, h.rebuild);
  });
});
