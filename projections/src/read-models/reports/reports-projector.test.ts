import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, type ReadModelHarness } from '../../test-support/read-model-harness.js';
import { reportsProjector } from './reports-projector.js';
import { findReport, findReportByFilename, listReportEmails, listTicketReports } from './reports-queries.js';

const projectors: Projector[] = [reportsProjector];
let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_reports', projectors);
  h.pool.on('error', () => undefined);
});
afterAll(async () => h?.close());

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
  reports: (await h.pool.query('SELECT * FROM rm.reports ORDER BY id')).rows,
  emails: (await h.pool.query('SELECT * FROM rm.report_emails ORDER BY request_event_id')).rows,
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

  it('changes nothing when events are delivered again, and gives the same rows after a rebuild', async () => {
    const before = await tables();
    const tx = await h.pool.connect();
    try {
      await tx.query('BEGIN');
      for (const event of (await h.store.readStream(stream)).reverse()) await reportsProjector.apply(tx, event);
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }
    expect(await tables()).toEqual(before);
    await h.rebuild();
    expect(await tables()).toEqual(before);
  });
});
